// Guarantees: a side-effecting node's Idempotency-Key names the operation (`runId:nodeId`), not the attempt: an HTTP
// POST that times out and is retried, and the same POST sent again by a resume after a failure or after its process
// died, all reach the receiver with the same key, so the receiver can deduplicate. (One database: the run store
// conformance suite holds the idempotency key on both.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createHarness, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

let server: Server;
let base: string;
/** What the receiver saw: path and Idempotency-Key of every request. */
const seen: Array<{ path: string; key: string | undefined }> = [];
/** How /charge answers each request in turn: 'hang' (never), a status, then 200. */
let plan: Array<'hang' | number> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ path: req.url ?? '', key: req.headers['idempotency-key'] as string | undefined });
      const step = plan.shift() ?? 200;
      if (step === 'hang') return; // the client's timeout or a dead process ends it
      res.writeHead(step, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ charged: step === 200 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function chargeGraph(opts: { timeoutMs?: number; maxAttempts?: number } = {}): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'charge',
        type: 'http',
        position: { x: 200, y: 0 },
        data: {
          config: {
            method: 'POST',
            url: `${base}/charge`,
            bodyType: 'json',
            body: '{"amount": 5}',
            timeoutMs: opts.timeoutMs ?? 30_000,
          },
          retry: { maxAttempts: opts.maxAttempts ?? 1, backoffMs: 10 },
        },
      },
      { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { config: { outputs: [] } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'charge' },
      { id: 'e2', source: 'charge', target: 'end' },
    ],
  } as Graph;
}

describe.each(kinds)('idempotency keys (%s)', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind, { fetch: createGuardedFetch({ allowlist: [new URL(base).host] }) });
  });
  afterAll(async () => h.close());

  it('a POST that timed out and is retried arrives twice with the same key runId:nodeId', async () => {
    seen.length = 0;
    plan = ['hang', 200];
    const wf = await h.createWorkflow(chargeGraph({ timeoutMs: 300, maxAttempts: 2 }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(seen).toEqual([
      { path: '/charge', key: `${run.id}:charge` },
      { path: '/charge', key: `${run.id}:charge` },
    ]);
  });

  it('a resume after a failure sends the same key again', async () => {
    seen.length = 0;
    plan = [500, 200];
    const wf = await h.createWorkflow(chargeGraph());
    const failed = await h.runToEnd(wf);
    expect(failed.status).toBe('failed');
    await h.runs.resume(failed.id);
    await h.runs.waitFor(failed.id);
    expect((await h.store.getRun(failed.id))!.status).toBe('succeeded');
    expect(seen.map((s) => s.key)).toEqual([`${failed.id}:charge`, `${failed.id}:charge`]);
  });

  it('a resume by another process after the first one died mid-request sends the same key again', async () => {
    seen.length = 0;
    plan = ['hang', 200];
    // The first process: once it "dies", it never reaches its database again (every store call hangs).
    let dead = false;
    const first = await createHarness(kind, {
      tdb: h.tdb,
      fetch: createGuardedFetch({ allowlist: [new URL(base).host] }),
      wrapStore: (inner) =>
        new Proxy(inner, {
          get(target, prop, receiver) {
            const v = Reflect.get(target, prop, receiver);
            if (typeof v !== 'function') return v;
            return (...args: unknown[]) => (dead ? new Promise(() => {}) : v.apply(target, args));
          },
        }),
    });
    const wf = await h.createWorkflow(chargeGraph());
    const { run } = await first.runs.start({ workflow: (await h.store.getWorkflow(wf))!, inputs: {} });
    for (let i = 0; i < 400 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(seen).toHaveLength(1);
    dead = true;
    // Another process on the same database finds the run orphaned (no heartbeat) and resumes it.
    await h.store.updateRun(run.id, { heartbeatAt: new Date(Date.now() - 3_600_000).toISOString() });
    const interrupted = await h.runs.recover(new Date(Date.now() - 60_000), run.id);
    expect(interrupted).toEqual([run.id]);
    await h.runs.resume(run.id);
    await h.runs.waitFor(run.id);
    expect((await h.store.getRun(run.id))!.status).toBe('succeeded');
    expect(seen.map((s) => s.key)).toEqual([`${run.id}:charge`, `${run.id}:charge`]);
  });
});
