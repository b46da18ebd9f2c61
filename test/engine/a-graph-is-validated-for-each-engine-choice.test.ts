// RunManager.start validates a graph object once per engine choice and remembers the result (published versions run
// the same graph object again and again). What it remembers must not leak from one engine choice to another: a
// graph with a cycle runs on `auto` (the state-graph engine) and is still rejected, every time, when the DAG engine
// is forced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { createHarness, resetProbes, type Harness } from '../support/harness';

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});

/** start → p → c → p again while p has run fewer than 2 times, then → end. */
const cyclic: Graph = {
  nodes: [
    node('start', 'start', { inputs: [] }),
    node('p', 'probe'),
    node('c', 'condition', {
      branches: [{ id: 'again', conditions: [{ left: '{{p.output.calls}}', op: 'lt', right: '2' }] }],
    }),
    node('end', 'end', { outputs: [{ name: 'calls', value: '{{p.output.calls}}' }] }),
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'p' },
    { id: 'e2', source: 'p', target: 'c' },
    { id: 'e3', source: 'c', target: 'p', sourceHandle: 'again' },
    { id: 'e4', source: 'c', target: 'end', sourceHandle: 'else' },
  ],
};

describe('validation per engine choice', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the same graph object: runs on auto, rejected with GRAPH_CYCLE on dag, before and after', async () => {
    const wf = { id: await h.createWorkflow(cyclic, 'cyclic', 'auto'), engine: 'auto' as const, graph: cyclic };
    const forcedDag = () => h.runs.start({ workflow: wf, inputs: {}, engine: 'dag' });
    await expect(forcedDag()).rejects.toMatchObject({ code: 'GRAPH_CYCLE' });
    for (let i = 0; i < 2; i++) {
      resetProbes();
      const { run } = await h.runs.start({ workflow: wf, inputs: {} });
      expect(run.engine).toBe('langgraph');
      const done = await h.runs.outcome(run.id);
      expect(done).toMatchObject({ status: 'succeeded', outputs: { calls: 2 } });
      await expect(forcedDag()).rejects.toMatchObject({ code: 'GRAPH_CYCLE' });
    }
  });
});
