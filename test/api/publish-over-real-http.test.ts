// Guarantees: over a real socket, a client with nothing but the endpoint URL and a key — plain fetch, or curl via
// scripts/curl-published.sh — can publish-run a workflow (sync, stream, async + poll), and gets 401 (curl exit 22)
// without a valid key.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { simpleGraph, useFreshDataDir } from './api-helpers';
import { expectContiguousToTerminal, readSse } from './publish-contract-suite';

useFreshDataDir();
process.env.SEED_EXAMPLE = '0';

const run = promisify(execFile);
const SCRIPT = path.resolve('scripts/curl-published.sh');
const hasCurl = ['/usr/bin/curl', '/bin/curl', '/usr/local/bin/curl'].some(existsSync);

let srv: RouteServer;
let slug: string;
let key: string;

async function json(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.baseUrl}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

beforeAll(async () => {
  await getApp();
  srv = await startRouteServer();
  const wf = await json('POST', '/api/workflows', { name: 'Wire test', graph: simpleGraph('Hi {{inputs.message}}') });
  expect(wf.status).toBe(201);
  const p = await json('POST', `/api/workflows/${wf.body.id}/publish`);
  expect(p.status).toBe(201);
  expect(p.body.endpoint).toBe(`${srv.baseUrl}/api/v1/workflows/wire-test/run`);
  slug = p.body.slug;
  key = (await json('POST', `/api/workflows/${wf.body.id}/api-keys`, { name: 'wire' })).body.key;
});

afterAll(async () => {
  await srv?.close();
  await (await getApp()).close();
});

describe('plain fetch', () => {
  const auth = () => ({ authorization: `Bearer ${key}` });

  it('sync run → 200 with outputs', async () => {
    const r = await json('POST', `/api/v1/workflows/${slug}/run`, { inputs: { message: 'fetch' } }, auth());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'succeeded', outputs: { text: 'Hi fetch' } });
  });

  it('stream run → SSE frames over the socket, ending in the terminal event', async () => {
    const res = await fetch(`${srv.baseUrl}/api/v1/workflows/${slug}/run`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ inputs: { message: 'sse' }, mode: 'stream' }),
    });
    expect(res.status).toBe(200);
    const { frames, closed } = await readSse(res);
    expect(closed).toBe(true);
    expectContiguousToTerminal(frames, res.headers.get('x-run-id')!);
  });

  it('async run → 202, statusUrl polled to succeeded', async () => {
    const r = await json(
      'POST',
      `/api/v1/workflows/${slug}/run`,
      { inputs: { message: 'poll' }, mode: 'async' },
      auth(),
    );
    expect(r.status).toBe(202);
    expect(r.body.statusUrl.startsWith(srv.baseUrl)).toBe(true);
    let status = r.body.status;
    let outputs;
    for (const until = Date.now() + 20_000; status !== 'succeeded' && Date.now() < until;) {
      await new Promise((ok) => setTimeout(ok, 50));
      const g = await fetch(r.body.statusUrl, { headers: auth() });
      ({ status, outputs } = (await g.json()) as any);
    }
    expect({ status, outputs }).toEqual({ status: 'succeeded', outputs: { text: 'Hi poll' } });
  });

  it('401 without a key, and the CORS preflight answers', async () => {
    const r = await json('POST', `/api/v1/workflows/${slug}/run`, { inputs: { message: 'x' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const pre = await fetch(`${srv.baseUrl}/api/v1/workflows/${slug}/run`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe.runIf(hasCurl)('curl (scripts/curl-published.sh)', () => {
  const curl = (args: string[], env: Record<string, string> = {}) =>
    run('bash', [SCRIPT, srv.baseUrl, slug, ...args], {
      env: { PATH: process.env.PATH!, NODE_ENV: 'test', ...env } as NodeJS.ProcessEnv,
      timeout: 30_000,
    });

  it('sync: prints the JSON answer', async () => {
    const { stdout } = await curl(['{"message":"curl"}'], { PAIFLOW_API_KEY: key });
    expect(JSON.parse(stdout)).toMatchObject({ status: 'succeeded', outputs: { text: 'Hi curl' } });
  });

  it('stream: prints SSE frames ending in run.succeeded', async () => {
    const { stdout } = await curl(['{"message":"curl-sse"}', 'stream'], { PAIFLOW_API_KEY: key });
    expect(stdout).toMatch(/^id: 1\nevent: run\.started\n/m);
    expect(stdout.trim().split('\n\n').at(-1)).toMatch(/event: run\.succeeded/);
  });

  it('a repeat with IDEMPOTENCY_KEY returns the same run', async () => {
    const env = { PAIFLOW_API_KEY: key, IDEMPOTENCY_KEY: 'curl-once' };
    const a = JSON.parse((await curl(['{"message":"idem"}'], env)).stdout);
    const b = JSON.parse((await curl(['{"message":"idem"}'], env)).stdout);
    expect(b.runId).toBe(a.runId);
  });

  it('a wrong key: exit 22 and the error body', async () => {
    const err = await curl(['{"message":"x"}'], { PAIFLOW_API_KEY: `pf_${'x'.repeat(43)}` }).then(
      () => null,
      (e) => e,
    );
    expect(err?.code).toBe(22);
    expect(JSON.parse(err.stdout)).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });
});

if (!hasCurl) it.skip('curl is not installed: the curl checks are skipped', () => {});
