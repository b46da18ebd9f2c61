/**
 * Published-endpoint throughput: runs/s and p50/p99 latency of POST /api/v1/workflows/:slug/run in sync mode for a
 * 3-node workflow (start → template → end, offline), over a real loopback socket (node:http in front of the route
 * handlers, the same modules Next serves), on the embedded store (PGlite) and on PostgreSQL when reachable.
 * Each measurement is bounded in request count and time. Latency includes auth (key lookup), body parsing, run
 * creation, execution with durable snapshots, and the answer. Rate limit and concurrency cap are lifted for the run.
 * `runApiBench()` returns rows for bench/run-all.ts; `tsx bench/api.bench.ts` prints them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { getApp } from '../lib/server/app';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../test/support/databases';
import { startRouteServer } from '../test/support/route-server';

export interface ApiBenchRow {
  store: string;
  concurrency: number;
  requests: number;
  errors: number;
  runsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ApiBenchOptions {
  concurrencies?: number[];
  /** Per measurement: stop after this many requests … */
  maxRequests?: number;
  /** … or after this long, whichever comes first. */
  maxMs?: number;
}

const GRAPH = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [{ name: 'message', type: 'string', required: true }] } } },
    { id: 't1', type: 'template', position: { x: 200, y: 0 }, data: { config: { template: 'Hello {{inputs.message}}', format: 'text' } } },
    { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { config: { outputs: [{ name: 'text', value: '{{t1.output.text}}' }] } } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 't1' }, { id: 'e2', source: 't1', target: 'end' }],
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function measure(url: string, key: string, concurrency: number, maxRequests: number, maxMs: number) {
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const t0 = performance.now();
  const deadline = t0 + maxMs;
  const worker = async (w: number) => {
    while (issued < maxRequests && performance.now() < deadline) {
      const i = issued++;
      const s = performance.now();
      try {
        const res = await fetch(url, {
          method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ inputs: { message: `w${w}-${i}` } }),
        });
        const body = (await res.json()) as { status?: string; outputs?: { text?: string } };
        if (res.status !== 200 || body.status !== 'succeeded' || body.outputs?.text !== `Hello w${w}-${i}`) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = (performance.now() - t0) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, runsPerSec: round((latencies.length - errors) / elapsed), p50Ms: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)) };
}

async function benchStore(kind: 'pglite' | 'postgres', o: Required<ApiBenchOptions>): Promise<ApiBenchRow[]> {
  const saved = { ...process.env };
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-apibench-'));
  const schema = uniqueSchema('apibench');
  Object.assign(process.env, { DATA_DIR: dir, SEED_EXAMPLE: '0', RATE_LIMIT_PER_MIN: '1000000000', MAX_CONCURRENT_RUNS_PER_WORKFLOW: '100000' });
  for (const k of ['OPENAI_API_KEY', 'REDIS_URL', 'QUEUE_MODE', 'WORKERS', 'ELASTICSEARCH_URL']) delete process.env[k]; // in-process, offline
  if (kind === 'postgres') Object.assign(process.env, { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema });
  else delete process.env.DATABASE_URL;
  const g = globalThis as { __paiflowApp?: unknown };
  g.__paiflowApp = undefined; // getApp() is per process: start this store's app afresh
  const app = await getApp();
  const srv = await startRouteServer();
  try {
    const post = async (p: string, body?: unknown) => (await fetch(`${srv.baseUrl}${p}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    })).json() as Promise<any>;
    const wf = await post('/api/workflows', { name: `api bench ${kind}`, graph: GRAPH });
    const published = await post(`/api/workflows/${wf.id}/publish`);
    const { key } = await post(`/api/workflows/${wf.id}/api-keys`, { name: 'bench' });
    await measure(published.endpoint, key, 4, 40, 10_000); // warm-up: JIT, connection pools, prepared plans
    const rows: ApiBenchRow[] = [];
    for (const c of o.concurrencies) rows.push({ store: app.db.describe.split(' ')[0], concurrency: c, ...(await measure(published.endpoint, key, c, o.maxRequests, o.maxMs)) });
    return rows;
  } finally {
    await srv.close();
    await app.close();
    g.__paiflowApp = undefined;
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    rmSync(dir, { recursive: true, force: true });
    if (kind === 'postgres') {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await c.end();
    }
  }
}

export async function runApiBench(opts: ApiBenchOptions = {}): Promise<ApiBenchRow[]> {
  const o = { concurrencies: opts.concurrencies ?? [1, 8, 32], maxRequests: opts.maxRequests ?? 1000, maxMs: opts.maxMs ?? 15_000 };
  const rows = await benchStore('pglite', o);
  if (await postgresAvailable().catch(() => false)) rows.push(...(await benchStore('postgres', o)));
  else console.warn('[bench] PostgreSQL not reachable: embedded store only');
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  runApiBench().then((rows) => { console.table(rows); process.exit(0); }, (e) => { console.error(e); process.exit(1); });
}
