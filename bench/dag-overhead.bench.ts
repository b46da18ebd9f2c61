/**
 * DAG engine overhead per node: N-node chains of a no-op node, with durable snapshots (one commit per node),
 * on the embedded store (PGlite) and on PostgreSQL; and the same chain on raw @langchain/langgraph for comparison.
 * Prints a table and returns rows for bench/run-all.ts.
 */
import { Annotation, MemorySaver, StateGraph, START, END } from '@langchain/langgraph';
import { z } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { InProcessEventBus } from '../engine/events/in-process-bus';
import type { Graph } from '../engine/graph/schema';
import { createLlmResolver } from '../engine/llm/resolve-provider';
import { createGuardedFetch } from '../engine/net/ssrf-guard';
import { defineNode } from '../engine/nodes/define';
import { createDefaultRegistry } from '../engine/nodes/registry';
import { RunManager } from '../engine/runtime/run-manager';
import { createLangGraphExecutor } from '../engine/runtime/langgraph-executor';
import { checkpointerFor } from '../engine/store/prisma/checkpointer';
import { openDatabase, type Database } from '../engine/store/prisma/database';
import { PrismaStore } from '../engine/store/prisma/prisma-store';

const noop = defineNode<Record<string, never>>({
  type: 'noop', version: 1, label: 'No-op', category: 'data', description: 'bench', configSchema: z.object({}),
  inputs: [{ id: 'in', label: 'in' }], outputs: [{ id: 'out', label: 'out' }],
  async execute() { return { output: { ok: true } }; },
});

function chain(n: number): Graph {
  const nodes: Graph['nodes'] = [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } }];
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

export interface Row { engine: string; store: string; nodes: number; totalMs: number; perNodeMs: number }

async function benchEngine(db: Database, label: string, sizes: number[], reps: number, engine: 'dag' | 'langgraph' = 'dag'): Promise<Row[]> {
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const bus = new InProcessEventBus(100);
  const runs = new RunManager({
    store, workflows: store, bus, registry: createDefaultRegistry().register(noop),
    services: { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined } },
    executors: { langgraph: createLangGraphExecutor({ checkpointer: () => checkpointerFor(db) }) },
  });
  const rows: Row[] = [];
  for (const n of sizes) {
    const wf = await store.createWorkflow({ id: `wf_bench_${n}_${Date.now()}`, name: 'bench', description: '', graph: chain(n), engine });
    // warm-up
    const w = await runs.start({ workflow: wf, inputs: {} });
    await runs.waitFor(w.run.id);
    const times: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      const { run } = await runs.start({ workflow: wf, inputs: {} });
      await runs.waitFor(run.id);
      times.push(performance.now() - t0);
      const done = await store.getRun(run.id);
      if (done?.status !== 'succeeded') throw new Error(`bench run ${run.id} ended ${done?.status}`);
    }
    const best = Math.min(...times);
    rows.push({ engine: `paiflow-${engine}`, store: label, nodes: n + 2, totalMs: +best.toFixed(1), perNodeMs: +(best / (n + 2)).toFixed(3) });
  }
  await runs.close();
  await bus.close();
  return rows;
}

/**
 * The same chain on raw LangGraph.js: in memory (no persistence), with MemorySaver, or — given a database — with the
 * official PostgresSaver checkpointing every step (`durability: 'sync'`), LangGraph's own way to be durable.
 */
async function benchRawLangGraph(sizes: number[], reps: number, checkpoint: boolean, db?: Database): Promise<Row[]> {
  const rows: Row[] = [];
  const saver = db ? await checkpointerFor(db) : checkpoint ? new MemorySaver() : undefined;
  for (const n of sizes) {
    const State = Annotation.Root({ out: Annotation<Record<string, unknown>>({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }) });
    const g = new StateGraph(State) as any;
    for (let i = 1; i <= n + 2; i++) g.addNode(`n${i}`, async () => ({ out: { [`n${i}`]: { ok: true } } }));
    g.addEdge(START, 'n1');
    for (let i = 1; i < n + 2; i++) g.addEdge(`n${i}`, `n${i + 1}`);
    g.addEdge(`n${n + 2}`, END);
    const app = g.compile(saver ? { checkpointer: saver } : {});
    const cfg = (k: number) => ({ recursionLimit: n + 10, ...(saver ? { configurable: { thread_id: `t${n}_${k}_${Date.now()}` }, durability: db ? 'sync' : 'async' } : {}) });
    await app.invoke({}, cfg(-1));
    const times: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      await app.invoke({}, cfg(r));
      times.push(performance.now() - t0);
    }
    const best = Math.min(...times);
    rows.push({
      engine: db ? 'raw-langgraph+PostgresSaver' : checkpoint ? 'raw-langgraph+MemorySaver' : 'raw-langgraph',
      store: db ? 'PostgreSQL' : 'memory', nodes: n + 2, totalMs: +best.toFixed(1), perNodeMs: +(best / (n + 2)).toFixed(3),
    });
  }
  return rows;
}

export async function runDagOverheadBench(): Promise<Row[]> {
  const sizes = (process.env.BENCH_SIZES ?? '10,100,1000').split(',').map(Number);
  const reps = Number(process.env.BENCH_REPS ?? 10);
  const rows: Row[] = [];
  const engines = (process.env.BENCH_ENGINES ?? 'dag,langgraph').split(',') as Array<'dag' | 'langgraph'>;
  // Raw LangGraph first, in a fresh heap: its best case, so the comparison does not flatter our engines.
  rows.push(...(await benchRawLangGraph(sizes, reps, false)));
  rows.push(...(await benchRawLangGraph(sizes, reps, true)));
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-bench-'));
  const lite = await openDatabase({ dataDir: dir });
  for (const engine of engines) rows.push(...(await benchEngine(lite, 'embedded (PGlite)', sizes, reps, engine)));
  await lite.close();
  rmSync(dir, { recursive: true, force: true });

  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const schema = `bench_${Date.now()}`;
  try {
    const pgdb = await openDatabase({ databaseUrl: url, schema });
    for (const engine of engines) rows.push(...(await benchEngine(pgdb, 'PostgreSQL', sizes, reps, engine)));
    if (engines.includes('langgraph')) rows.push(...(await benchRawLangGraph(sizes.filter((s) => s <= 100), reps, true, pgdb)));
    await pgdb.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA "${schema}" CASCADE`);
    await c.end();
  } catch (e) {
    console.warn(`PostgreSQL bench skipped: ${(e as Error).message}`);
  }
  return rows;
}
