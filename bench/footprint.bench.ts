/**
 * The server's footprint (issue 47), as a user starts it (`npm start`, built first when stale), on each store:
 * - RSS 15 s after the very first start (a new data dir: on the embedded store, initdb and the migrations run then);
 * - start to the first answer of a published endpoint, and RSS 15 s after that second start;
 * - RSS 5 s and 60 s after a burst of published runs (autocannon, 50 connections).
 * RSS is the server process's own (VmRSS of /proc, threads included). Goals: idle ≤ 250 MB embedded and ≤ 200 MB on
 * PostgreSQL, start ≤ 2 s, back within 20 % of idle 60 s after the burst.
 *
 * Env: BENCH_FOOTPRINT_STORES ("pglite,postgres"), BENCH_FOOTPRINT_BURST_S (default 10), BENCH_FOOTPRINT_IDLE_S
 * (default 15).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { onStores, runIfMain, signInAsOwner, storeLabel, withBenchStore, type StoreKind } from './support/bench-server';
import { helloRequest, publishHelloApi } from './support/hello-api';
import { ensureBuild, startServer, stopServer, type ProductionServer } from './support/production-server';

export interface FootprintRow {
  store: string;
  firstStartIdleMb: number;
  startToFirstAnswerMs: number;
  idleMb: number;
  burstRunsPerSec: number;
  afterBurst5sMb: number;
  afterBurst60sMb: number;
}

const IDLE_S = Number(process.env.BENCH_FOOTPRINT_IDLE_S ?? 15);
const BURST_S = Number(process.env.BENCH_FOOTPRINT_BURST_S ?? 10);
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

/** The server process's resident memory, MB. */
function rssMb(server: ProductionServer): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/** Calls the published endpoint until it answers 200 (the server may still be loading its routes). */
async function firstAnswer(url: string, key: string): Promise<void> {
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: { message: 'first' } }),
    }).catch(() => null);
    if (res?.status === 200) return;
    await sleep(0.02);
  }
  throw new Error('the published endpoint did not answer within 60 s');
}

async function footprintOn(kind: StoreKind): Promise<FootprintRow[]> {
  return withBenchStore(kind, 'footprint', async (env) => {
    let server = await startServer(env);
    let published: { endpoint: string; key: string };
    let firstStartIdleMb: number;
    let store: string;
    try {
      await sleep(IDLE_S);
      firstStartIdleMb = rssMb(server);
      store = await storeLabel(server.baseUrl, kind);
      const send = await signInAsOwner(server.baseUrl);
      published = await publishHelloApi(send, 'footprint');
    } finally {
      await stopServer(server.child);
    }
    const t0 = performance.now();
    server = await startServer(env);
    try {
      const url = `${server.baseUrl}${new URL(published.endpoint).pathname}`;
      await firstAnswer(url, published.key);
      const startToFirstAnswerMs = Math.round(performance.now() - t0);
      await sleep(IDLE_S);
      const idleMb = rssMb(server);
      let wrong = 0;
      const burst = await autocannon({
        url,
        connections: 50,
        duration: BURST_S,
        requests: [helloRequest(published.key, (ok) => void (ok || wrong++))],
      });
      const burstRunsPerSec = Math.round((burst.requests.total - wrong) / BURST_S);
      await sleep(5);
      const afterBurst5sMb = rssMb(server);
      await sleep(55);
      const afterBurst60sMb = rssMb(server);
      return [
        {
          store,
          firstStartIdleMb,
          startToFirstAnswerMs,
          idleMb,
          burstRunsPerSec,
          afterBurst5sMb,
          afterBurst60sMb,
        },
      ];
    } finally {
      await stopServer(server.child);
    }
  });
}

export async function runFootprintBench(): Promise<FootprintRow[]> {
  ensureBuild();
  const stores = (process.env.BENCH_FOOTPRINT_STORES ?? 'pglite,postgres').split(',');
  return onStores(stores, footprintOn);
}

runIfMain(import.meta.url, runFootprintBench);
