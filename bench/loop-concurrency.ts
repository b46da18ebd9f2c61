/**
 * Loop concurrency: a list loop over BENCH_LOOP_ITEMS items (default 20) whose body is one HTTP call to a local
 * server that answers after BENCH_LOOP_BODY_MS (default 50 ms), with concurrency 1 (each item a trip around the
 * cycle) and with concurrency 5 (the loop runs 5 items' bodies at a time, checkpointing finished ones), alternating,
 * on the embedded store (PGlite) and on PostgreSQL when reachable. `ms` is the median wall time of BENCH_REPS runs
 * (default 7) from start to the stored outcome; `speedup` is c1 / c5 (the ideal is 5 for 20 items: 4 rounds of 5
 * instead of 20 calls in a row, less PaiFlow's own work per item). Prints a table and returns rows for run-all.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { InProcessEventBus } from '../engine/events/in-process-bus';
import type { Graph } from '../engine/graph/schema';
import { createLlmResolver } from '../engine/llm/resolve-provider';
import { createGuardedFetch } from '../engine/net/ssrf-guard';
import { createDefaultRegistry } from '../engine/nodes/registry';
import { createLangGraphExecutor } from '../engine/runtime/langgraph-executor';
import { RunManager } from '../engine/runtime/run-manager';
import { openDatabase, type Database } from '../engine/store/prisma/database';
import { PrismaStore } from '../engine/store/prisma/prisma-store';

interface Row {
  store: string;
  items: number;
  bodyMs: number;
  c1Ms: number;
  c5Ms: number;
  speedup: number;
  /** The most requests the server had in flight at once, with concurrency 5. */
  c5MaxInFlight: number;
}

function graph(base: string, concurrency: number): Graph {
  const node = (id: string, type: string, config: Record<string, unknown>) => ({
    id,
    type,
    position: { x: 0, y: 0 },
    data: { config },
  });
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'items', type: 'array' }] }),
      node('loop', 'loop', {
        mode: 'list',
        items: '{{inputs.items}}',
        collect: '{{fetch.output.body.text}}',
        concurrency,
      }),
      node('fetch', 'http', { method: 'GET', url: `${base}/item/{{loop.output.index}}` }),
      node('end', 'end', { outputs: [{ name: 'results', value: '{{loop.output.results}}' }] }),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'loop' },
      { id: 'e2', source: 'loop', target: 'fetch', sourceHandle: 'body' },
      { id: 'e3', source: 'fetch', target: 'loop' },
      { id: 'e4', source: 'loop', target: 'end', sourceHandle: 'done' },
    ],
  } as Graph;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(db: Database, label: string, items: number, bodyMs: number, reps: number): Promise<Row> {
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: req.url }));
    }, bodyMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const runs = new RunManager({
    store,
    workflows: store,
    bus: new InProcessEventBus(),
    registry: createDefaultRegistry(),
    services: {
      llm: createLlmResolver({}),
      fetch: createGuardedFetch({ allowlist: [host] }),
      secrets: { get: () => undefined },
    },
    executors: { langgraph: createLangGraphExecutor() },
  });
  const wf = async (concurrency: number) =>
    store.createWorkflow({
      id: `wf_loop_c${concurrency}_${Date.now()}`,
      name: `loop c${concurrency}`,
      description: '',
      graph: graph(`http://${host}`, concurrency),
      engine: 'auto',
    });
  const wfs = { 1: await wf(1), 5: await wf(5) };
  const inputs = { items: Array.from({ length: items }, (_, i) => i) };
  const once = async (concurrency: 1 | 5) => {
    const t0 = performance.now();
    const { run } = await runs.start({ workflow: wfs[concurrency], inputs });
    await runs.waitFor(run.id);
    const done = await store.getRun(run.id);
    if (done?.status !== 'succeeded') throw new Error(`bench run ${run.id} ended ${done?.status}`);
    if ((done.outputs?.results as unknown[]).length !== items) throw new Error(`bench run ${run.id}: results missing`);
    return performance.now() - t0;
  };
  try {
    await once(1); // warm-up: JIT, prepared statements, compiled graphs
    await once(5);
    const c1: number[] = [];
    const c5: number[] = [];
    maxInFlight = 0;
    for (let i = 0; i < reps; i++) {
      if (i % 2) {
        c5.push(await once(5));
        c1.push(await once(1));
      } else {
        c1.push(await once(1));
        c5.push(await once(5));
      }
    }
    const a = median(c1);
    const b = median(c5);
    return {
      store: label,
      items,
      bodyMs,
      c1Ms: Math.round(a),
      c5Ms: Math.round(b),
      speedup: Number((a / b).toFixed(2)),
      c5MaxInFlight: maxInFlight,
    };
  } finally {
    await runs.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

export async function runLoopConcurrencyBench(): Promise<Row[]> {
  const items = Number(process.env.BENCH_LOOP_ITEMS ?? 20);
  const bodyMs = Number(process.env.BENCH_LOOP_BODY_MS ?? 50);
  const reps = Number(process.env.BENCH_REPS ?? 7);
  const rows: Row[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-bench-loop-'));
  const lite = await openDatabase({ dataDir: dir });
  try {
    rows.push(await measure(lite, 'embedded (PGlite)', items, bodyMs, reps));
  } finally {
    await lite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const url =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const schema = `bench_loop_${Date.now()}`;
  let pgdb: Database | undefined;
  try {
    pgdb = await openDatabase({ databaseUrl: url, schema });
  } catch (e) {
    console.warn(`PostgreSQL row skipped: ${(e as Error).message}`);
  }
  if (pgdb) {
    try {
      rows.push(await measure(pgdb, 'PostgreSQL', items, bodyMs, reps));
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
