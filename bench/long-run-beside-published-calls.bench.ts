/**
 * Does a long run hold up everyone else? A 402-node chain of pure nodes (Start → 400 Templates → End) runs on each
 * engine, first alone (its cost per node), then while a client calls a small published workflow (sync mode) over
 * HTTP in a loop: the latency of those calls, of the long run's own 202, and the longest the event loop went
 * without a turn (an interval timer's lateness) tell whether the run gave other requests a turn.
 * Embedded store, route handlers behind a real node:http server (test/support/route-server.ts), one process.
 *
 * Env: BENCH_LONG_NODES (default 400 templates), BENCH_LONG_REPS (long runs per engine and mode, default 10).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startRouteServer, type RouteServer } from '../test/support/route-server';

export interface LongRunRow {
  engine: string;
  nodes: number;
  aloneMsPerNode: number;
  besideMsPerNode: number;
  calls: number;
  callP50Ms: number;
  callP99Ms: number;
  callMaxMs: number;
  run202Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

function chain(templates: number) {
  const nodes: Array<Record<string, unknown>> = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
  ];
  const edges: Array<Record<string, unknown>> = [];
  let prev = 'start';
  for (let i = 0; i < templates; i++) {
    const id = `t${i}`;
    nodes.push({
      id,
      type: 'template',
      position: { x: 200 * (i + 1), y: 0 },
      data: { config: { template: `step ${i}`, format: 'text' } },
    });
    edges.push({ id: `e${i}`, source: prev, target: id });
    prev = id;
  }
  nodes.push({
    id: 'end',
    type: 'end',
    position: { x: 200 * (templates + 1), y: 0 },
    data: { config: { outputs: [{ name: 'text', value: `{{${prev}.output.text}}` }] } },
  });
  edges.push({ id: 'e_end', source: prev, target: 'end' });
  return { nodes, edges };
}

const SMALL = chain(1);

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function setup(server: RouteServer) {
  const post = (path: string, body: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(json);
  const small = await post('/api/workflows', { name: 'small', graph: SMALL });
  const published = await post(`/api/workflows/${small.id}/publish`, {});
  const key = await post(`/api/workflows/${small.id}/api-keys`, { name: 'bench' });
  return { post, slug: published.slug as string, key: key.key as string };
}

async function runToEnd(server: RouteServer, workflowId: string, engine: string) {
  const t0 = performance.now();
  const res = await fetch(`${server.baseUrl}/api/workflows/${workflowId}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: {}, engine }),
  });
  const accepted = performance.now() - t0;
  const { runId } = await json(res);
  // Wait in-process (polling GET /api/runs/:id would itself read 402 snapshots every few ms).
  const { getApp } = await import('../lib/server/app');
  const app = await getApp();
  await app.runs.waitFor(runId);
  const run = (await app.store.getRun(runId))!;
  if (run.status !== 'succeeded') throw new Error(`long run ${run.status}: ${JSON.stringify(run.error)}`);
  return { ms: Date.parse(run.finishedAt!) - Date.parse(run.startedAt ?? run.createdAt), accepted };
}

export async function runLongRunBench(): Promise<LongRunRow[]> {
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'paiflow-bench-long-'));
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'OPENAI_API_KEY', 'QUEUE_MODE', 'WORKERS']) delete process.env[k];
  process.env.RATE_LIMIT_PER_MIN = '1000000';
  const templates = Number(process.env.BENCH_LONG_NODES ?? 400);
  const reps = Number(process.env.BENCH_LONG_REPS ?? 10);
  const server = await startRouteServer();
  const rows: LongRunRow[] = [];
  try {
    const { post, slug, key } = await setup(server);
    const long = await post('/api/workflows', { name: 'long chain', graph: chain(templates) });
    const call = async () => {
      const t0 = performance.now();
      const out = await json(
        await fetch(`${server.baseUrl}/api/v1/workflows/${slug}/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ inputs: {} }),
        }),
      );
      if (out.status !== 'succeeded') throw new Error(`published call ${out.status}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 50; i++) await call(); // warm-up: JIT, prepared statements
    // The baseline: the same calls with no long run beside them.
    const quiet: number[] = [];
    const quietDelay = monitorEventLoopDelay({ resolution: 1 });
    quietDelay.enable();
    for (let i = 0; i < 100; i++) quiet.push(await call());
    quietDelay.disable();
    rows.push({
      engine: '(no long run)',
      nodes: 0,
      aloneMsPerNode: 0,
      besideMsPerNode: 0,
      calls: quiet.length,
      callP50Ms: round(pct(quiet, 50)),
      callP99Ms: round(pct(quiet, 99)),
      callMaxMs: round(Math.max(...quiet)),
      run202Ms: 0,
      loopDelayP99Ms: round(quietDelay.percentile(99) / 1e6),
      loopDelayMaxMs: round(quietDelay.max / 1e6),
    });
    for (const engine of ['dag', 'langgraph']) {
      await runToEnd(server, long.id, engine); // warm-up (and compile, for LangGraph)
      const alone: number[] = [];
      for (let i = 0; i < reps; i++) alone.push((await runToEnd(server, long.id, engine)).ms);
      const beside: number[] = [];
      const accepted: number[] = [];
      const calls: number[] = [];
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      for (let i = 0; i < reps; i++) {
        let done = false;
        const caller = (async () => {
          while (!done) calls.push(await call());
        })();
        const r = await runToEnd(server, long.id, engine);
        done = true;
        await caller;
        beside.push(r.ms);
        accepted.push(r.accepted);
      }
      delay.disable();
      const nodes = templates + 2;
      rows.push({
        engine,
        nodes,
        aloneMsPerNode: round(pct(alone, 50) / nodes, 3),
        besideMsPerNode: round(pct(beside, 50) / nodes, 3),
        calls: calls.length,
        callP50Ms: round(pct(calls, 50)),
        callP99Ms: round(pct(calls, 99)),
        callMaxMs: round(Math.max(0, ...calls)),
        run202Ms: round(pct(accepted, 50)),
        loopDelayP99Ms: round(delay.percentile(99) / 1e6),
        loopDelayMaxMs: round(delay.max / 1e6),
      });
    }
  } finally {
    await server.close();
    const { getApp } = await import('../lib/server/app');
    await (await getApp()).close();
  }
  return rows;
}

if (process.argv[1]?.endsWith('long-run-beside-published-calls.bench.ts')) {
  runLongRunBench().then(
    (rows) => console.table(rows),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
