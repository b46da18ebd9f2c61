/**
 * The invalid graphs the API must refuse, one case per kind of problem (with its expected code and JSON path), and
 * helpers the invalid-input test files share: counting workflows (nothing may be saved) and finding the seeded
 * example workflow.
 */
import { expect } from 'vitest';
import { GET as listWf } from '@/app/api/workflows/route';
import { call, simpleGraph } from './api-helpers';

export async function workflowCount(): Promise<number> {
  const a = await call(listWf, 'GET', '/api/workflows');
  expect(a.status).toBe(200);
  return a.body.length;
}

/** The id of the example workflow a fresh data directory is seeded with. */
export async function seededWorkflowId(): Promise<string> {
  const list = await call(listWf, 'GET', '/api/workflows');
  return list.body.find((w: any) => w.name === 'Support triage (example)').id;
}

export type G = ReturnType<typeof simpleGraph> & { nodes: any[]; edges: any[] };
export const base = (): G => simpleGraph() as G;
const llmNode = (id: string, config: Record<string, unknown>) => ({
  id,
  type: 'llm',
  position: { x: 0, y: 0 },
  data: { config: { userPrompt: 'hi', ...config } },
});

/** Each case: a graph (and engine), the expected first error code and its JSON path. */
export const cases: Array<{
  name: string;
  graph: () => unknown;
  engine?: string;
  code: string;
  path: string;
  nodeIds?: string[];
}> = [
  {
    name: 'unknown node type',
    graph: () => {
      const g = base();
      g.nodes[1].type = 'teleport';
      return g;
    },
    code: 'UNKNOWN_NODE_TYPE',
    path: 'graph.nodes[1].type',
  },
  {
    name: 'dangling edge',
    graph: () => {
      const g = base();
      g.edges.push({ id: 'e3', source: 't1', target: 'ghost' });
      return g;
    },
    code: 'DANGLING_EDGE',
    path: 'graph.edges[2].target',
  },
  {
    name: 'duplicate node id',
    graph: () => {
      const g = base();
      g.nodes.push({ ...g.nodes[1], position: { x: 1, y: 1 } });
      return g;
    },
    code: 'DUPLICATE_NODE_ID',
    path: 'graph.nodes[3].id',
  },
  {
    name: 'missing start',
    graph: () => ({
      nodes: [llmNode('n1', {}), { id: 'end', type: 'end', position: { x: 0, y: 0 }, data: { config: {} } }],
      edges: [{ id: 'e1', source: 'n1', target: 'end' }],
    }),
    code: 'MISSING_START',
    path: 'graph.nodes',
  },
  {
    name: 'missing end',
    graph: () => {
      const g = base();
      g.nodes.pop();
      g.edges.pop();
      return g;
    },
    code: 'MISSING_END',
    path: 'graph.nodes',
  },
  {
    name: 'unreachable node',
    graph: () => {
      const g = base();
      g.nodes.push(llmNode('island', {}));
      return g;
    },
    code: 'UNREACHABLE_NODE',
    path: 'graph.nodes[3]',
  },
  {
    name: 'bad config (llm temperature 5)',
    graph: () => {
      const g = base();
      g.nodes.splice(1, 0, llmNode('n1', { temperature: 5 }));
      g.edges = [
        { id: 'a', source: 'start', target: 'n1' },
        { id: 'b', source: 'n1', target: 't1' },
        { id: 'c', source: 't1', target: 'end' },
      ];
      return g;
    },
    code: 'INVALID_CONFIG',
    path: 'graph.nodes[1].data.config.temperature',
  },
  {
    name: 'ref to an unknown node',
    graph: () => {
      const g = base();
      g.nodes[1].data.config.template = 'x {{nope.output.text}}';
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref to an undeclared input',
    graph: () => {
      const g = base();
      g.nodes[1].data.config.template = '{{inputs.question}}';
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref to a node that is not upstream',
    graph: () => {
      const g = base();
      // start → t1 → end and start → t2 → end: t1 may not read t2.
      g.nodes.push({ id: 't2', type: 'template', position: { x: 0, y: 0 }, data: { config: { template: 'b' } } });
      g.edges.push({ id: 'e3', source: 'start', target: 't2' }, { id: 'e4', source: 't2', target: 'end' });
      g.nodes[1].data.config.template = '{{t2.output.text}}';
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref that is code, not a path',
    graph: () => {
      const g = base();
      g.nodes[1].data.config.template = "{{constructor.constructor('return process')()}}";
      return g;
    },
    code: 'INVALID_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref in an end output to a downstream-only node',
    graph: () => {
      const g = base();
      g.nodes[2].data.config.outputs = [{ name: 'x', value: '{{end.output}}' }];
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[2].data.config.outputs[0].value',
  },
  {
    name: 'cycle under a forced dag engine',
    engine: 'dag',
    graph: () => {
      const g = base();
      g.nodes.splice(2, 0, {
        id: 't2',
        type: 'template',
        position: { x: 0, y: 0 },
        data: { config: { template: 'b' } },
      });
      g.edges = [
        { id: 'a', source: 'start', target: 't1' },
        { id: 'b', source: 't1', target: 't2' },
        { id: 'c', source: 't2', target: 't1' },
        { id: 'd', source: 't2', target: 'end' },
      ];
      return g;
    },
    code: 'GRAPH_CYCLE',
    path: 'graph.edges[2]',
    nodeIds: ['t1', 't2'],
  },
  {
    name: 'self-loop under a forced dag engine',
    engine: 'dag',
    graph: () => {
      const g = base();
      g.edges.push({ id: 'self', source: 't1', target: 't1' });
      return g;
    },
    code: 'GRAPH_CYCLE',
    path: 'graph.edges[2]',
    nodeIds: ['t1'],
  },
  {
    name: 'not a graph at all',
    graph: () => ({ nodes: 'many' }),
    code: 'GRAPH_SCHEMA',
    path: 'graph.nodes',
  },
  {
    name: 'node id with forbidden characters',
    graph: () => {
      const g = base();
      g.nodes[1].id = 'a b';
      g.edges[0].target = 'a b';
      g.edges[1].source = 'a b';
      return g;
    },
    code: 'GRAPH_SCHEMA',
    path: 'graph.nodes[1].id',
  },
  {
    name: 'reserved node id',
    graph: () => {
      const g = base();
      g.nodes[1].id = 'inputs';
      g.edges[0].target = 'inputs';
      g.edges[1].source = 'inputs';
      g.nodes[2].data.config.outputs = [];
      return g;
    },
    code: 'RESERVED_NODE_ID',
    path: 'graph.nodes[1].id',
  },
  {
    name: 'condition edge without a branch handle',
    graph: () => {
      const g = base();
      g.nodes.splice(1, 0, {
        id: 'c1',
        type: 'condition',
        position: { x: 0, y: 0 },
        data: { config: { branches: [{ id: 'yes', conditions: [{ left: '{{inputs.message}}', op: 'not_empty' }] }] } },
      });
      g.edges = [
        { id: 'a', source: 'start', target: 'c1' },
        { id: 'b', source: 'c1', target: 't1' },
        { id: 'c', source: 't1', target: 'end' },
      ];
      return g;
    },
    code: 'INVALID_HANDLE',
    path: 'graph.edges[1].sourceHandle',
  },
];
