/**
 * Soak: does the server's memory plateau under sustained load? The production server (`npm start`) with a small heap
 * (`--max-old-space-size`, default 512 MB) takes BENCH_SOAK_RUNS published sync runs (default 200,000) of the 3-node
 * hello workflow from BENCH_SOAK_CONNECTIONS concurrent clients (default 50). Its RSS and the runs done so far are
 * sampled every second, then once more after BENCH_SOAK_IDLE_S seconds of rest (default 40, past the in-process
 * bus's 30 s grace). Every answer is checked (200, succeeded, the input echoed): a wrong one, a socket error or a
 * timeout is an error, and the server dying of heap exhaustion is one too.
 *
 * Rows: per store, the RSS curve at each tenth of the runs (MB), the rest value, errors and runs/s. "plateau" is
 * whether the median RSS of the last quarter of the runs is within 10 % of that of the second quarter (RSS moves
 * with garbage collection by tens of MB, so single samples are not compared).
 *
 * Env: BENCH_SOAK_RUNS, BENCH_SOAK_CONNECTIONS, BENCH_SOAK_HEAP_MB, BENCH_SOAK_IDLE_S, BENCH_SOAK_STORES
 * ("pglite,postgres"). Run alone: `npm run bench -- soak` (or `npx tsx bench/soak.bench.ts`).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { onStores, runIfMain, signInAsOwner, storeLabel, withBenchStore, type StoreKind } from './support/bench-server';
import { helloRequest, publishHelloApi } from './support/hello-api';
import { ensureBuild, startServer, stopServer } from './support/production-server';

export interface SoakRow {
  store: string;
  runs: number;
  errors: number;
  runsPerSec: number;
  /** RSS (MB) after each tenth of the runs, then after the rest. */
  rssCurveMb: string;
  restMb: number;
  /** How much the median RSS of the last quarter of the runs exceeds that of the second quarter (%). */
  lastQuarterVsSecondPct: number;
  plateau: boolean;
}

/** The resident set size of a process in MB (Linux /proc), or NaN once it is gone. */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

async function soakStore(kind: StoreKind, runs: number, connections: number, heapMb: number, idleS: number) {
  return withBenchStore(kind, 'soak', async (env) => {
    const server = await startServer(env, [`--max-old-space-size=${heapMb}`]);
    try {
      const label = `${await storeLabel(server.baseUrl, kind)}, heap ${heapMb} MB`;
      const send = await signInAsOwner(server.baseUrl);
      const { endpoint, key } = await publishHelloApi(send, `soak ${kind}`);
      let done = 0;
      let wrong = 0;
      const samples: Array<{ done: number; rss: number }> = [];
      const sampler = setInterval(() => samples.push({ done, rss: rssMb(server.child.pid!) }), 1000);
      const t0 = Date.now();
      let instance: autocannon.Instance | undefined;
      const finished = new Promise<autocannon.Result>((resolve, reject) => {
        instance = autocannon(
          {
            url: endpoint,
            connections,
            amount: runs,
            timeout: 30,
            requests: [
              helloRequest(key, (ok) => {
                done++;
                if (!ok) wrong++;
              }),
            ],
          },
          (err, result) => (err ? reject(err) : resolve(result)),
        );
      });
      // A server that dies (out of heap) ends the load at once: the rest would only be refused connections.
      server.child.once('exit', () => instance?.stop());
      const result = await finished;
      const seconds = (Date.now() - t0) / 1000;
      clearInterval(sampler);
      await new Promise((r) => setTimeout(r, idleS * 1000));
      const restMb = rssMb(server.child.pid!);
      const died = server.child.exitCode !== null || /heap out of memory/i.test(server.log());
      const at = (fraction: number) => samples.find((s) => s.done >= fraction * runs)?.rss ?? NaN;
      const curve = Array.from({ length: 10 }, (_, i) => at((i + 1) / 10));
      // RSS moves with GC by tens of MB: compare medians of the second and the last quarter of the runs.
      const median = (from: number, to: number) => {
        const v = samples
          .filter((s) => s.done >= from * runs && s.done <= to * runs && Number.isFinite(s.rss))
          .map((s) => s.rss)
          .sort((a, b) => a - b);
        return v.length ? v[Math.floor(v.length / 2)] : NaN;
      };
      const growth = median(0.75, 1) / median(0.25, 0.5) - 1;
      const errors = wrong + result.errors + result.timeouts + (result.requests.total < runs ? 1 : 0) + (died ? 1 : 0);
      const row: SoakRow = {
        store: label,
        runs: result.requests.total,
        errors,
        runsPerSec: Math.round(((result.requests.total - wrong) / seconds) * 10) / 10,
        rssCurveMb: curve.join(' '),
        restMb,
        lastQuarterVsSecondPct: Math.round(growth * 1000) / 10,
        plateau: !died && growth <= 0.1,
      };
      if (died) console.error(`[soak] the server died:\n${server.log().slice(-2000)}`);
      return [row];
    } finally {
      await stopServer(server.child);
    }
  });
}

export async function runSoakBench(): Promise<SoakRow[]> {
  const runs = Number(process.env.BENCH_SOAK_RUNS ?? 200_000);
  const connections = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 50);
  const heapMb = Number(process.env.BENCH_SOAK_HEAP_MB ?? 512);
  const idleS = Number(process.env.BENCH_SOAK_IDLE_S ?? 40);
  const stores = (process.env.BENCH_SOAK_STORES ?? 'pglite,postgres').split(',');
  ensureBuild();
  return onStores(stores, (kind) => soakStore(kind, runs, connections, heapMb, idleS));
}

runIfMain(import.meta.url, runSoakBench);
