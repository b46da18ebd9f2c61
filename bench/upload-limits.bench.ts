/**
 * Hostile uploads and imports against the production server (issue 43, section 1): each probe of
 * test/support/hostile-documents.ts (CSV of 1.5 M columns or 9 M rows, JSONL nested millions deep, Dify YAML nested
 * 900,000 deep or of 30,000 small maps, and the embedded default's smaller ones), plus a body past the upload limit
 * sent without a length and the largest dataset the limits accept, sent to `npm start` (built first when stale) in
 * its own process, on the embedded store and on PostgreSQL + Redis when both answer. While each is sent, a worker
 * thread of this process sends GET /api/health one request at a time every 10 ms (so that building and sending the
 * probe here does not delay the polls); reported per probe: the answer (status and code), how long it took, health's
 * p50 / p99 / max during it and the server's peak RSS while it ran (VmHWM, reset before each probe) — after a first
 * row of health with nothing sent, the machine's own noise. Goal: every hostile probe refused with a 4xx and its
 * code, health p99 < 100 ms.
 *
 * A probe that gets no answer within BENCH_LIMITS_TIMEOUT_S (default 120) is reported as a timeout, and the server is
 * restarted for the next one (a stalled server would spoil every later row).
 * Env: BENCH_LIMITS_STORES ("pglite,postgres"), BENCH_LIMITS_ONLY (probe names containing one of its parts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { datasetForm, HOSTILE_PROBES, type HostileProbe } from '../test/support/hostile-documents';
import { onStores, runIfMain, storeLabel, withBenchStore, type StoreKind } from './support/bench-server';
import { ensureBuild, startServer, stopServer, type ProductionServer } from './support/production-server';

export interface UploadLimitRow {
  store: string;
  probe: string;
  answer: string;
  answerS: number | string;
  healthSamples: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthMaxMs: number;
  healthErrors: number;
  serverPeakRssMb: number | string;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/**
 * The health poller: its own thread, so that this thread's work on a probe never delays a poll. Its first request
 * (loading fetch in a new thread, opening a connection) is not counted; it says `ready` after it.
 */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
let running = true;
const times = [];
let errors = 0;
parentPort.on('message', () => { running = false; });
const once = async () => {
  const r = await fetch(workerData.url, { signal: AbortSignal.timeout(30000) });
  await r.arrayBuffer();
  return r.ok;
};
(async () => {
  await once().catch(() => false);
  parentPort.postMessage('ready');
  while (running) {
    const t0 = performance.now();
    try {
      if (await once()) times.push(performance.now() - t0); else errors++;
    } catch { errors++; times.push(performance.now() - t0); }
    await new Promise((res) => setTimeout(res, 10));
  }
  parentPort.postMessage({ times, errors });
})();
`;

async function pollHealth(baseUrl: string) {
  const worker = new Worker(POLLER, { eval: true, workerData: { url: `${baseUrl}/api/health` } });
  await new Promise((r) => worker.once('message', r));
  return {
    async stop() {
      const result = new Promise<{ times: number[]; errors: number }>((r) => worker.once('message', r));
      worker.postMessage('stop');
      const { times, errors } = await result;
      await worker.terminate();
      const sorted = [...times].sort((a, b) => a - b);
      return {
        healthSamples: sorted.length,
        healthP50Ms: round(percentile(sorted, 50)),
        healthP99Ms: round(percentile(sorted, 99)),
        healthMaxMs: round(sorted.at(-1) ?? NaN),
        healthErrors: errors,
      };
    },
  };
}

/** The process's peak RSS since the last reset (Linux: VmHWM, reset by writing 5 to clear_refs). */
function resetPeakRss(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not Linux, or not allowed: the peak since start is reported */
  }
}
function peakRssMb(pid: number): number | string {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return '?';
  }
}

/** A body of `bytes` sent in 64 KB chunks with no Content-Length: the server must refuse it while it streams. */
function unsizedBody(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= bytes) return c.close();
      sent += chunk.length;
      c.enqueue(chunk);
    },
  });
}

/** The probes beside the issue's: a 60 MB body with no length, and the largest dataset the default limits accept. */
const EXTRA_PROBES: HostileProbe[] = [
  {
    name: 'import-60MB-unsized',
    what: 'a 60 MB import body without Content-Length',
    path: '/api/workflows/import',
    body: () => 'unsized',
  },
  {
    name: 'dataset-largest-accepted',
    what: 'a 10,000-row CSV of 10 columns: 3.8 MB of rows as JSON, within DATASET_MAX_BYTES (4 MiB)',
    path: '/api/datasets',
    body: () => {
      const header = Array.from({ length: 10 }, (_, i) => `field_${i}`).join(',');
      const row = (r: number) => Array.from({ length: 10 }, (_, i) => `value ${r}-${i} lorem ipsum`).join(',');
      return datasetForm('largest.csv', `${header}\n${Array.from({ length: 10_000 }, (_, r) => row(r)).join('\n')}`);
    },
  },
];

async function send(server: ProductionServer, token: string, body: FormData | string, path: string, timeoutMs: number) {
  const init: RequestInit & { duplex?: string } = {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(timeoutMs),
  };
  if (body === 'unsized') {
    init.body = unsizedBody(60 * 1024 * 1024);
    init.duplex = 'half';
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  } else if (typeof body === 'string') {
    init.body = body;
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  } else init.body = body;
  const res = await fetch(server.baseUrl + path, init);
  const text = await res.text();
  let code = '';
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? '';
  } catch {
    /* not JSON */
  }
  return `${res.status}${code ? ` ${code}` : ''}`;
}

async function benchStore(kind: StoreKind, probes: HostileProbe[], timeoutMs: number): Promise<UploadLimitRow[]> {
  return withBenchStore(kind, 'limitsbench', async (env) => {
    let server = await startServer(env);
    const rows: UploadLimitRow[] = [];
    try {
      const store = await storeLabel(server.baseUrl, kind);
      const token = await tokenOf(server.baseUrl);
      // Warm-up: the uploads thread starts and loads its parsers (not what is measured).
      await send(server, token, datasetForm('warm-up.csv', 'q\n1\n'), '/api/datasets', timeoutMs);
      await send(
        server,
        token,
        JSON.stringify({ format: 'dify', content: 'app: {mode: x}' }),
        '/api/workflows/import',
        timeoutMs,
      );
      // The machine's own noise first: health with nothing sent, for as long as a probe takes.
      resetPeakRss(server.child.pid!);
      const idle = await pollHealth(server.baseUrl);
      await new Promise((r) => setTimeout(r, 3000));
      rows.push({
        store,
        probe: 'idle (nothing sent)',
        answer: '',
        answerS: '',
        ...(await idle.stop()),
        serverPeakRssMb: peakRssMb(server.child.pid!),
      });
      for (const probe of probes) {
        const body = probe.body();
        resetPeakRss(server.child.pid!);
        const health = await pollHealth(server.baseUrl);
        const t0 = performance.now();
        let answer: string;
        try {
          answer = await send(server, token, body, probe.path, timeoutMs);
        } catch (e) {
          answer = (e as Error).name === 'TimeoutError' ? 'timeout' : `failed: ${(e as Error).message}`;
        }
        const answerS = round((performance.now() - t0) / 1000, 2);
        // A little after the answer: work the server does once it has answered counts too.
        await new Promise((r) => setTimeout(r, 300));
        rows.push({
          store,
          probe: probe.name,
          answer,
          answerS,
          ...(await health.stop()),
          serverPeakRssMb: peakRssMb(server.child.pid!),
        });
        console.log(rows.at(-1));
        if (answer === 'timeout' || answer.startsWith('failed')) {
          await stopServer(server.child);
          server = await startServer(env);
        }
      }
      return rows;
    } finally {
      await stopServer(server.child);
    }
  });
}

/**
 * Sets up the owner of a fresh server and makes a personal access token for the probes (it stays valid when the
 * server is restarted on the same store).
 */
async function tokenOf(baseUrl: string): Promise<string> {
  const json = { 'content-type': 'application/json' };
  const setup = await fetch(`${baseUrl}/api/auth/setup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password-1', name: 'Bench' }),
  });
  const cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0];
  const res = await fetch(`${baseUrl}/api/auth/tokens`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ name: 'limits bench' }),
  });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export async function runUploadLimitsBench(): Promise<UploadLimitRow[]> {
  ensureBuild();
  const stores = (process.env.BENCH_LIMITS_STORES ?? 'pglite,postgres').split(',');
  const only = process.env.BENCH_LIMITS_ONLY?.split(',').filter(Boolean);
  const probes = [...HOSTILE_PROBES, ...EXTRA_PROBES].filter((p) => !only || only.some((o) => p.name.includes(o)));
  const timeoutMs = Number(process.env.BENCH_LIMITS_TIMEOUT_S ?? 120) * 1000;
  return onStores(stores, (kind) => benchStore(kind, probes, timeoutMs));
}

runIfMain(import.meta.url, runUploadLimitsBench);
