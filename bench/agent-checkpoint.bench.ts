/**
 * Agent checkpoint cost per round: an Agent node runs BENCH_AGENT_ROUNDS rounds (default 20), each one instant model
 * turn (an in-process scripted provider: no HTTP, so only PaiFlow's own work is timed) asking for one calculator
 * call, then answers. The same node runs with its checkpoints (the product: each completed round stored before the
 * next starts) and with a no-op checkpoint, alternating, on the embedded store (PGlite) and on PostgreSQL.
 * `msPerRound` is the median over BENCH_REPS runs (default 15) of a run's time divided by its rounds;
 * `checkpointMsPerRound` is the difference; `lastCheckpointKB` is the size of the last round's stored state (the
 * conversation so far: it grows with every round). Prints a table and returns rows for bench/run-all.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { InProcessEventBus } from '../engine/events/in-process-bus';
import type { Graph } from '../engine/graph/schema';
import type { ChatRequest, LlmProvider } from '../engine/llm/types';
import { createGuardedFetch } from '../engine/net/ssrf-guard';
import { agentNode, type AgentConfig } from '../engine/nodes/agent';
import { defineNode, type NodeDefinition } from '../engine/node-kit/define';
import { createDefaultRegistry } from '../engine/nodes/registry';
import { RunManager } from '../engine/runtime/run-manager';
import { createLangGraphExecutor } from '../engine/runtime/langgraph-executor';
import { openDatabase, type Database } from '../engine/store/prisma/database';
import { PrismaStore } from '../engine/store/prisma/prisma-store';

interface Row {
  store: string;
  rounds: number;
  msPerRound: number;
  msPerRoundNoCheckpoint: number;
  checkpointMsPerRound: number;
  lastCheckpointKB: number;
}

/** Asks for one calculator call per round until `rounds` model turns were made, then answers. */
function scriptedProvider(rounds: number): LlmProvider {
  return {
    id: 'bench',
    label: 'bench scripted model',
    async chat(req: ChatRequest) {
      const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
      const usage = { inputTokens: 100, outputTokens: 20 };
      if (turn >= rounds) return { text: 'done', toolCalls: [], usage, model: 'bench', provider: 'bench' };
      const call = { id: `c${turn}`, name: 'calculator', arguments: JSON.stringify({ expression: `${turn} * 7` }) };
      return { text: `step ${turn}: working it out`, toolCalls: [call], usage, model: 'bench', provider: 'bench' };
    },
  };
}

/** The Agent node with a checkpoint that stores nothing: the reference without the cost being measured. */
const agentWithoutCheckpoint = defineNode<AgentConfig>({
  ...agentNode,
  type: 'agent_no_checkpoint',
  execute: (ctx) => agentNode.execute({ ...ctx, checkpoint: { load: async () => undefined, save: async () => {} } }),
}) as NodeDefinition;

function graph(type: string, rounds: number): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'a1',
        type,
        position: { x: 200, y: 0 },
        data: {
          config: {
            model: 'bench',
            task: 'compute the table',
            tools: ['calculator'],
            stream: false,
            memory: { enabled: false },
            limits: { maxRounds: rounds + 1 },
          },
        },
      },
      { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { config: { outputs: [] } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'a1' },
      { id: 'e2', source: 'a1', target: 'end' },
    ],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(db: Database, label: string, rounds: number, reps: number): Promise<Row> {
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const runs = new RunManager({
    store,
    workflows: store,
    bus: new InProcessEventBus(),
    registry: createDefaultRegistry().register(agentWithoutCheckpoint),
    services: { llm: () => scriptedProvider(rounds), fetch: createGuardedFetch(), secrets: { get: () => undefined } },
    executors: { langgraph: createLangGraphExecutor() },
  });
  let lastBytes = 0;
  // The checkpoint's size: the state saved after the last round that called a tool, read back as stored.
  const sizing = store.commit.bind(store);
  store.commit = async (runId, batch) => {
    for (const c of batch.checkpoints ?? []) if (c.state) lastBytes = Buffer.byteLength(JSON.stringify(c.state));
    return sizing(runId, batch);
  };
  const wfs = {
    with: await store.createWorkflow({
      id: `wf_ck_${Date.now()}`,
      name: 'b',
      description: '',
      graph: graph('agent', rounds),
      engine: 'dag',
    }),
    without: await store.createWorkflow({
      id: `wf_nock_${Date.now()}`,
      name: 'b',
      description: '',
      graph: graph('agent_no_checkpoint', rounds),
      engine: 'dag',
    }),
  };
  const once = async (wf: typeof wfs.with) => {
    const t0 = performance.now();
    const { run } = await runs.start({ workflow: wf, inputs: {} });
    await runs.waitFor(run.id);
    const done = await store.getRun(run.id);
    if (done?.status !== 'succeeded') throw new Error(`bench run ${run.id} ended ${done?.status}`);
    return (performance.now() - t0) / rounds;
  };
  for (let i = 0; i < 3; i++) {
    await once(wfs.with); // warm-up: JIT and prepared statements
    await once(wfs.without);
  }
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  for (let i = 0; i < reps; i++) {
    if (i % 2) {
      withoutMs.push(await once(wfs.without));
      withMs.push(await once(wfs.with));
    } else {
      withMs.push(await once(wfs.with));
      withoutMs.push(await once(wfs.without));
    }
  }
  await runs.close();
  const a = median(withMs);
  const b = median(withoutMs);
  return {
    store: label,
    rounds,
    msPerRound: Number(a.toFixed(3)),
    msPerRoundNoCheckpoint: Number(b.toFixed(3)),
    checkpointMsPerRound: Number((a - b).toFixed(3)),
    lastCheckpointKB: Number((lastBytes / 1024).toFixed(1)),
  };
}

export async function runAgentCheckpointBench(): Promise<Row[]> {
  const rounds = Number(process.env.BENCH_AGENT_ROUNDS ?? 20);
  const reps = Number(process.env.BENCH_REPS ?? 15);
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-bench-agent-'));
  const url =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const schema = `bench_agent_${Date.now()}`;
  const rows: Row[] = [];
  const lite = await openDatabase({ dataDir: dir });
  try {
    rows.push(await measure(lite, 'embedded (PGlite)', rounds, reps));
  } finally {
    await lite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  let pgdb: Database | undefined;
  try {
    pgdb = await openDatabase({ databaseUrl: url, schema });
  } catch (e) {
    console.warn(`PostgreSQL row skipped: ${(e as Error).message}`);
  }
  if (pgdb) {
    try {
      rows.push(await measure(pgdb, 'PostgreSQL', rounds, reps));
    } finally {
      await pgdb.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await c.end();
    }
  }
  return rows;
}
