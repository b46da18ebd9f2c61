// Guarantees: the HTTP node sends templated requests only through the SSRF guard, fails non-2xx with HTTP_STATUS
// (unless continueOnError), sends the context's Idempotency-Key on writes, and never stores an Authorization
// secret in the node's recorded input.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PaiError } from '@/engine/errors';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch, type GuardedFetch } from '@/engine/net/ssrf-guard';
import { httpConfigSchema, httpNode } from './index';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager } from '@/engine/runtime/run-manager';
import { resolveDeep, type TemplateScope } from '@/engine/template/resolve';
import { createHarness, type Harness } from '@/test/support/harness';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let server: Server;
let port: number;
let base: string;
const seen: Seen[] = [];
/** Status codes to answer /flaky with, one per request (then 200). */
let flaky: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const u = new URL(req.url!, 'http://x');
      const json = (status: number, v: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      if (u.pathname.startsWith('/status/')) return json(Number(u.pathname.split('/')[2]), { error: 'as requested' });
      if (u.pathname === '/flaky') return json(flaky.shift() ?? 200, { ok: true });
      if (u.pathname === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('plain words');
      }
      if (u.pathname === '/redirect') {
        res.writeHead(302, { location: u.searchParams.get('to')! });
        return res.end();
      }
      if (u.pathname === '/slow') {
        setTimeout(() => json(200, { slow: true }), 2000);
        return;
      }
      json(200, {
        method: req.method,
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        body: body || null,
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  seen.length = 0;
  flaky = [];
});

const scope: TemplateScope = {
  inputs: { id: 42, q: 'hello world', token: 'tok-123', quote: 'say "hi", then {leave}' },
  nodes: { prev: { status: 'succeeded', output: { path: 'items', tags: ['a', 'b'] } } },
};

/** Executes the node the way runNode does: parse config, resolve templates (except raw keys), then execute. */
async function execHttp(config: Record<string, unknown>, opts: { fetch?: GuardedFetch; signal?: AbortSignal } = {}) {
  const raw = httpConfigSchema.parse(config);
  const toResolve: Record<string, unknown> = { ...raw };
  for (const k of httpNode.rawKeys ?? []) delete toResolve[k];
  const resolved = { ...raw, ...resolveDeep(toResolve, scope) };
  return httpNode.execute({
    runId: 'run_t',
    nodeId: 'h1',
    nodeType: 'http',
    attempt: 1,
    idempotencyKey: 'run_t:h1:1',
    config: resolved,
    rawConfig: raw,
    scope,
    signal: opts.signal ?? new AbortController().signal,
    spanId: 's',
    emit: () => {},
    fetch: opts.fetch ?? createGuardedFetch({ allowlist: [`127.0.0.1:${port}`] }),
    secrets: { get: () => undefined },
    llm: createLlmResolver({}),
    iteration: 0,
  } as any);
}

async function failure(p: Promise<unknown>): Promise<PaiError> {
  const e = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(PaiError);
  return e as PaiError;
}

describe('http node against a local server through the allowlisted guard', () => {
  it('templated URL, headers and JSON body; JSON responses are parsed', async () => {
    const res = await execHttp({
      method: 'POST',
      url: `${base}/{{prev.output.path}}/{{inputs.id}}?q={{inputs.q}}`,
      headers: [{ key: 'X-Tag', value: '{{prev.output.tags[1]}}' }],
      bodyType: 'json',
      body: '{"id": "{{inputs.id}}", "tags": "{{prev.output.tags}}", "text": "{{inputs.q}}"}',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('POST');
    expect(seen[0].url).toBe('/items/42?q=hello%20world');
    expect(seen[0].headers['x-tag']).toBe('b');
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0].body)).toEqual({ id: 42, tags: ['a', 'b'], text: 'hello world' });
    expect(res.output).toMatchObject({ status: 200, ok: true, body: { method: 'POST', path: '/items/42' } });
    expect((res.output as any).headers['content-type']).toBe('application/json');
  });

  it('a templated value cannot break out of its JSON string (no JSON injection)', async () => {
    await execHttp({
      method: 'POST',
      url: `${base}/echo`,
      bodyType: 'json',
      body: '{"note": "{{inputs.quote}}", "admin": false}',
    });
    expect(JSON.parse(seen[0].body)).toEqual({ note: 'say "hi", then {leave}', admin: false });
    seen.length = 0;
    const evil = { ...scope, inputs: { ...scope.inputs, quote: 'x", "admin": true, "y": "' } };
    const raw = httpConfigSchema.parse({
      method: 'POST',
      url: `${base}/echo`,
      bodyType: 'json',
      body: '{"note": "{{inputs.quote}}", "admin": false}',
    });
    await httpNode.execute({
      runId: 'r',
      nodeId: 'h',
      nodeType: 'http',
      attempt: 1,
      idempotencyKey: 'r:h:1',
      config: { ...raw, ...resolveDeep({ ...raw, body: undefined }, evil), body: raw.body },
      rawConfig: raw,
      scope: evil,
      signal: new AbortController().signal,
      spanId: 's',
      emit: () => {},
      fetch: createGuardedFetch({ allowlist: [`127.0.0.1:${port}`] }),
      secrets: { get: () => undefined },
      llm: createLlmResolver({}),
      iteration: 0,
    } as any);
    expect(JSON.parse(seen[0].body)).toEqual({ note: 'x", "admin": true, "y": "', admin: false });
  });

  it('a text body is interpolated as text; GET sends no body and no idempotency key', async () => {
    await execHttp({
      method: 'PUT',
      url: `${base}/t`,
      bodyType: 'text',
      body: 'id={{inputs.id}} tags={{prev.output.tags}}',
    });
    expect(seen[0].body).toBe('id=42 tags=["a","b"]');
    expect(seen[0].headers['content-type']).toMatch(/^text\/plain/);
    const res = await execHttp({ method: 'GET', url: `${base}/text`, bodyType: 'json', body: '{"ignored": true}' });
    expect(seen[1].body).toBe('');
    expect(seen[1].headers['idempotency-key']).toBeUndefined();
    expect(res.output).toMatchObject({ status: 200, body: 'plain words' });
  });

  it("sends the context's Idempotency-Key on writes, keeping one the user set", async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) await execHttp({ method, url: `${base}/w` });
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual([
      'run_t:h1:1',
      'run_t:h1:1',
      'run_t:h1:1',
      'run_t:h1:1',
    ]);
    await execHttp({
      method: 'POST',
      url: `${base}/w`,
      headers: [{ key: 'Idempotency-Key', value: 'mine-{{inputs.id}}' }],
    });
    expect(seen[4].headers['idempotency-key']).toBe('mine-42');
  });

  it('non-2xx fails with HTTP_STATUS (5xx/429 retryable, 4xx not) unless continueOnError', async () => {
    const e404 = await failure(execHttp({ url: `${base}/status/404` }));
    expect(e404.code).toBe('HTTP_STATUS');
    expect(e404.retryable).toBe(false);
    expect(e404.message).toContain('404');
    expect((await failure(execHttp({ url: `${base}/status/503` }))).retryable).toBe(true);
    expect((await failure(execHttp({ url: `${base}/status/429` }))).retryable).toBe(true);
    const ok = await execHttp({ url: `${base}/status/500`, continueOnError: true });
    expect(ok.output).toMatchObject({ status: 500, ok: false, body: { error: 'as requested' } });
  });

  it('an invalid JSON body is refused before anything is sent', async () => {
    expect(
      (await failure(execHttp({ method: 'POST', url: `${base}/x`, bodyType: 'json', body: '{"a": {{inputs.q}}}' })))
        .code,
    ).toBe('INVALID_JSON_BODY');
    expect(
      (await failure(execHttp({ method: 'POST', url: `${base}/x`, bodyType: 'json', body: 'not json' }))).code,
    ).toBe('INVALID_JSON_BODY');
    expect(seen).toHaveLength(0);
  });

  it('an unquoted ref in a JSON body still works when the result is valid JSON', async () => {
    await execHttp({ method: 'POST', url: `${base}/x`, bodyType: 'json', body: '{"id": {{inputs.id}}}' });
    expect(JSON.parse(seen[0].body)).toEqual({ id: 42 });
  });

  it('the SSRF guard refuses the metadata service, non-allowlisted local ports and redirects inward', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      `http://127.0.0.1:${port + 1 === 65536 ? 1 : port + 1}/`,
      'http://localhost:9/',
      'file:///etc/passwd',
    ]) {
      expect((await failure(execHttp({ url }))).code, url).toBe('SSRF_BLOCKED');
    }
    const viaRedirect = await failure(
      execHttp({ url: `${base}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}` }),
    );
    expect(viaRedirect.code).toBe('SSRF_BLOCKED');
    // Without an allowlist, the local server itself is refused.
    expect((await failure(execHttp({ url: `${base}/x` }, { fetch: createGuardedFetch() }))).code).toBe('SSRF_BLOCKED');
    expect(seen.map((s) => s.url)).toEqual([
      `/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
    ]);
  });

  it('a request slower than timeoutMs fails, and aborting the run aborts the request', async () => {
    const t = await failure(execHttp({ url: `${base}/slow`, timeoutMs: 200 }));
    expect(t.code).toBe('HTTP_TIMEOUT');
    expect(t.retryable).toBe(true);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    await expect(execHttp({ url: `${base}/slow` }, { signal: ac.signal })).rejects.toBeDefined();
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('http node in real runs', () => {
  let h: Harness;
  let runs: RunManager;
  beforeAll(async () => {
    h = await createHarness('pglite');
    // Same store and bus as the harness, with the test server allowlisted (the harness's own fetch has no allowlist).
    runs = new RunManager({
      store: h.store,
      workflows: h.store,
      bus: h.bus,
      registry: createDefaultRegistry(),
      services: {
        llm: createLlmResolver({}),
        fetch: createGuardedFetch({ allowlist: [`127.0.0.1:${port}`] }),
        secrets: { get: () => undefined },
      },
    });
  });
  afterAll(async () => {
    await runs?.close();
    await h?.close();
  });

  const graph = (url: string, extra: Record<string, unknown> = {}, retry?: object): Graph => ({
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'token', type: 'string' }] } },
      },
      {
        id: 'call',
        type: 'http',
        position: { x: 0, y: 0 },
        data: {
          ...(retry ? { retry } : {}),
          config: {
            method: 'POST',
            url,
            bodyType: 'json',
            body: '{"hello": "world"}',
            headers: [
              { key: 'Authorization', value: 'Bearer {{inputs.token}}' },
              { key: 'X-Api-Key', value: 'literal-key-999' },
              { key: 'X-Trace', value: 'trace-1' },
            ],
            ...extra,
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 0, y: 0 },
        data: { config: { outputs: [{ name: 'status', value: '{{call.output.status}}' }] } },
      },
    ],
    edges: [
      { id: 'a', source: 'start', target: 'call' },
      { id: 'b', source: 'call', target: 'end' },
    ],
  });

  async function run(manager: RunManager, g: Graph, inputs: Record<string, unknown>) {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(g)))!;
    const { run: r } = await manager.start({ workflow: wf, inputs });
    await manager.waitFor(r.id);
    return (await h.store.getRun(r.id))!;
  }

  function expectRedacted(value: unknown) {
    const text = JSON.stringify(value);
    expect(text).not.toContain('s3cr3t-token-abc');
    expect(text).not.toContain('literal-key-999');
  }

  it('sends the real Authorization header but stores and traces only a redacted input', async () => {
    const r = await run(runs, graph(`${base}/hook`), { token: 's3cr3t-token-abc' });
    expect(r.status, JSON.stringify(r.error)).toBe('succeeded');
    expect(seen).toHaveLength(1);
    expect(seen[0].headers.authorization).toBe('Bearer s3cr3t-token-abc');
    expect(seen[0].headers['x-api-key']).toBe('literal-key-999');
    expect(seen[0].headers['idempotency-key']).toBe(`${r.id}:call`);

    const node = (await h.store.getNodeRuns(r.id)).find((n) => n.nodeId === 'call')!;
    expect(node.status).toBe('succeeded');
    const headers = (node.input as any).headers as Array<{ key: string; value: string }>;
    expect(headers.find((x) => x.key === 'Authorization')!.value).toBe('[redacted]');
    expect(headers.find((x) => x.key === 'X-Api-Key')!.value).toBe('[redacted]');
    expect(headers.find((x) => x.key === 'X-Trace')!.value).toBe('trace-1'); // only secrets are hidden
    expectRedacted(node.input);
    expectRedacted(node.output);
    const events = (await h.events(r.id)).filter((e) => e.nodeId === 'call');
    expect(events.length).toBeGreaterThan(0);
    expectRedacted(events);
  });

  it('retries a 503 with the same Idempotency-Key (the operation, not the attempt)', async () => {
    flaky = [503];
    const r = await run(runs, graph(`${base}/flaky`, {}, { maxAttempts: 3, backoffMs: 10 }), {
      token: 's3cr3t-token-abc',
    });
    expect(r.status).toBe('succeeded');
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual([`${r.id}:call`, `${r.id}:call`]);
    const node = (await h.store.getNodeRuns(r.id)).find((n) => n.nodeId === 'call')!;
    expect(node.attempt).toBe(2);
  });

  it('a non-2xx answer fails the run with HTTP_STATUS; continueOnError lets it through', async () => {
    const failed = await run(runs, graph(`${base}/status/404`), { token: 's3cr3t-token-abc' });
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('HTTP_STATUS');
    const node = (await h.store.getNodeRuns(failed.id)).find((n) => n.nodeId === 'call')!;
    expect(node.error?.code).toBe('HTTP_STATUS');
    expectRedacted(node);

    const passed = await run(runs, graph(`${base}/status/404`, { continueOnError: true }), {
      token: 's3cr3t-token-abc',
    });
    expect(passed.status).toBe('succeeded');
    expect(passed.outputs).toEqual({ status: 404 });
  });

  it(
    'through the harness (no allowlist): the metadata address is ' +
      'refused with SSRF_BLOCKED and the secret is still not stored',
    async () => {
      const r = await run(h.runs, graph('http://169.254.169.254/latest/meta-data/iam/security-credentials/'), {
        token: 's3cr3t-token-abc',
      });
      expect(r.status).toBe('failed');
      expect(r.error?.code).toBe('SSRF_BLOCKED');
      const node = (await h.store.getNodeRuns(r.id)).find((n) => n.nodeId === 'call')!;
      expect(node.status).toBe('failed');
      expect(node.error?.code).toBe('SSRF_BLOCKED');
      expectRedacted(node);
      expectRedacted((await h.events(r.id)).filter((e) => e.nodeId === 'call'));
      expect(seen).toHaveLength(0);
    },
  );
});
