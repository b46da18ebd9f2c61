// Guarantees: a human-input node pauses its run for an answer only on the state-graph engine, so a workflow with one
// cannot be forced onto the DAG engine (where it used to "succeed" with no answer): validation refuses it with
// HUMAN_INPUT_NEEDS_LANGGRAPH and the node's path, for the workflow's own engine and for a run's engine alike;
// on `auto` it runs on LangGraph and waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { createHarness, type Harness } from '../support/harness';

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});

const approval: Graph = {
  nodes: [
    node('start', 'start', { inputs: [] }),
    node('ask', 'human_input', { prompt: 'Ship it?' }),
    node('end', 'end', { outputs: [{ name: 'answer', value: '{{ask.output.answer}}' }] }),
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'end' },
  ],
};

describe('human input and the engine choice', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('validation refuses a forced DAG engine, naming the node', () => {
    const v = validateGraph(approval, createDefaultRegistry(), 'dag');
    expect(v.ok).toBe(false);
    expect(v.errors).toContainEqual(
      expect.objectContaining({ code: 'HUMAN_INPUT_NEEDS_LANGGRAPH', path: 'nodes[1].type', nodeIds: ['ask'] }),
    );
    expect(validateGraph(approval, createDefaultRegistry(), 'auto')).toMatchObject({ ok: true, engine: 'langgraph' });
  });

  it('a run forced onto the DAG engine is refused; on auto it waits for the answer', async () => {
    const wf = { id: await h.createWorkflow(approval, 'approval', 'auto'), engine: 'auto' as const, graph: approval };
    await expect(h.runs.start({ workflow: wf, inputs: {}, engine: 'dag' })).rejects.toMatchObject({
      code: 'HUMAN_INPUT_NEEDS_LANGGRAPH',
    });
    const { run } = await h.runs.start({ workflow: wf, inputs: {} });
    expect(run.engine).toBe('langgraph');
    await h.runs.waitFor(run.id);
    expect((await h.store.getRun(run.id))!.status).toBe('waiting');
  });
});
