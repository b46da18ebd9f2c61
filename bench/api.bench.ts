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
import autocannon from 'autocannon';
import { onStores, runIfMain, signInAsOwner, storeLabel, withBenchStore, type StoreKind } from './support/bench-server';
import { helloRequest, publishHelloApi } from './support/hello-api';
import { ensureBuild, startServer, stopServer } from './support/production-server';

export interface ApiBenchRow {
  store: string;
  concurrency: number;
  requests: number;
  errors: number;
  runsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

/** One autocannon measurement; every response body is checked. */
async function measure(url: string, key: string, connections: number, seconds: number) {
  let wrong = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [
      helloRequest(key, (ok) => {
        if (!ok) wrong++;
      }),
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
