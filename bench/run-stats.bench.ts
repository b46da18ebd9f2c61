/**
 * Run analytics on PostgreSQL at size: 100,000 runs of one workflow over 30 days with 3 node runs each (usage with
 * tokens and cost on one of them, every 20th run failed), written with generate_series into a private schema that
 * is dropped afterwards. Measures the median time of GET /api/workflows/:id/stats's queries over the 30 days
 * (RunAnalytics.workflowStats: per day, totals, slowest and failing nodes), and of the first and a deep page of
 * GET /api/runs, plain and with an input-text search. BENCH_DATABASE_URL / TEST_DATABASE_URL (default
 * postgresql://postgres@127.0.0.1:5432/test); BENCH_STATS_RUNS (100000) and BENCH_STATS_REPEATS (9) scale it.
 * Returns rows for bench/run-all.ts; `npx tsx bench/run-stats.bench.ts` runs it alone.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../engine/store/prisma/database';
import { RunAnalytics } from '../engine/store/prisma/run-analytics';

const URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.BENCH_STATS_RUNS ?? 100_000);
const REPEATS = Number(process.env.BENCH_STATS_REPEATS ?? 9);
const DAYS = 30;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed(fn: () => Promise<unknown>): Promise<{ median: number; min: number }> {
  await fn(); // warm-up: plans cached, pages in memory
  const ms: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return { median: +median(ms).toFixed(1), min: +Math.min(...ms).toFixed(1) };
}

export async function runRunStatsBench() {
  const schema = `bench_stats_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const db = await openDatabase({ databaseUrl: URL, schema });
  try {
    const end = new Date('2026-12-01T00:00:00.000Z');
    const start = new Date(end.getTime() - DAYS * 86_400_000);
    const t0 = performance.now();
    await db.sql.exec(`
      INSERT INTO workspaces (id, name) VALUES ('ws_bench', 'bench');
      INSERT INTO workflows (id, workspace_id, name, graph, updated_at)
        VALUES ('wf_bench', 'ws_bench', 'bench', '{"nodes":[],"edges":[]}', now()),
               ('wf_other', 'ws_bench', 'other', '{"nodes":[],"edges":[]}', now());
      INSERT INTO runs (id, workflow_id, engine, status, inputs, graph, created_at, started_at, finished_at)
        SELECT 'run_' || lpad(i::text, 8, '0'), CASE WHEN i % 10 = 0 THEN 'wf_other' ELSE 'wf_bench' END, 'dag',
               CASE WHEN i % 20 = 0 THEN 'failed' ELSE 'succeeded' END,
               jsonb_build_object('message', 'order ' || i), '{"nodes":[],"edges":[]}', t, t,
               t + ((50 + (i * 37) % 2000) || ' milliseconds')::interval
          FROM generate_series(1, ${RUNS}) AS i,
               LATERAL (SELECT '${start.toISOString().replace('Z', '')}'::timestamp(3)
                               + ((i::float8 / ${RUNS}) * ${DAYS} || ' days')::interval AS t) ts;
      INSERT INTO node_runs (run_id, node_id, type, status, usage, error, duration_ms)
        SELECT r.id, n.node_id, n.type,
               CASE WHEN n.node_id = 'llm' AND r.status = 'failed' THEN 'failed' ELSE 'succeeded' END,
               CASE WHEN n.node_id = 'llm' THEN jsonb_build_object('inputTokens', 100 + length(r.id),
                    'outputTokens', 40, 'costUsd', 0.0002) END,
               CASE WHEN n.node_id = 'llm' AND r.status = 'failed'
                    THEN jsonb_build_object('code', 'LLM_ERROR', 'message', 'rate limited') END,
               n.base + (hashtext(r.id) & 255)
          FROM runs r CROSS JOIN (VALUES ('start', 'start', 1), ('llm', 'llm', 400), ('end', 'end', 2))
               AS n(node_id, type, base);
      ANALYZE runs; ANALYZE node_runs; ANALYZE workflows;
    `);
    const seedMs = performance.now() - t0;
    const a = new RunAnalytics(db.sql);
    const check = await a.workflowStats('ws_bench', 'wf_bench', start, end);
    const stats = await timed(() => a.workflowStats('ws_bench', 'wf_bench', start, end));
    const base = { workspaceId: 'ws_bench', limit: 50 };
    const first = await timed(() => a.listRuns(base));
    const deep = await timed(() =>
      a.listRuns({ ...base, after: { createdAt: new Date(start.getTime() + 86_400_000).toISOString(), id: 'run_' } }),
    );
    const search = await timed(() => a.listRuns({ ...base, q: 'order 4242' }));
    return [
      {
        what: `stats over ${DAYS} days (${check?.totals.runs} runs, ${3 * RUNS} node runs in the table)`,
        medianMs: stats.median,
        minMs: stats.min,
      },
      { what: 'GET /api/runs first page (50)', medianMs: first.median, minMs: first.min },
      { what: 'GET /api/runs page at day 1 of 30 (keyset)', medianMs: deep.median, minMs: deep.min },
      { what: 'GET /api/runs q= input text (full scan)', medianMs: search.median, minMs: search.min },
      {
        what: `seeding ${RUNS} runs + ${3 * RUNS} node runs (generate_series)`,
        medianMs: +seedMs.toFixed(0),
        minMs: null,
      },
    ];
  } finally {
    await db.close();
    const c = new pg.Client({ connectionString: URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  }
}

if (process.argv[1] && /run-stats\.bench\.ts$/.test(process.argv[1])) {
  runRunStatsBench().then(
    (rows) => {
      console.table(rows);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
