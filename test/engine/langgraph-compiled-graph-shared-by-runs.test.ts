// Guarantee: the LangGraph engine compiles a graph once and every execution of it shares the compiled graph, yet
// each run keeps its own state — concurrent runs of one workflow with different inputs take their own branches,
// loop their own number of times and end with their own outputs; an edited graph runs as edited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { createHarness, resetProbes, type Harness } from '../support/harness';

const n = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const e = (source: string, target: string, sourceHandle?: string): Graph['edges'][number] => ({
  id: `${source}-${target}-${sourceHandle ?? ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

/** Loops over `items` (`count` of them), then branches on `count` ≥ 5: big / small; the unchosen branch is skipped. */
const graph = (label: string): Graph => ({
  nodes: [
    n('start', 'start', {
      inputs: [
        { name: 'count', type: 'number' },
        { name: 'items', type: 'array' },
      ],
    }),
    n('loop', 'loop', { mode: 'list', items: '{{inputs.items}}', maxIterations: 20 }),
    n('step', 'template', { template: 'step {{loop.output.index}}' }),
    n('cond', 'condition', {
      branches: [{ id: 'big', conditions: [{ left: '{{inputs.count}}', op: 'gte', right: '5', valueType: 'number' }] }],
    }),
    n('big', 'template', { template: `${label} big {{inputs.count}}` }),
    n('small', 'template', { template: `${label} small {{inputs.count}}` }),
    n('end', 'end', { outputs: [{ name: 'text', value: '{{big.output.text || small.output.text}}' }] }),
  ],
  edges: [
    e('start', 'loop'),
    e('loop', 'step', 'body'),
    e('step', 'loop'),
    e('loop', 'cond', 'done'),
    e('cond', 'big', 'big'),
    e('cond', 'small', 'else'),
    e('big', 'end'),
    e('small', 'end'),
  ],
});

describe('one compiled LangGraph graph, many runs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
    resetProbes();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('concurrent runs keep their own state, and an edited graph runs as edited', async () => {
    const wf = await h.createWorkflow(graph('v1'), 'shared', 'langgraph');
    const counts = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const runs = await Promise.all(
      counts.map((count) => h.runToEnd(wf, { count, items: Array.from({ length: count }, (_, i) => i) })),
    );
    for (const [i, run] of runs.entries()) {
      const count = counts[i];
      expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
      expect(run.outputs).toEqual({ text: `v1 ${count >= 5 ? 'big' : 'small'} ${count}` });
      const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((x) => [x.nodeId, x]));
      expect(nodes.step?.attempt ?? 0).toBe(count);
      expect(nodes[count >= 5 ? 'small' : 'big'].status).toBe('skipped');
    }
    await h.store.updateWorkflow(wf, { graph: graph('v2') });
    const edited = await h.runToEnd(wf, { count: 2, items: [0, 1] });
    expect(edited.outputs).toEqual({ text: 'v2 small 2' });
  });
});
