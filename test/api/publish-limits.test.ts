// Guarantees: the published endpoint enforces its limits with the documented answers — per-key rate limit → 429 +
// Retry-After, body too large → 413, non-JSON → 415, per-workflow concurrency cap → 429 (an idempotent repeat still
// gets its run), a sync run past SYNC_TIMEOUT_MS → 202 + statusUrl (never 504) — and CORS answers only the configured
// origins.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { OPTIONS as runOptions, POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { v1Settings } from '@/lib/server/publishing/v1-settings';
import {
  call,
  expectError,
  expectNoServerErrorsOrStacks,
  simpleGraph,
  useFreshDataDir,
  waitForRun,
} from './api-helpers';
import { bearer } from './publish-contract-suite';

useFreshDataDir();
process.env.RATE_LIMIT_PER_MIN = '5';
process.env.MAX_BODY_BYTES = '4096';
process.env.MAX_CONCURRENT_RUNS_PER_WORKFLOW = '2';
process.env.SYNC_TIMEOUT_MS = '300';
process.env.CORS_ORIGINS = 'https://app.example, https://other.example';

// An upstream whose answers are held until the test opens the gate: runs through it are provably in progress.
let upstream: Server;
let port: number;
let openGate!: () => void;
let gate = new Promise<void>((r) => {
  openGate = r;
});
const closeGate = () => {
  gate = new Promise<void>((r) => {
    openGate = r;
  });
};

let fast: { id: string; slug: string };
let slow: { id: string; slug: string };

async function published(name: string, graph: unknown) {
  const c = await call(createWf, 'POST', '/api/workflows', { body: { name, graph } });
  expect(c.status, c.text).toBe(201);
  const p = await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } });
  expect(p.status, p.text).toBe(201);
  return { id: c.body.id as string, slug: p.body.slug as string };
}

async function newKey(workflowId: string): Promise<string> {
  return (await call(createKey, 'POST', `/api/workflows/${workflowId}/api-keys`, { params: { id: workflowId } })).body
    .key;
}

const run = (slug: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
  call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
    params: { slug },
    body,
    headers: { ...bearer(key), ...headers },
  });

beforeAll(async () => {
  upstream = createServer(async (_req, res) => {
    await gate;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  port = (upstream.address() as AddressInfo).port;
  process.env.HTTP_ALLOWLIST = `127.0.0.1:${port}`;
  await getApp();
  fast = await published('Fast', simpleGraph());
  slow = await published('Slow', {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'message', type: 'string' }] } },
      },
      {
        id: 'h',
        type: 'http',
        position: { x: 1, y: 0 },
        data: { config: { url: `http://127.0.0.1:${port}/slow?m={{inputs.message}}` } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 2, y: 0 },
        data: { config: { outputs: [{ name: 'ok', value: '{{h.output.body.ok}}' }] } },
      },
    ],
    edges: [
      { id: 'a', source: 'start', target: 'h' },
      { id: 'b', source: 'h', target: 'end' },
    ],
  });
});

afterAll(async () => {
  openGate();
  await (await getApp()).close();
  upstream.closeAllConnections();
  await new Promise<void>((r) => upstream.close(() => r()));
});

describe('per-key rate limit', () => {
  it('answers 429 with Retry-After once the key spent its budget; other keys are unaffected', async () => {
    const key = await newKey(fast.id);
    for (let i = 0; i < 5; i++) expect((await run(fast.slug, key, { inputs: { message: `n${i}` } })).status).toBe(200);
    const limited = await run(fast.slug, key, { inputs: { message: 'one too many' } });
    expectError(limited, 429, 'RATE_LIMITED');
    // 5 per minute refill one token every 12 s.
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(12);
    expect((await run(fast.slug, await newKey(fast.id), { inputs: { message: 'fresh key' } })).status).toBe(200);
  });
});

describe('body limits', () => {
  it('413 for a body over MAX_BODY_BYTES, declared or streamed', async () => {
    const key = await newKey(fast.id);
    const big = JSON.stringify({ inputs: { message: 'x'.repeat(5000) } });
    expectError(
      await call(v1Run, 'POST', `/api/v1/workflows/${fast.slug}/run`, {
        params: { slug: fast.slug },
        raw: big,
        headers: { ...bearer(key), 'content-type': 'application/json' },
      }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expectError(
      await call(v1Run, 'POST', `/api/v1/workflows/${fast.slug}/run`, {
        params: { slug: fast.slug },
        raw: big,
        headers: { ...bearer(key), 'content-type': 'application/json', 'content-length': String(big.length) },
      }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('415 for a body that is not JSON', async () => {
    const key = await newKey(fast.id);
    expectError(
      await call(v1Run, 'POST', `/api/v1/workflows/${fast.slug}/run`, {
        params: { slug: fast.slug },
        raw: 'message=hi',
        headers: { ...bearer(key), 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });
});

describe('per-workflow concurrency cap and sync timeout', () => {
  it('a sync run past SYNC_TIMEOUT_MS answers 202 with statusUrl, and the run still finishes', async () => {
    closeGate();
    const key = await newKey(slow.id);
    const t0 = Date.now();
    const r = await run(slow.slug, key, { inputs: { message: 'slow' } });
    expect(r.status, r.text).toBe(202);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(r.body).toMatchObject({
      runId: expect.any(String),
      status: 'running',
      statusUrl: `http://localhost/api/v1/runs/${r.body.runId}`,
    });
    openGate();
    expect(await waitForRun(getRun, r.body.runId)).toMatchObject({ status: 'succeeded', outputs: { ok: true } });
  });

  it(
    '429 beyond MAX_CONCURRENT_RUNS_PER_WORKFLOW; ' +
      'an idempotent repeat still gets its run; room again once runs end',
    async () => {
      closeGate();
      const key = await newKey(slow.id);
      const a = await run(slow.slug, key, { inputs: { message: 'a' }, mode: 'async' }, { 'idempotency-key': 'cap-a' });
      const b = await run(slow.slug, key, { inputs: { message: 'b' }, mode: 'async' });
      expect([a.status, b.status]).toEqual([202, 202]);
      const c = await run(slow.slug, key, { inputs: { message: 'c' }, mode: 'async' });
      expectError(c, 429, 'CONCURRENCY_LIMIT');
      expect(c.headers.get('retry-after')).toBe('1');
      const again = await run(
        slow.slug,
        key,
        { inputs: { message: 'a' }, mode: 'async' },
        { 'idempotency-key': 'cap-a' },
      );
      expect(again.status).toBe(202);
      expect(again.body.runId).toBe(a.body.runId);
      openGate();
      await waitForRun(getRun, a.body.runId);
      await waitForRun(getRun, b.body.runId);
      // A slot is released when the run's execution settles, just after its final status is stored.
      const { slots } = v1Settings(await getApp());
      for (const until = Date.now() + 5000; slots.count(slow.id) > 0 && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 10));
      expect((await run(slow.slug, key, { inputs: { message: 'd' } })).status).toBe(200);
    },
  );
});

describe('CORS with configured origins', () => {
  it('echoes an allowed origin (Vary: Origin) and grants nothing to others', async () => {
    const pre = (origin: string) =>
      runOptions(
        new Request(`http://localhost/api/v1/workflows/${fast.slug}/run`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        }),
      );
    const ok = await pre('https://other.example');
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://other.example');
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const no = await pre('https://evil.example');
    expect(no.headers.get('access-control-allow-origin')).toBeNull();
    const err = await call(v1Run, 'POST', `/api/v1/workflows/${fast.slug}/run`, {
      params: { slug: fast.slug },
      body: {},
      headers: { origin: 'https://app.example' },
    });
    expect(err.status).toBe(401);
    expect(err.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
});
