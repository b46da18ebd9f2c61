/**
 * Guarantees: a node type whose handles are listed in its config (GET /api/node-types `outputsFrom`: a Question
 * classifier's classes plus "other") gets one handle per item, labelled by the item's name, and its fallback handle
 * last; when a class is renamed its edges follow it, and when one is removed its edges go. A type that only says
 * `dynamicOutputs` keeps the Condition node's shape (branches plus "else").
 */
import { describe, expect, it } from 'vitest';
import type { NodeTypeInfo } from '@/components/api/types';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { followHandles } from './branch-handles';
import { outputsOf, type FlowEdge, type FlowNode } from './graph-model';

const described = createDefaultRegistry().describe() as unknown as NodeTypeInfo[];
const classifier = described.find((t) => t.type === 'question_classifier')!;
const condition = described.find((t) => t.type === 'condition')!;

const classes = [
  { id: 'refund', name: 'Refund' },
  { id: 'shipping', name: 'Shipping' },
];
const node = (config: Record<string, unknown>): FlowNode => ({
  id: 'q',
  type: 'question_classifier',
  position: { x: 0, y: 0 },
  data: { label: 'Classify', config },
});
const edge = (handle: string, target: string): FlowEdge => ({
  id: `e-${handle}`,
  source: 'q',
  target,
  sourceHandle: handle,
});

describe('handles listed in the config', () => {
  it('a classifier has one handle per class, by its name, then "other"; the engine lists the same', () => {
    expect(classifier.outputsFrom).toEqual({ list: 'classes', label: 'name', fallback: 'other' });
    expect(outputsOf(classifier, { classes })).toEqual([
      { id: 'refund', label: 'Refund' },
      { id: 'shipping', label: 'Shipping' },
      { id: 'other', label: 'other' },
    ]);
    const engine = createDefaultRegistry().get('question_classifier').outputsFor!({ classes } as never);
    expect(engine.map((o) => o.id)).toEqual(['refund', 'shipping', 'other']);
  });

  it('a condition keeps its branches plus "else", declared or not', () => {
    const branches = [{ id: 'big', label: 'Big' }];
    const expected = [
      { id: 'big', label: 'Big' },
      { id: 'else', label: 'else' },
    ];
    expect(outputsOf(condition, { branches })).toEqual(expected);
    expect(outputsOf({ ...condition, outputsFrom: undefined }, { branches })).toEqual(expected);
  });

  it("edges follow a renamed class and go with a removed one; the fallback's stay", () => {
    const edges = [edge('refund', 'a'), edge('shipping', 'b'), edge('other', 'c')];
    const from = classifier.outputsFrom!;
    const renamed = followHandles(
      node({ classes }),
      { label: 'Classify', config: { classes: [classes[0], { id: 'delivery', name: 'Shipping' }] } },
      edges,
      from,
    );
    expect(renamed.map((e) => e.sourceHandle)).toEqual(['refund', 'delivery', 'other']);
    const removed = followHandles(
      node({ classes }),
      { label: 'Classify', config: { classes: [classes[1]] } },
      edges,
      from,
    );
    expect(removed.map((e) => e.sourceHandle)).toEqual(['shipping', 'other']);
  });
});
