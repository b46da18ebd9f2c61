import { describe, expect, it } from 'vitest';
import type { FlowEdge, FlowNode } from '../graph-model';
import { cardShape } from './card-geometry';
import { nodeTypeInfo } from './node-type-fixtures';
import {
  cardEdges,
  FAR_ZOOM,
  nodeAt,
  nodesInside,
  revealStep,
  sceneNode,
  settled,
  wantedCards,
  type SceneNode,
} from './overview-scene';

const template = nodeTypeInfo('template', ['out']);
const start = nodeTypeInfo('start', ['out'], { inputs: [] });
const condition = nodeTypeInfo('condition', ['else'], { dynamicOutputs: true });

const flowNode = (id: string, x: number, y: number, config: Record<string, unknown> = {}) =>
  ({ id, type: 'template', position: { x, y }, data: { label: id, config } }) as FlowNode;
const scene = (nodes: FlowNode[]): SceneNode[] =>
  nodes.map((n) => sceneNode(n, template, cardShape(n, template), undefined, 0));

/** A 10 × 10 grid of cards 300 px apart across and 150 down. */
const grid = scene(Array.from({ length: 100 }, (_, i) => flowNode(`n${i}`, (i % 10) * 300, Math.floor(i / 10) * 150)));

describe('card geometry', () => {
  it('puts the input and a single output 23 px down the outer sides of a 240 × 96 card', () => {
    const shape = cardShape(flowNode('a', 0, 0), template);
    expect(shape).toEqual({
      width: 240,
      height: 96,
      input: { id: 'in', x: -3, y: 23 },
      outputs: [{ id: 'out', x: 243, y: 23 }],
    });
  });

  it('gives a node without inputs no input handle', () => {
    const n = { ...flowNode('s', 0, 0), type: 'start' } as FlowNode;
    expect(cardShape(n, start).input).toBeNull();
  });

  it('puts each branch output in the middle of its 24 px row, below header, body and the list’s top', () => {
    const n = { ...flowNode('c', 0, 0, { branches: [{ id: 'b1' }, { id: 'b2' }] }), type: 'condition' } as FlowNode;
    const shape = cardShape(n, condition);
    expect(shape.height).toBe(96 + 9 + 3 * 24);
    expect(shape.outputs).toEqual([
      { id: 'b1', x: 243, y: 111 },
      { id: 'b2', x: 243, y: 135 },
      { id: 'else', x: 243, y: 159 },
    ]);
  });
});

describe('which nodes get a card', () => {
  const pane = { width: 1000, height: 600 };

  it('wants the nodes in view, nearest the middle first', () => {
    // At zoom 1 from (0, 0) the view is 1000 × 600 flow px: columns 0–3 (x < 1000) and rows 0–3 (y < 600).
    const wanted = wantedCards(grid, [0, 0, 1], pane.width, pane.height);
    expect(wanted).toHaveLength(16);
    expect(new Set(wanted)).toEqual(new Set([0, 1, 2, 3].flatMap((r) => [0, 1, 2, 3].map((c) => `n${r * 10 + c}`))));
    // The view's middle is (500, 300): n21 (centre 420, 348) is nearest, n3 (centre 1020, 48) farthest.
    expect(wanted[0]).toBe('n21');
    expect(wanted[wanted.length - 1]).toBe('n3');
  });

  it('wants none zoomed out past FAR_ZOOM, where the whole grid is in view', () => {
    expect(wantedCards(grid, [0, 0, FAR_ZOOM], pane.width, pane.height).length).toBeGreaterThan(0);
    expect(wantedCards(grid, [0, 0, FAR_ZOOM - 0.01], pane.width, pane.height)).toEqual([]);
  });

  it('adds at most the budget a frame, in the order wanted, and removes the unwanted up to theirs', () => {
    const wanted = ['a', 'b', 'c', 'd', 'e'];
    const first = revealStep(new Set(['x', 'y', 'z']), wanted, { add: 2, remove: 2 })!;
    expect([...first].sort()).toEqual(['a', 'b', 'z']);
    expect(settled(first, wanted)).toBe(false);
    const second = revealStep(first, wanted, { add: 2, remove: 2 })!;
    expect([...second].sort()).toEqual(['a', 'b', 'c', 'd']);
    const third = revealStep(second, wanted, { add: 2, remove: 2 })!;
    expect(settled(third, wanted)).toBe(true);
    expect(revealStep(third, wanted, { add: 2, remove: 2 })).toBeNull();
  });

  it('hands React Flow only the edges between two cards', () => {
    const edges = [
      { id: 'ab', source: 'a', target: 'b' },
      { id: 'bc', source: 'b', target: 'c' },
    ] as FlowEdge[];
    expect(cardEdges(edges, new Set(['a', 'b'])).map((e) => e.id)).toEqual(['ab']);
  });
});

describe('the pointer on drawn nodes', () => {
  it('finds the node under a flow point, and none between cards', () => {
    expect(nodeAt(grid, { x: 310, y: 160 })?.id).toBe('n11');
    expect(nodeAt(grid, { x: 270, y: 160 })).toBeUndefined();
  });

  it('selects the nodes wholly inside a box', () => {
    const inside = nodesInside(grid, { x: -10, y: -10, width: 560, height: 270 });
    expect(inside.map((n) => n.id)).toEqual(['n0', 'n1', 'n10', 'n11']);
  });
});

describe('a drawn node', () => {
  it('takes its border from the run status, or red for a problem, its title from the label, and its marks', () => {
    const n = flowNode('a', 0, 0);
    const shape = cardShape(n, template);
    const run = { status: 'failed' as const, attempt: 1, tokens: '' };
    expect(sceneNode(n, template, shape, run, 0).stroke).toBe('#ef4444');
    expect(sceneNode(n, template, shape, undefined, 2)).toMatchObject({ stroke: '#f87171', problems: 2 });
    const flagged = { ...n, data: { ...n.data, breakpoint: true, pinned: { text: 'x' } } } as FlowNode;
    expect(sceneNode(flagged, template, shape, undefined, 0)).toMatchObject({ breakpoint: true, pinned: true });
    expect(sceneNode(n, template, shape, undefined, 0)).toMatchObject({ stroke: '#e4e4e7', title: 'a' });
    const skipped = sceneNode(n, template, shape, { ...run, status: 'skipped' }, 0);
    expect(skipped).toMatchObject({ dashed: true, stroke: '#d4d4d8' });
  });
});
