// A run started from inside a node of a run on the state-graph engine (what the agent's workflow tool does) is a run
// of its own, not a LangGraph subgraph of the caller: a child with a human-input node pauses in `waiting` (the tool
// reports that to the agent) and can be answered later. Before graph nodes stopped running inside LangChain's
// async-local context, the child inherited the caller's LangGraph config and its interrupt() failed it with
// ENGINE_ERROR.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { defineNode } from '@/engine/nodes/define';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { RunManager } from '@/engine/runtime/run-manager';
import { checkpointerFor } from '@/engine/store/prisma/checkpointer';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { WorkflowRecord } from '@/engine/store/types';
import { openTestDb, type TestDb } from '../support/databases';

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data: { config } });
const chain = (...nodes: Graph['nodes']): Graph => ({ nodes, edges: nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: nodes[i].id, target: n.id })) });

describe('a run started inside a LangGraph node', () => {
  let tdb: TestDb;
  let store: PrismaStore;
  let runs: RunManager;
  let bus: InProcessEventBus;
  let child: WorkflowRecord;
  let childRunId = '';

  /** Starts a run of `child` and waits for it to settle, like the workflow tool; outputs the child's status. */
  const callChild = defineNode<Record<string, never>>({
    type: 'call_child', version: 1, label: 'Call child (test)', category: 'data', description: 'test node', configSchema: z.object({}),
    inputs: [{ id: 'in', label: 'in' }], outputs: [{ id: 'out', label: 'out' }],
    async execute() {
      const { run } = await runs.start({ workflow: child, inputs: {} });
      childRunId = run.id;
      const settled = await runs.outcome(run.id);
      return { output: { status: settled?.status, error: settled?.error ?? null } };
    },
  });

  beforeAll(async () => {
    tdb = await openTestDb('pglite');
    store = new PrismaStore(tdb.db.prisma, tdb.kind, tdb.db.sql);
    bus = new InProcessEventBus(1000);
    runs = new RunManager({
      store, workflows: store, bus, registry: createDefaultRegistry().register(callChild),
      services: { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined } },
      executors: { langgraph: createLangGraphExecutor({ checkpointer: () => checkpointerFor(tdb.db) }) },
    });
    child = await store.createWorkflow({
      id: 'wf_child', name: 'child', description: '', engine: 'langgraph',
      graph: chain(node('start', 'start', { inputs: [] }), node('ask', 'human_input', { prompt: 'go on?' }), node('end', 'end', { outputs: [{ name: 'answer', value: '{{ask.output.answer}}' }] })),
    });
  });
  afterAll(async () => {
    await runs?.close();
    await bus?.close();
    await tdb?.dispose();
  });

  it('pauses for its human input, is answered later, and succeeds; the caller finishes on its own', async () => {
    const parent = await store.createWorkflow({
      id: 'wf_parent', name: 'parent', description: '', engine: 'langgraph',
      graph: chain(node('start', 'start', { inputs: [] }), node('call', 'call_child'), node('end', 'end', { outputs: [{ name: 'child', value: '{{call.output.status}}' }] })),
    });
    const { run } = await runs.start({ workflow: parent, inputs: {} });
    const done = await runs.outcome(run.id);
    expect(done).toMatchObject({ status: 'succeeded', outputs: { child: 'waiting' } });
    expect((await store.getNodeRuns(run.id)).find((n) => n.nodeId === 'call')?.output).toEqual({ status: 'waiting', error: null });

    expect((await store.getRun(childRunId))?.status).toBe('waiting');
    await runs.answer(childRunId, 'ask', 'yes');
    expect(await runs.outcome(childRunId)).toMatchObject({ status: 'succeeded', outputs: { answer: 'yes' } });
  });
});
