/**
 * An engine harness for tests: a real store (PGlite or PostgreSQL), the in-process bus, the default registry plus
 * scriptable test nodes (`probe`: counts executions, can fail/hang/sleep per script), and a RunManager.
 */
import { z } from 'zod';
import type { AgentServices } from '@/engine/node-kit/agent-services';
import type { NodeArtifacts } from '@/engine/artifacts/types';
import { PaiError } from '@/engine/errors';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import type { LlmResolver } from '@/engine/llm/types';
import { createGuardedFetch, type GuardedFetch } from '@/engine/net/ssrf-guard';
import { defineNode, type NodeDefinition } from '@/engine/node-kit/define';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager, type Executor } from '@/engine/runtime/run-manager';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { RunRecord, RunStore } from '@/engine/store/types';
import { openTestDb, type TestDb } from './databases';

/** Per-node behaviour, keyed by node id; read at execution time so tests can change it between runs. */
/** `transient`: the failure is a plain Error (retryable by a retry policy) instead of a non-retryable PaiError. */
export const probeScript = new Map<
  string,
  { fail?: boolean | number; transient?: boolean; sleepMs?: number; hang?: boolean; output?: unknown }
>();
export const probeCalls = new Map<string, number>();

export const probeNode = defineNode<{ value?: string; fail?: boolean }>({
  type: 'probe',
  version: 1,
  label: 'Probe (test)',
  category: 'data',
  description: 'test node',
  // `fail: true` in the node's config fails it too (lets a test "fix" a node by editing the workflow).
  configSchema: z.object({ value: z.string().optional(), fail: z.boolean().optional() }),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute(ctx) {
    const calls = (probeCalls.get(ctx.nodeId) ?? 0) + 1;
    probeCalls.set(ctx.nodeId, calls);
    const s = probeScript.get(ctx.nodeId) ?? {};
    if (s.sleepMs) await new Promise((r) => setTimeout(r, s.sleepMs));
    if (s.hang)
      await new Promise((_, rej) =>
        ctx.signal.addEventListener('abort', () => rej(Object.assign(new Error('aborted'), { name: 'AbortError' }))),
      );
    if (ctx.config.fail || s.fail === true || (typeof s.fail === 'number' && calls <= s.fail)) {
      if (s.transient) throw new Error(`probe ${ctx.nodeId}: transient failure (call ${calls})`);
      throw new PaiError('PROBE_FAILED', `probe ${ctx.nodeId} failed (call ${calls})`);
    }
    return { output: s.output ?? { value: ctx.config.value ?? ctx.nodeId, calls } };
  },
});

export function resetProbes() {
  probeScript.clear();
  probeCalls.clear();
}

export interface Harness {
  tdb: TestDb;
  store: PrismaStore;
  runStore: RunStore;
  bus: InProcessEventBus;
  runs: RunManager;
  createWorkflow(graph: Graph, name?: string, engine?: 'auto' | 'dag' | 'langgraph'): Promise<string>;
  runToEnd(workflowId: string, inputs?: Record<string, unknown>): Promise<RunRecord>;
  events(runId: string): Promise<TraceEvent[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  wrapStore?: (s: PrismaStore) => RunStore;
  tdb?: TestDb;
  /**
   * The nodes' LLM resolver; default: the offline demo model. E.g. createLlmResolver({ OPENAI_API_KEY: 'test',
   * OPENAI_BASE_URL: fake.baseURL }).
   */
  llm?: LlmResolver;
  heartbeatMs?: number;
  staleMs?: number;
  /** More node types for the registry (besides the defaults and `probe`). */
  nodes?: NodeDefinition[];
  /** Wraps the state-graph engine, e.g. to observe when it returns. */
  wrapLangGraph?: (engine: Executor) => Executor;
  /** The nodes' outbound fetch; default: the SSRF guard with no allowlist. */
  fetch?: GuardedFetch;
  /** The Agent node's services (skills, memory, MCP, workflows as tools); default: none. */
  agent?: AgentServices;
  /** Run artifacts (tts, image, vision nodes); default: none. */
  artifacts?: NodeArtifacts;
}

export async function createHarness(kind: 'pglite' | 'postgres', opts: HarnessOptions = {}): Promise<Harness> {
  const tdb = opts.tdb ?? (await openTestDb(kind));
  const store = new PrismaStore(tdb.db.prisma, tdb.kind, tdb.db.sql);
  const runStore = opts.wrapStore ? opts.wrapStore(store) : store;
  const bus = new InProcessEventBus(1000);
  const registry = createDefaultRegistry().register(probeNode);
  for (const def of opts.nodes ?? []) registry.register(def);
  const langgraph: Executor = createLangGraphExecutor();
  const runs = new RunManager({
    store: runStore,
    workflows: store,
    bus,
    registry,
    services: {
      llm: opts.llm ?? createLlmResolver({}),
      fetch: opts.fetch ?? createGuardedFetch(),
      secrets: { get: () => undefined },
      agent: opts.agent,
      artifacts: opts.artifacts,
    },
    heartbeatMs: opts.heartbeatMs ?? 500,
    staleMs: opts.staleMs,
    executors: { langgraph: opts.wrapLangGraph ? opts.wrapLangGraph(langgraph) : langgraph },
  });
  let n = 0;
  const h: Harness = {
    tdb,
    store,
    runStore,
    bus,
    runs,
    async createWorkflow(graph, name = 'test', engine = 'auto') {
      const wf = await store.createWorkflow({
        id: `wf_test_${Date.now()}_${n++}`,
        name,
        description: '',
        graph,
        engine,
      });
      return wf.id;
    },
    async runToEnd(workflowId, inputs = {}) {
      const wf = (await store.getWorkflow(workflowId))!;
      const { run } = await runs.start({ workflow: wf, inputs });
      await runs.waitFor(run.id);
      return (await store.getRun(run.id))!;
    },
    events: (runId) => store.getEvents(runId),
    async close() {
      await runs.close();
      await bus.close();
      if (!opts.tdb) await tdb.dispose();
    },
  };
  return h;
}

/**
 * `inner` with some RunStore methods replaced (a test's faults, delays or records); an override calls `inner` itself
 * to reach the real store. Every other member is the real store's.
 */
export function interceptStore(inner: PrismaStore, overrides: { [K in keyof RunStore]?: RunStore[K] }): RunStore {
  return new Proxy(inner, {
    get(target, key) {
      const own = overrides[key as keyof RunStore];
      if (own) return own;
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as RunStore;
}

/** A linear chain start → p1 … pN → end of probe nodes. */
export function chainGraph(n: number, type = 'probe'): Graph {
  const nodes: Graph['nodes'] = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
  ];
  const edges: Graph['edges'] = [];
  let prev = 'start';
  for (let i = 1; i <= n; i++) {
    const id = `p${i}`;
    nodes.push({ id, type, position: { x: i * 200, y: 0 }, data: { config: {} } });
    edges.push({ id: `e${i}`, source: prev, target: id });
    prev = id;
  }
  nodes.push({
    id: 'end',
    type: 'end',
    position: { x: (n + 1) * 200, y: 0 },
    data: { config: { outputs: [{ name: 'last', value: `{{${prev}.output}}` }] } },
  });
  edges.push({ id: 'e_end', source: prev, target: 'end' });
  return { nodes, edges };
}
