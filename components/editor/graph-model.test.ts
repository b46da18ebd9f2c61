/** The editor's graph rules: stored shape round-trips, connections are refused with a reason, pasted refs follow. */
import { describe, expect, it, vi } from 'vitest';
import type { NodeTypeInfo } from '@/components/api/types';
import { connectionProblem, newNodeId, remapRefs, toFlow, toGraph, type FlowNode } from './graph-model';

vi.mock('@/components/lib/i18n', () => import('./i18n-test-double'));

const type = (
  t: string,
  outputs = [{ id: 'out', label: 'out' }],
  inputs = [{ id: 'in', label: 'in' }],
  dynamicOutputs = false,
): NodeTypeInfo => ({
  type: t,
  version: 1,
  label: t,
  category: 'data',
  description: '',
  sideEffects: false,
  configSchema: { type: 'object', properties: {} },
  inputs,
  outputs,
  dynamicOutputs,
});
const types = new Map([
  ['start', type('start', [{ id: 'out', label: 'inputs' }], [])],
  ['end', type('end', [])],
  ['template', type('template')],
  [
    'condition',
    type(
      'condition',
      [
        { id: 'if', label: 'if' },
        { id: 'else', label: 'else' },
      ],
      undefined,
      true,
    ),
  ],
]);
const node = (id: string, t: string, config: Record<string, unknown> = {}): FlowNode => ({
  id,
  type: t,
  position: { x: 0, y: 0 },
  data: { config },
});

describe('graph model', () => {
  it('round-trips the stored graph and drops React Flow runtime fields', () => {
    const graph = {
      nodes: [
        {
          id: 'start',
          type: 'start',
          position: { x: 1, y: 2 },
          data: { label: 'S', config: { inputs: [] } },
          custom: 'kept',
        },
      ],
      edges: [{ id: 'e1', source: 'start', target: 'end', sourceHandle: 'x' }],
    };
    const flow = toFlow(graph as never);
    flow.nodes[0] = { ...flow.nodes[0], selected: true, measured: { width: 10, height: 10 }, dragging: false };
    expect(toGraph(flow.nodes, flow.edges)).toEqual(graph);
  });

  it('refuses connections into start, to itself, from end and duplicates, saying why', () => {
    const nodes = [node('start', 'start'), node('t', 'template'), node('end', 'end')];
    const edges = [{ id: 'e1', source: 'start', target: 't', sourceHandle: null }];
    expect(connectionProblem({ source: 't', target: 'start' }, nodes, edges, types)).toMatch(
      /start node cannot have incoming edges/,
    );
    expect(connectionProblem({ source: 't', target: 't' }, nodes, edges, types)).toMatch(/itself/);
    expect(connectionProblem({ source: 'end', target: 't' }, nodes, edges, types)).toMatch(/no outputs/);
    expect(connectionProblem({ source: 'start', target: 't', sourceHandle: 'out' }, nodes, edges, types)).toMatch(
      /already connected/,
    );
    expect(connectionProblem({ source: 't', target: 'end' }, nodes, edges, types)).toBeNull();
  });

  it('names nodes for templates and rewrites references between pasted copies', () => {
    expect(newNodeId('start', new Set())).toBe('start');
    expect(newNodeId('template', new Set(['template_1']))).toBe('template_2');
    const ids = new Map([['a', 'a_copy']]);
    expect(remapRefs({ t: 'x {{a.output.text}} {{ b.output || a.output.json }} a.output' }, ids)).toEqual({
      t: 'x {{a_copy.output.text}} {{ b.output || a_copy.output.json }} a.output',
    });
  });
});
