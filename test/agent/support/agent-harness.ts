/**
 * An engine harness for agent tests: like test/support/harness.ts (real store, in-process bus, RunManager, default
 * registry) plus the agent services: Prisma-backed long-term memory with a deterministic hashing embedder, the
 * run → workflow lookup, workflows-as-tools, and whatever extra tools / MCP source a test passes.
 */
import { PrismaMemoryStore } from '@/engine/store/prisma/memory-store';
import { HashingEmbedder } from '@/engine/agent/memory/hashing-embedder';
import type { AgentServices, AgentTool, McpToolSource } from '@/engine/node-kit/agent-services';
import { createWorkflowRunner } from '@/engine/runtime/workflow-runner';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import type { LlmResolver } from '@/engine/llm/types';
import type { KnowledgeService } from '@/engine/knowledge/types';
import { createGuardedFetch, type GuardedFetch } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager } from '@/engine/runtime/run-manager';
import type { NodeServices } from '@/engine/runtime/run-node';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { RunRecord } from '@/engine/store/types';
import { openTestDb, postgresAvailable, type TestDb } from '../../support/databases';

export interface AgentHarness {
  tdb: TestDb;
  /** The services the RunManager hands to nodes; tests may change them between runs. */
  services: NodeServices;
  store: PrismaStore;
  runs: RunManager;
  createWorkflow(graph: Graph, name?: string): Promise<string>;
  runToEnd(workflowId: string, inputs?: Record<string, unknown>): Promise<RunRecord>;
  events(runId: string): Promise<TraceEvent[]>;
  /** Swap the LLM resolver for the next runs (one database per test file keeps the suite fast). */
  setLlm(llm: LlmResolver): void;
  close(): Promise<void>;
}

export async function createAgentHarness(opts: {
  llm: LlmResolver;
  /** 'auto' (default): PostgreSQL when reachable (a fresh schema opens in well under a second), else PGlite. */
  kind?: 'pglite' | 'postgres' | 'auto';
  tools?: AgentTool[];
  mcp?: McpToolSource;
  memory?: boolean;
  knowledge?: KnowledgeService;
  fetch?: GuardedFetch;
}): Promise<AgentHarness> {
  const kind = opts.kind && opts.kind !== 'auto' ? opts.kind : (await postgresAvailable()) ? 'postgres' : 'pglite';
  const tdb = await openTestDb(kind);
  const store = new PrismaStore(tdb.db.prisma, tdb.kind, tdb.db.sql);
  const bus = new InProcessEventBus(5000);
  const agent: AgentServices = {
    tools: opts.tools,
    mcp: opts.mcp,
    ...(opts.memory === false ? {} : { memory: new PrismaMemoryStore(tdb.db.prisma), embedder: new HashingEmbedder() }),
    workflowOf: async (runId) => (await store.getRun(runId))?.workflowId,
  };
  let llm = opts.llm;
  const services: NodeServices = {
    llm: (settings) => llm(settings),
    fetch: opts.fetch ?? createGuardedFetch(),
    secrets: { get: () => undefined },
    agent,
    knowledge: opts.knowledge,
  };
  const runs = new RunManager({
    store,
    workflows: store,
    bus,
    registry: createDefaultRegistry(),
    services,
    heartbeatMs: 500,
  });
  agent.workflows = createWorkflowRunner({ runs, workflows: store, store });
  let n = 0;
  return {
    tdb,
    store,
    runs,
    services,
    async createWorkflow(graph, name = 'agent test') {
      return (
        await store.createWorkflow({
          id: `wf_agent_${Date.now()}_${n++}`,
          name,
          description: '',
          graph,
          engine: 'auto',
        })
      ).id;
    },
    async runToEnd(workflowId, inputs = {}) {
      const wf = (await store.getWorkflow(workflowId))!;
      const { run } = await runs.start({ workflow: wf, inputs });
      await runs.waitFor(run.id);
      return (await store.getRun(run.id))!;
    },
    events: (runId) => store.getEvents(runId),
    setLlm(next) {
      llm = next;
    },
    async close() {
      await runs.close();
      await bus.close();
      await tdb.dispose();
    },
  };
}

/** start(question) → agent `a1` with `config` → end(answer = a1's text). */
export function agentGraph(config: Record<string, unknown>): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'question', type: 'string', required: false, default: 'go' }] } },
      },
      {
        id: 'a1',
        type: 'agent',
        position: { x: 200, y: 0 },
        data: { config: { model: 'fake-model', task: '{{inputs.question}}', ...config } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'answer', value: '{{a1.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'a1' },
      { id: 'e2', source: 'a1', target: 'end' },
    ],
  };
}

/** A test tool that records its calls; `impl` decides the result. */
export function spyTool(
  name: string,
  impl: (args: Record<string, unknown>, signal: AbortSignal) => Promise<unknown> = async (a) => ({ echoed: a }),
) {
  const calls: Array<{ args: Record<string, unknown>; startedAt: number; endedAt?: number }> = [];
  let active = 0;
  let maxActive = 0;
  const tool: AgentTool = {
    name,
    description: `test tool ${name}`,
    parameters: { type: 'object', properties: {}, additionalProperties: true },
    async execute(args, ctx) {
      const rec: { args: Record<string, unknown>; startedAt: number; endedAt?: number } = {
        args,
        startedAt: Date.now(),
      };
      calls.push(rec);
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        return await impl(args, ctx.signal);
      } finally {
        active--;
        rec.endedAt = Date.now();
      }
    },
  };
  return {
    tool,
    calls,
    get maxActive() {
      return maxActive;
    },
    reset() {
      calls.length = 0;
      maxActive = 0;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
