/**
 * Published-endpoint throughput: runs/s and p50/p99 latency of POST /api/v1/workflows/:slug/run in sync mode for a
 * 3-node workflow (start → template → end, offline), as an outside app sees it: the production server (`npm start`,
 * i.e. server.mjs; built first if `.next` is missing or older than a source) runs in its own process; autocannon
 * drives it from this process over loopback.
 * Stores: the embedded one (PGlite, in-process bus) and PostgreSQL + Redis (Redis Streams bus) when both are
 * reachable. Every answer is checked (200, status succeeded, the input echoed back); a wrong one counts as an error.
 * Rate limit and concurrency cap are lifted for the run. `runApiBench()` returns rows for bench/run-all.ts.
 *
 * Env: BENCH_API_CONCURRENCY (default "1,8,32,64"), BENCH_API_SECONDS per row (default 10), BENCH_API_STORES
 * ("pglite,postgres"), BENCH_API_WEB_CONCURRENCY (server processes, default: the server's own default).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { onStores, runIfMain, signInAsOwner, storeLabel, withBenchStore, type StoreKind } from './support/bench-server';
import { publishHelloApi } from './support/hello-api';

export interface ApiBenchRow {
  store: string;
  concurrency: number;
  requests: number;
  errors: number;
  runsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The newest modification time of the sources the production build is made from. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.(tsx?|mjs|css)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds the production server when there is no build, or when a source is newer than it (a stale build would be
 * measured).
 */
function ensureBuild() {
  const id = path.join(ROOT, '.next', 'BUILD_ID');
  const built = existsSync(id) ? statSync(id).mtimeMs : 0;
  const newest = Math.max(...['app', 'components', 'engine', 'lib'].map((d) => newestSource(path.join(ROOT, d))));
  if (built > newest) return;
  console.log(
    built
      ? '[bench] sources changed since the production build: running `next build`'
      : '[bench] no production build yet: running `next build` first',
  );
  const r = spawnSync('npx', ['next', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (r.status !== 0) throw new Error('next build failed');
}

async function startServer(env: Record<string, string>): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'server.mjs'), '--port', String(port), '--hostname', '127.0.0.1'],
    {
      cwd: ROOT,
      env: { ...process.env, ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout!.on('data', (d) => {
    log += d;
  });
  child.stderr!.on('data', (d) => {
    log += d;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${log}`);
    // "ready" is printed once the published API's routes are loaded and served directly.
    if (
      log.includes('PaiFlow ready') &&
      (await fetch(`${baseUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return { baseUrl, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /api/health within 60 s: ${log}`);
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}

/** One autocannon measurement; every response body is checked. */
async function measure(url: string, key: string, connections: number, seconds: number) {
  let wrong = 0;
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        setupRequest: (req, ctx) => {
          (ctx as { msg?: string }).msg = `m${n++}`;
          return { ...req, body: JSON.stringify({ inputs: { message: (ctx as { msg?: string }).msg } }) };
        },
        onResponse: (status, body, ctx) => {
          if (
            status !== 200 ||
            !body.includes('"status":"succeeded"') ||
            !body.includes(`"text":"Hello ${(ctx as { msg?: string }).msg}"`)
          )
            wrong++;
        },
      },
    ],
  });
  const errors = wrong + result.errors + result.timeouts;
  const ok = result.requests.total - wrong;
  return {
    requests: result.requests.total,
    errors,
    runsPerSec: Math.round((ok / seconds) * 10) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

async function benchStore(kind: StoreKind, concurrencies: number[], seconds: number): Promise<ApiBenchRow[]> {
  return withBenchStore(kind, 'apibench', async (env) => {
    const { baseUrl, child } = await startServer({
      ...env,
      ...(process.env.BENCH_API_WEB_CONCURRENCY ? { WEB_CONCURRENCY: process.env.BENCH_API_WEB_CONCURRENCY } : {}),
    });
    try {
      const label = await storeLabel(baseUrl, kind);
      // A fresh data dir: set up the owner, then manage the workflow with a personal access token.
      const send = await signInAsOwner(baseUrl);
      const { endpoint: url, key } = await publishHelloApi(send, `api bench ${kind}`);
      await measure(url, key, 8, 3); // warm-up: JIT, connection pools, prepared statements
      const rows: ApiBenchRow[] = [];
      for (const c of concurrencies)
        rows.push({ store: label, concurrency: c, ...(await measure(url, key, c, seconds)) });
      return rows;
    } finally {
      await stopServer(child);
    }
  });
}

export async function runApiBench(): Promise<ApiBenchRow[]> {
  const concurrencies = (process.env.BENCH_API_CONCURRENCY ?? '1,8,32,64').split(',').map(Number);
  const seconds = Number(process.env.BENCH_API_SECONDS ?? 10);
  const stores = (process.env.BENCH_API_STORES ?? 'pglite,postgres').split(',');
  ensureBuild();
  return onStores(stores, (kind) => benchStore(kind, concurrencies, seconds));
}

runIfMain(import.meta.url, runApiBench);
