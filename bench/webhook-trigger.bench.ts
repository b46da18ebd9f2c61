/**
 * Webhook trigger → run throughput next to the published endpoint's, on the same 3-node workflow (start → template
 * → end, offline): autocannon drives `POST /api/hooks/:hookId` (HMAC-signed body, `X-Signature: sha256=…`, async
 * response: 202 `{ runId }`) and `POST /api/v1/workflows/:slug/run` (Bearer key, `mode: "async"`: 202) in
 * alternating blocks at each concurrency, against a server in its own process (bench/webhook-trigger-server.ts:
 * the route handlers behind the direct-route bridge the production server serves both paths with). Every body is
 * unique and every answer is checked (202 and a run id); a wrong one counts as an error. After each block the runs
 * it accepted are drained (none running or queued) before the next starts, so `completedPerSec` = accepted runs /
 * (load time + drain time) is what the server sustains end to end; `acceptedPerSec` is the rate of 202s alone. Rate
 * limit and concurrency cap are lifted. Stores: the embedded one, and PostgreSQL + Redis when both are reachable.
 * `runWebhookTriggerBench()` returns rows for bench/run-all.ts.
 *
 * Env: BENCH_WEBHOOK_CONCURRENCY (default "1,16"), BENCH_WEBHOOK_SECONDS of load per row (default 10),
 * BENCH_WEBHOOK_BLOCKS it is split into (default 5), BENCH_WEBHOOK_STORES ("pglite,postgres").
 */
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import { spawnTsx } from '../test/support/spawn-tsx';
import { onStores, runIfMain, signInAsOwner, storeLabel, withBenchStore, type StoreKind } from './support/bench-server';
import { publishHelloApi } from './support/hello-api';

export interface WebhookBenchRow {
  store: string;
  endpoint: string;
  concurrency: number;
  requests: number;
  errors: number;
  acceptedPerSec: number;
  completedPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

const SECRET = 'bench-webhook-secret-0123456789abcdef';

/** How one endpoint is called: its URL and, per unique message, the request's headers and body. */
interface Target {
  name: string;
  url: string;
  request(message: string): { headers: Record<string, string>; body: string };
}

/** GET /api/runs?… as the owner. */
type Getter = (p: string) => Promise<{ runs: unknown[] }>;

let counter = 0;

/** One autocannon measurement: every answer must be 202 with a run id. */
async function load(target: Target, connections: number, seconds: number) {
  let wrong = 0;
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({ ...req, ...target.request(`m${counter++}`) }),
        onResponse: (status, body) => {
          if (status !== 202 || !body.includes('"runId":"run_')) wrong++;
        },
      },
    ],
  });
  return { result, wrong };
}

/** Waits until the workflow has no run running or queued; the seconds it took. */
async function drain(get: Getter, wfId: string): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const busy = await Promise.all(
      ['running', 'queued'].map(async (s) => (await get(`/api/runs?workflowId=${wfId}&status=${s}&limit=1`)).runs),
    );
    if (busy.every((r) => r.length === 0)) return (Date.now() - t0) / 1000;
    if (Date.now() - t0 > 300_000) throw new Error('runs still in progress 5 minutes after the load stopped');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One block: load, then drain; what it accepted and how long it took in all. */
async function block(target: Target, connections: number, seconds: number, get: Getter, wfId: string) {
  const { result, wrong } = await load(target, connections, seconds);
  const drained = await drain(get, wfId);
  return {
    ok: result.requests.total - wrong,
    requests: result.requests.total,
    errors: wrong + result.errors + result.timeouts,
    drained,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Both targets at one concurrency, in `blocks` alternating blocks (A B, B A, A B …) of `seconds / blocks` each:
 * the server slows down as its database fills, so long back-to-back runs would favour whichever went first.
 * Latencies are the median of the blocks' p50 and p99.
 */
async function measurePair(
  targets: Target[],
  connections: number,
  seconds: number,
  blocks: number,
  get: Getter,
  wfId: string,
): Promise<Array<Omit<WebhookBenchRow, 'store'>>> {
  const per = new Map(targets.map((t) => [t, [] as Array<Awaited<ReturnType<typeof block>>>]));
  for (let b = 0; b < blocks; b++)
    for (const t of b % 2 ? [...targets].reverse() : targets)
      per.get(t)!.push(await block(t, connections, seconds / blocks, get, wfId));
  return targets.map((t) => {
    const bs = per.get(t)!;
    const sum = (f: (x: (typeof bs)[number]) => number) => bs.reduce((a, x) => a + f(x), 0);
    return {
      endpoint: t.name,
      concurrency: connections,
      requests: sum((x) => x.requests),
      errors: sum((x) => x.errors),
      acceptedPerSec: Math.round((sum((x) => x.ok) / seconds) * 10) / 10,
      completedPerSec: Math.round((sum((x) => x.ok) / (seconds + sum((x) => x.drained))) * 10) / 10,
      p50Ms: median(bs.map((x) => x.p50)),
      p99Ms: median(bs.map((x) => x.p99)),
    };
  });
}

/** Sets up the owner, the workflow, its key and its webhook; the two targets. */
async function setUp(baseUrl: string, kind: string) {
  const send = await signInAsOwner(baseUrl);
  const api = await publishHelloApi(send, `webhook bench ${kind}`);
  const hook = await send<{ path: string }>('POST', `/api/workflows/${api.workflowId}/triggers`, {
    type: 'webhook',
    auth: { type: 'hmac', secret: SECRET },
    mapping: { message: '{{body.message}}' },
    response: 'async',
  });
  const webhook: Target = {
    name: 'webhook (hmac, async)',
    url: `${baseUrl}${hook.path}`,
    request: (message) => {
      const body = JSON.stringify({ message });
      const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
      return { headers: { 'content-type': 'application/json', 'x-signature': signature }, body };
    },
  };
  const published: Target = {
    name: 'published v1 (async)',
    url: api.endpoint.replace(/^https?:\/\/[^/]+/, baseUrl),
    request: (message) => ({
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.key}` },
      body: JSON.stringify({ inputs: { message }, mode: 'async' }),
    }),
  };
  const get: Getter = (p) => send('GET', p);
  return { wfId: api.workflowId, targets: [webhook, published], get };
}

async function benchStore(
  kind: StoreKind,
  concurrencies: number[],
  seconds: number,
  blocks: number,
): Promise<WebhookBenchRow[]> {
  return withBenchStore(kind, 'hookbench', async (env) => {
    const server = spawnTsx('bench/webhook-trigger-server.ts', [], { ...env, NODE_ENV: 'production', SCHEDULER: '0' });
    try {
      const baseUrl = (await server.line('LISTENING'))!;
      const { wfId, targets, get } = await setUp(baseUrl, kind);
      const label = await storeLabel(baseUrl, kind);
      for (const t of targets) await block(t, 8, 3, get, wfId); // warm-up: JIT, pools, prepared statements
      const rows: WebhookBenchRow[] = [];
      for (const c of concurrencies)
        for (const r of await measurePair(targets, c, seconds, blocks, get, wfId)) rows.push({ store: label, ...r });
      const failed = (await get(`/api/runs?workflowId=${wfId}&status=failed&limit=1`)).runs;
      if (failed.length) throw new Error(`a run failed during the bench: ${JSON.stringify(failed[0])}`);
      return rows;
    } finally {
      await server.stop();
    }
  });
}

export async function runWebhookTriggerBench(): Promise<WebhookBenchRow[]> {
  const concurrencies = (process.env.BENCH_WEBHOOK_CONCURRENCY ?? '1,16').split(',').map(Number);
  const seconds = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);
  const blocks = Number(process.env.BENCH_WEBHOOK_BLOCKS ?? 5);
  const stores = (process.env.BENCH_WEBHOOK_STORES ?? 'pglite,postgres').split(',');
  return onStores(stores, (kind) => benchStore(kind, concurrencies, seconds, blocks));
}

runIfMain(import.meta.url, runWebhookTriggerBench);
