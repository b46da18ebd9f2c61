/**
 * Wiring for the sub-workflow tests: a real store (PGlite), the in-process bus, the default registry plus the
 * `probe` test node, both engines, and the WorkflowRunner that the `workflow` node (and agents' workflow tools) use,
 * as lib/server wires them. Graph builders for parents and children are here too.
 */
import { randomUUID } from 'node:crypto';
import type { AgentServices } from '@/engine/node-kit/agent-services';
import { createWorkflowRunner } from '@/engine/runtime/workflow-runner';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';
import type { EngineChoice, Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { RunManager } from '@/engine/runtime/run-manager';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { RunRecord, WorkflowVersionRecord } from '@/engine/store/types';
import { openTestDb, type TestDb } from '../support/databases';
import { probeNode } from '../support/harness';

export interface SubWorkflowHarness {
  tdb: TestDb;
  store: PrismaStore;
  runs: RunManager;
  createWorkflow(graph: Graph, o?: { name?: string; engine?: EngineChoice; workspaceId?: string }): Promise<string>;
  /** Snapshots the workflow's draft (or `graph`) as its next version and makes it current (as publishing does). */
  publish(workflowId: string, graph?: Graph): Promise<WorkflowVersionRecord>;
  /** Runs the draft, or `version` (a published run), to its end. */
  runToEnd(workflowId: string, inputs?: Record<string, unknown>, version?: WorkflowVersionRecord): Promise<RunRecord>;
  events(runId: string): Promise<TraceEvent[]>;
  close(): Promise<void>;
}

export async function createSubWorkflowHarness(o: { maxDepth?: number } = {}): Promise<SubWorkflowHarness> {
  const tdb = await openTestDb('pglite');
  const store = new PrismaStore(tdb.db.prisma, tdb.kind, tdb.db.sql);
  const bus = new InProcessEventBus(5000);
  const agent: AgentServices = {};
  const runs = new RunManager({
    store,
    workflows: store,
    bus,
    registry: createDefaultRegistry().register(probeNode),
    services: { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined }, agent },
    heartbeatMs: 500,
    executors: { langgraph: createLangGraphExecutor() },
  });
  agent.workflows = createWorkflowRunner({ runs, workflows: store, store, maxDepth: o.maxDepth });
  const id = () => randomUUID().replace(/-/g, '').slice(0, 12);
  return {
    tdb,
    store,
    runs,
    async createWorkflow(graph, c = {}) {
      const wf = await store.createWorkflow({
        id: `wf_sub_${id()}`,
        workspaceId: c.workspaceId,
        name: c.name ?? 'sub-workflow test',
        description: '',
        graph,
        engine: c.engine ?? 'auto',
      });
      return wf.id;
    },
    async publish(workflowId, graph) {
      const wf = (await store.getWorkflow(workflowId))!;
      const out = await store.publishVersion(workflowId, {
        id: `ver_${id()}`,
        graph: graph ?? wf.graph,
        engine: wf.engine,
        slug: wf.slug ?? `slug-${id()}`,
      });
      return out!.version;
    },
    async runToEnd(workflowId, inputs = {}, version) {
      const wf = (await store.getWorkflow(workflowId))!;
      const { run } = await runs.start({
        workflow: wf,
        inputs,
        ...(version ? { graph: version.graph, versionId: version.id, engine: version.engine } : {}),
      });
      await runs.waitFor(run.id);
      return (await store.getRun(run.id))!;
    },
    events: (runId) => store.getEvents(runId),
    async close() {
      await runs.close();
      await bus.close();
      await tdb.dispose();
    },
  };
}

const at = (x: number) => ({ x, y: 0 });

/** start(name) → end(greeting = "<text>, {{inputs.name}}"). */
export function childGraph(text: string): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: at(0),
        data: { config: { inputs: [{ name: 'name', type: 'string', required: true }] } },
      },
      {
        id: 'end',
        type: 'end',
        position: at(200),
        data: { config: { outputs: [{ name: 'greeting', value: `${text}, {{inputs.name}}` }] } },
      },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'end' }],
  };
}

/** start(who) → `w1`: workflow node calling `childId` with name = {{inputs.who}} → end(greeting, childRunId). */
export function parentGraph(childId: string, extra: Record<string, unknown> = {}, more: Graph['nodes'] = []): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: at(0),
        data: { config: { inputs: [{ name: 'who', type: 'string', required: false, default: 'Ada' }] } },
      },
      {
        id: 'w1',
        type: 'workflow',
        position: at(200),
        data: { config: { workflowId: childId, inputs: { name: '{{inputs.who}}' }, ...extra } },
      },
      {
        id: 'end',
        type: 'end',
        position: at(400),
        data: {
          config: {
            outputs: [
              { name: 'greeting', value: '{{w1.output.greeting}}' },
              { name: 'childRunId', value: '{{w1.output.runId}}' },
            ],
          },
        },
      },
      ...more,
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'w1' },
      { id: 'e2', source: 'w1', target: 'end' },
    ],
  };
}
