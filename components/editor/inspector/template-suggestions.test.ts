// Guarantees: the `{{` autocomplete offers, for each node upstream of the one being edited, every output field its
// node type declares in the engine's registry — the knowledge, agent and human-input nodes' included — and nothing
// from nodes downstream or unconnected.
import { describe, expect, it } from 'vitest';
import type { NodeTypeInfo } from '@/components/api/types';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import type { FlowEdge, FlowNode } from '../graph-model';
import { templateSuggestions } from './template-suggestions';

// The registry as GET /api/node-types serves it.
const types = new Map(
  (createDefaultRegistry().describe() as unknown as NodeTypeInfo[]).map((t) => [t.type, t] as const),
);
const node = (id: string, type: string, config: Record<string, unknown> = {}): FlowNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const edge = (source: string, target: string): FlowEdge => ({ id: `${source}-${target}`, source, target });

describe('template autocomplete', () => {
  it('offers the declared outputs of every upstream node, from the registry', () => {
    const nodes = [
      node('start', 'start', { inputs: [{ name: 'question' }] }),
      node('kb', 'knowledge'),
      node('agent_1', 'agent'),
      node('ask', 'human_input'),
      node('answer', 'llm'),
      node('after', 'template'),
      node('apart', 'http'),
    ];
    const edges = [edge('start', 'kb'), edge('kb', 'agent_1'), edge('agent_1', 'ask'), edge('ask', 'answer')];
    edges.push(edge('answer', 'after'));
    const s = templateSuggestions('answer', nodes, edges, types);
    expect(s).toEqual(
      expect.arrayContaining([
        'inputs.question',
        'kb.output',
        'kb.output.context',
        'kb.output.hits',
        'agent_1.output.text',
        'agent_1.output.toolCalls',
        'ask.output.answer',
      ]),
    );
    // Every declared field of every upstream node, no more.
    for (const [id, type] of [
      ['kb', 'knowledge'],
      ['agent_1', 'agent'],
      ['ask', 'human_input'],
    ])
      for (const f of types.get(type)!.outputFields!) expect(s).toContain(`${id}.output.${f.path}`);
    expect(s.some((x) => x.startsWith('after.') || x.startsWith('apart.') || x.startsWith('answer.'))).toBe(false);
  });
});
