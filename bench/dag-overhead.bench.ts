/**
 * Engine overhead per node: N-node chains of a no-op node with durable snapshots (a commit per node before its
 * successor starts), on the DAG and LangGraph engines, on the embedded store (PGlite) and on PostgreSQL; next to the
 * same chain on raw @langchain/langgraph (in memory, with MemorySaver, and with the official PostgresSaver).
 *
 * Method: each configuration is measured in a pair with raw LangGraph.js in memory, its reference. Both are warmed
 * up first (JIT, prepared statements: BENCH_WARMUP_NODES node executions, default 5000), then they alternate for
 * BENCH_REPS rounds (default: enough for ~3000 node executions each, at least 15), the first of a round alternating.
 * This machine's speed drifts by 2× within minutes, so only runs measured side by side are comparable; and measuring
 * one configuration at a time keeps another's background work (PostgreSQL's WAL writer and autovacuum after the
 * PostgresSaver's writes, a database thread, a saver's garbage) out of its rows. `xRaw` is the median, over rounds,
 * of the configuration's time divided by raw LangGraph's time in the same round; `rawMs` is raw's median in the pair.
 *
 * A run is timed until the event loop has turned once after it, so the work it leaves for the loop counts for it and
 * not for the next run. This matters for garbage collection: V8 runs most scavenges as a task on the event loop, and
 * a raw LangGraph run (one microtask chain, ~2.5 MB of garbage) gives the loop no turn, so without it the scavenges
 * its garbage caused ran inside the next run that waited for I/O — ours (measured at 12 nodes: 132 of the 134 GC
 * pauses in timed runs, median 4 ms, started in ours; with the turn, 64 in raw's and 73 in ours). `gcMs` / `rawGcMs`:
 * V8 pause time per run that started in each side's timed runs.
 * Prints a table and returns rows for bench/run-all.ts.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { Annotation, MemorySaver, StateGraph, START, END, type BaseCheckpointSaver } from '@langchain/langgraph';
import { z } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { InProcessEventBus } from '../engine/events/in-process-bus';
import type { Graph } from '../engine/graph/schema';
import { createLlmResolver } from '../engine/llm/resolve-provider';
import { createGuardedFetch } from '../engine/net/ssrf-guard';
import { defineNode } from '../engine/node-kit/define';
import { createDefaultRegistry } from '../engine/nodes/registry';
import { RunManager } from '../engine/runtime/run-manager';
import { createLangGraphExecutor } from '../engine/runtime/langgraph-executor';
import { openDatabase, type Database } from '../engine/store/prisma/database';
import { PrismaStore } from '../engine/store/prisma/prisma-store';

const noop = defineNode<Record<string, never>>({
  type: 'noop',
  version: 1,
  label: 'No-op',
  category: 'data',
  description: 'bench',
  configSchema: z.object({}),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute() {
    return { output: { ok: true } };
  },
});

function chain(n: number): Graph {
  const nodes: Graph['nodes'] = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
  ];
  const edges: Graph['edges'] = [];
  let prev = 'start';
  for (let i = 1; i <= n; i++) {
    nodes.push({ id: `n${i}`, type: 'noop', position: { x: i, y: 0 }, data: { config: {} } });
    edges.push({ id: `e${i}`, source: prev, target: `n${i}` });
    prev = `n${i}`;
  }
  nodes.push({ id: 'end', type: 'end', position: { x: n + 1, y: 0 }, data: { config: { outputs: [] } } });
  edges.push({ id: 'eend', source: prev, target: 'end' });
  return { nodes, edges };
}

export interface Row {
  engine: string;
  store: string;
  nodes: number;
  medianMs: number;
  bestMs: number;
  rawMs: number;
  xRaw: number;
  gcMs: number;
  rawGcMs: number;
}

/** One configuration: runs the whole chain once per call (and checks that it succeeded). */
interface Config {
  engine: string;
  store: string;
  prepare(n: number): Promise<() => Promise<void>>;
}

function paiflow(db: Database, store: string, engine: 'dag' | 'langgraph'): Config & { close(): Promise<void> } {
  const ps = new PrismaStore(db.prisma, db.kind, db.sql);
  const bus = new InProcessEventBus(100);
  const runs = new RunManager({
    store: ps,
    workflows: ps,
    bus,
    registry: createDefaultRegistry().register(noop),
    services: { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined } },
    executors: { langgraph: createLangGraphExecutor() },
  });
  return {
    engine: `paiflow-${engine}`,
    store,
    async prepare(n) {
      const wf = await ps.createWorkflow({
        id: `wf_bench_${engine}_${n}_${Date.now()}`,
        name: 'bench',
        description: '',
        graph: chain(n),
        engine,
      });
      return async () => {
        // A fresh graph object per run, as a draft run reads its workflow from the store: validation and the compiled
        // graph's key are paid every run (a published version's runs reuse one object and skip both).
        const { run } = await runs.start({ workflow: { ...wf, graph: structuredClone(wf.graph) }, inputs: {} });
        const done = await runs.outcome(run.id);
        if (done?.status !== 'succeeded')
          throw new Error(`bench run ${run.id} ended ${done?.status ?? 'without a stored outcome'}`);
      };
    },
    async close() {
      await runs.close();
      await bus.close();
    },
  };
}

/**
 * The same chain on raw LangGraph.js: in memory (no persistence), with MemorySaver, or with the official
 * PostgresSaver checkpointing every step (`durability: 'sync'`), LangGraph's own way to be durable.
 */
function raw(kind: 'memory' | 'memory-saver' | 'postgres-saver', saver?: BaseCheckpointSaver): Config {
  return {
    engine:
      kind === 'memory'
        ? 'raw-langgraph'
        : kind === 'memory-saver'
          ? 'raw-langgraph+MemorySaver'
          : 'raw-langgraph+PostgresSaver',
    store: kind === 'postgres-saver' ? 'PostgreSQL' : 'memory',
    async prepare(n) {
      const State = Annotation.Root({
        out: Annotation<Record<string, unknown>>({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
      });
      const g = new StateGraph(State) as any;
      for (let i = 1; i <= n + 2; i++) g.addNode(`n${i}`, async () => ({ out: { [`n${i}`]: { ok: true } } }));
      g.addEdge(START, 'n1');
      for (let i = 1; i < n + 2; i++) g.addEdge(`n${i}`, `n${i + 1}`);
      g.addEdge(`n${n + 2}`, END);
      const app = g.compile(saver ? { checkpointer: saver } : {});
      let k = 0;
      return async () => {
        const cfg = saver
          ? {
              recursionLimit: n + 10,
              configurable: { thread_id: `t${n}_${k++}_${Date.now()}` },
              durability: kind === 'postgres-saver' ? 'sync' : 'async',
            }
          : { recursionLimit: n + 10 };
        const out = await app.invoke({}, cfg);
        if (Object.keys(out.out).length !== n + 2) throw new Error('raw LangGraph chain did not run every node');
      };
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Warm-up, then `rounds` rounds of one run of raw LangGraph.js and one of `config`, which goes first alternating. */
async function measurePair(config: Config, n: number, rounds: number): Promise<Row> {
  const fns = [await raw('memory').prepare(n), await config.prepare(n)];
  const turn = () => new Promise<void>((r) => setImmediate(r));
  // Steady state, as in a server that has been up a while: the state-graph engine's code paths take a few thousand
  // node executions to be optimised by the JIT (measured: its 12-node runs got 2× faster over the first ~300 runs).
  const warm = Math.max(2, Math.ceil(Number(process.env.BENCH_WARMUP_NODES ?? 5000) / (n + 2)));
  for (let w = 0; w < warm; w++)
    for (const f of fns) {
      await f();
      await turn();
    }
  const times: number[][] = [[], []];
  const windows: Array<[number, number, number]> = [];
  const gcs: Array<[number, number]> = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([e.startTime, e.duration]);
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  for (let r = 0; r < rounds; r++) {
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      const t0 = performance.now();
      await fns[i]();
      await turn();
      const t1 = performance.now();
      times[i][r] = (t1 - t0) / (n + 2);
      windows.push([t0, t1, i]);
    }
  }
  await turn();
  await turn(); // the observer's last entries
  gcObserver.disconnect();
  const gcPerRun = [0, 0];
  for (const [start, ms] of gcs) {
    const w = windows.find(([a, b]) => start >= a && start <= b);
    if (w) gcPerRun[w[2]] += ms / rounds;
  }
  return {
    engine: config.engine,
    store: config.store,
    nodes: n + 2,
    medianMs: +median(times[1]).toFixed(3),
    bestMs: +Math.min(...times[1]).toFixed(3),
    rawMs: +median(times[0]).toFixed(3),
    xRaw: +median(times[1].map((t, r) => t / times[0][r])).toFixed(2),
    gcMs: +gcPerRun[1].toFixed(2),
    rawGcMs: +gcPerRun[0].toFixed(2),
  };
}

export async function runDagOverheadBench(): Promise<Row[]> {
  const sizes = (process.env.BENCH_SIZES ?? '10,100,1000').split(',').map(Number);
  const engines = (process.env.BENCH_ENGINES ?? 'dag,langgraph').split(',') as Array<'dag' | 'langgraph'>;

  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-bench-'));
  const lite = await openDatabase({ dataDir: dir });
  const url =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const schema = `bench_${Date.now()}`;
  let pgdb: Database | undefined;
  try {
    pgdb = await openDatabase({ databaseUrl: url, schema });
  } catch (e) {
    console.warn(`PostgreSQL rows skipped: ${(e as Error).message}`);
  }
  const embedded = engines.map((e) => paiflow(lite, 'embedded (PGlite)', e));
  const postgres = pgdb ? engines.map((e) => paiflow(pgdb!, 'PostgreSQL', e)) : [];
  // The reference: raw LangGraph.js with the official PostgresSaver on the same server (PaiFlow keeps no LangGraph
  // checkpoints of its own: its pauses and resumes start from its node snapshots).
  const saverPool = pgdb && engines.includes('langgraph') ? new pg.Pool({ connectionString: url, max: 4 }) : undefined;
  let postgresSaver: BaseCheckpointSaver | undefined;
  if (saverPool) {
    const { PostgresSaver } = await import('@langchain/langgraph-checkpoint-postgres');
    const saver = new PostgresSaver(saverPool, undefined, { schema });
    await saver.setup();
    postgresSaver = saver as unknown as BaseCheckpointSaver;
  }

  const rows: Row[] = [];
  try {
    for (const n of sizes) {
      const rounds = Number(process.env.BENCH_REPS ?? Math.max(15, Math.ceil(3000 / (n + 2))));
      // LangGraph's savers copy the growing state every step (O(n²)): only the shorter chains.
      const short = n <= 100;
      const configs: Config[] = [
        ...embedded,
        ...(short ? [raw('memory-saver', new MemorySaver())] : []),
        ...postgres,
        ...(short && postgresSaver ? [raw('postgres-saver', postgresSaver)] : []),
      ];
      for (const c of configs) rows.push(await measurePair(c, n, rounds));
    }
  } finally {
    for (const o of [...embedded, ...postgres]) await o.close();
    await lite.close();
    rmSync(dir, { recursive: true, force: true });
    await saverPool?.end();
    if (pgdb) {
      await pgdb.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      await c.end();
    }
  }
  return rows;
}
