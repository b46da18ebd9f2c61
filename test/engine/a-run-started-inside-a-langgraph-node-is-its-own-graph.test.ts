// A run started from inside a node of a run on the state-graph engine (what the agent's workflow tool does) is a run
// of its own, not a LangGraph subgraph of the caller: a child with a human-input node pauses in `waiting` (the tool
// reports that to the agent) and can be answered later. Before graph nodes stopped running inside LangChain's
// async-local context, the child inherited the caller's LangGraph config and its pause failed it with
// ENGINE_ERROR.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Graph } from '@/engine/graph/schema';
import { defineNode } from '@/engine/node-kit/define';
import type { WorkflowRecord } from '@/engine/store/types';
import { createHarness, type Harness } from '../support/harness';

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const chain = (...nodes: Graph['nodes']): Graph => ({
  nodes,
  edges: nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: nodes[i].id, target: n.id })),
});

describe('a run started inside a LangGraph node', () => {
  let h: Harness;
  let child: WorkflowRecord;
  let childRunId = '';

  /** Starts a run of `child` and waits for it to settle, like the workflow tool; outputs the child's status. */
  const callChild = defineNode<Record<string, never>>({
    type: 'call_child',
    version: 1,
    label: 'Call child (test)',
    category: 'data',
    description: 'test node',
    configSchema: z.object({}),
    inputs: [{ id: 'in', label: 'in' }],
    outputs: [{ id: 'out', label: 'out' }],
    async execute() {
      const { run } = await h.runs.start({ workflow: child, inputs: {} });
      childRunId = run.id;
      const settled = await h.runs.outcome(run.id);
      return { output: { status: settled?.status, error: settled?.error ?? null } };
    },
  });

  beforeAll(async () => {
    h = await createHarness('pglite', { nodes: [callChild] });
    child = (await h.store.getWorkflow(
      await h.createWorkflow(
        chain(
          node('start', 'start', { inputs: [] }),
          node('ask', 'human_input', { prompt: 'go on?' }),
          node('end', 'end', { outputs: [{ name: 'answer', value: '{{ask.output.answer}}' }] }),
        ),
        'child',
        'langgraph',
      ),
    ))!;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('pauses for its human input, is answered later, and succeeds; the caller finishes on its own', async () => {
    const parent = (await h.store.getWorkflow(
      await h.createWorkflow(
        chain(
          node('start', 'start', { inputs: [] }),
          node('call', 'call_child'),
          node('end', 'end', { outputs: [{ name: 'child', value: '{{call.output.status}}' }] }),
        ),
        'parent',
        'langgraph',
      ),
    ))!;
    const { run } = await h.runs.start({ workflow: parent, inputs: {} });
    const done = await h.runs.outcome(run.id);
    expect(done).toMatchObject({ status: 'succeeded', outputs: { child: 'waiting' } });
    expect((await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'call')?.output).toEqual({
      status: 'waiting',
      error: null,
    });

    expect((await h.store.getRun(childRunId))?.status).toBe('waiting');
    await h.runs.answer(childRunId, 'ask', 'yes');
    expect(await h.runs.outcome(childRunId)).toMatchObject({ status: 'succeeded', outputs: { answer: 'yes' } });
  });
});
