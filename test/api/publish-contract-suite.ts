/**
 * The publish + published-endpoint contract (issue 7), shared by the embedded-store and PostgreSQL test files:
 * publishing snapshots immutable versions under a stable slug; API keys are shown once, stored hashed, scoped to one
 * workflow and revocable at once; the v1 endpoint runs the published version in sync / stream / async mode with
 * idempotency; a run of version 1 resumes on version 1 after version 2 is published; the OpenAPI document validates.
 * The caller points the environment at its database first.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE as revokeKey } from '@/app/api/api-keys/[id]/route';
import { POST as resumeRun } from '@/app/api/runs/[runId]/resume/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as v1RunEvents } from '@/app/api/v1/runs/[runId]/events/route';
import { GET as v1GetRun, OPTIONS as v1RunOptions } from '@/app/api/v1/runs/[runId]/route';
import { GET as openapi } from '@/app/api/v1/workflows/[slug]/openapi.json/route';
import { OPTIONS as runOptions, POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { GET as listKeys, POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { DELETE as unpublish, GET as publishStatus, POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as rollback } from '@/app/api/workflows/[id]/versions/[version]/rollback/route';
import { GET as getVersion } from '@/app/api/workflows/[id]/versions/[version]/route';
import { GET as listVersions } from '@/app/api/workflows/[id]/versions/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, waitForRun } from './api-helpers';

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export interface SseFrame {
  id: number;
  event: string;
  data: any;
}

/** Reads an SSE Response to its end (bounded), parsing `id:`/`event:`/`data:` frames. */
export async function readSse(res: Response, timeoutMs = 20_000): Promise<{ frames: SseFrame[]; closed: boolean }> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let raw = '';
  let closed = false;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((ok) => {
        timer = setTimeout(() => ok('timeout'), deadline - Date.now());
      }),
    ]);
    clearTimeout(timer);
    if (r === 'timeout') break;
    if (r.done) {
      closed = true;
      break;
    }
    raw += dec.decode(r.value, { stream: true });
  }
  if (!closed) await reader.cancel().catch(() => {});
  const frames = raw
    .split('\n\n')
    .map((block) => block.split('\n'))
    .flatMap((lines) => {
      const get = (k: string) =>
        lines
          .find((l) => l.startsWith(`${k}:`))
          ?.slice(k.length + 1)
          .trim();
      const id = get('id');
      return id
        ? [
            {
              id: Number(id),
              event: get('event')!,
              data: JSON.parse(
                lines
                  .filter((l) => l.startsWith('data:'))
                  .map((l) => l.slice(5))
                  .join('\n'),
              ),
            },
          ]
        : [];
    });
  return { frames, closed };
}

export function expectContiguousToTerminal(frames: SseFrame[], runId: string) {
  expect(frames.length).toBeGreaterThan(2);
  expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
  for (const f of frames) expect(f.data).toMatchObject({ seq: f.id, runId, type: f.event });
  expect(frames[0].event).toBe('run.started');
  expect(['run.succeeded', 'run.failed', 'run.cancelled', 'run.interrupted']).toContain(frames.at(-1)!.event);
}

/** The graph with a described input, so the OpenAPI document has something to carry. */
function greeterGraph(template: string) {
  const g = simpleGraph(template);
  g.nodes[0].data.config = {
    inputs: [
      { name: 'message', type: 'string', required: true, description: 'Who to greet' },
      { name: 'times', type: 'number', required: false },
    ],
  } as any;
  return g;
}

export function publishContractSuite(kind: 'pglite' | 'postgres', onClose?: () => Promise<void>) {
  // Receives completion callbacks; allowlisted for the SSRF guard before the app starts.
  let hook: Server;
  let hookPort: number;
  const callbacks: Array<{ headers: Record<string, unknown>; body: any }> = [];

  let wfA: string;
  let wfB: string;
  let slugA: string;
  let keyA: string;
  let keyAId: string;
  let keyB: string;

  const run = (slug: string, body: unknown, headers: Record<string, string> = {}) =>
    call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, { params: { slug }, body, headers });
  const v1Get = (runId: string, key: string) =>
    call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, { params: { runId }, headers: bearer(key) });

  beforeAll(async () => {
    hook = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => {
        callbacks.push({ headers: req.headers, body: JSON.parse(text) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookPort = (hook.address() as AddressInfo).port;
    process.env.HTTP_ALLOWLIST = `127.0.0.1:${hookPort}`;
    await getApp();

    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Support Greeter!', graph: greeterGraph('Hello {{inputs.message}}') },
    });
    const b = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Other', graph: simpleGraph('Other {{inputs.message}}') },
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    wfA = a.body.id;
    wfB = b.body.id;
  });

  afterAll(async () => {
    await (await getApp()).close();
    hook.closeAllConnections();
    await new Promise<void>((r) => hook.close(() => r()));
    await onClose?.();
  });

  describe('publishing', () => {
    it('snapshots the draft as version 1 under a slug derived from the name', async () => {
      const p = await call(publish, 'POST', `/api/workflows/${wfA}/publish`, { params: { id: wfA } });
      expect(p.status, p.text).toBe(201);
      expect(p.body).toMatchObject({
        version: 1,
        slug: 'support-greeter',
        published: true,
        versionId: expect.stringMatching(/^ver_/),
      });
      expect(p.body.endpoint).toBe('http://localhost/api/v1/workflows/support-greeter/run');
      slugA = p.body.slug;
      const s = await call(publishStatus, 'GET', `/api/workflows/${wfA}/publish`, { params: { id: wfA } });
      expect(s.body).toMatchObject({ published: true, version: 1, slug: slugA });
    });

    it('refuses an invalid draft with 422, the problem code and its path; nothing is published', async () => {
      const bad = simpleGraph('Hello {{nowhere.output.text}}');
      const c = await call(createWf, 'POST', '/api/workflows?draft=1', { body: { name: 'Broken', graph: bad } });
      expect(c.status, c.text).toBe(201);
      const p = await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } });
      const err = expectError(p, 422, p.body?.error?.code);
      expect(err.code).toMatch(/^[A-Z_]+$/);
      expect(err.path).toMatch(/^graph\.nodes\[1\]/);
      const v = await call(listVersions, 'GET', `/api/workflows/${c.body.id}/versions`, { params: { id: c.body.id } });
      expect(v.body).toMatchObject({ published: false, slug: null, versions: [] });
    });

    it('takes an explicit slug once; it then never changes, and a taken or malformed slug is refused', async () => {
      const p = await call(publish, 'POST', `/api/workflows/${wfB}/publish`, {
        params: { id: wfB },
        body: { slug: 'other-flow' },
      });
      expect(p.status, p.text).toBe(201);
      expect(p.body.slug).toBe('other-flow');
      expectError(
        await call(publish, 'POST', `/api/workflows/${wfB}/publish`, {
          params: { id: wfB },
          body: { slug: 'renamed' },
        }),
        409,
        'SLUG_IMMUTABLE',
        'slug',
      );
      const c = await call(createWf, 'POST', '/api/workflows', {
        body: { name: 'Support Greeter', graph: simpleGraph() },
      });
      expectError(
        await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, {
          params: { id: c.body.id },
          body: { slug: 'other-flow' },
        }),
        409,
        'SLUG_TAKEN',
        'slug',
      );
      expectError(
        await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, {
          params: { id: c.body.id },
          body: { slug: 'Bad Slug' },
        }),
        400,
        'VALIDATION_ERROR',
        'slug',
      );
      // Same name as workflow A: the derived slug gets a suffix.
      const d = await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } });
      expect(d.body.slug).toBe('support-greeter-2');
      // Renaming does not move the endpoint.
      await call(putWf, 'PUT', `/api/workflows/${wfB}`, { params: { id: wfB }, body: { name: 'Renamed' } });
      expect(
        (await call(publish, 'POST', `/api/workflows/${wfB}/publish`, { params: { id: wfB } })).body,
      ).toMatchObject({ slug: 'other-flow', version: 2 });
    });
    it('concurrent publishes of one workflow get distinct consecutive versions (no 5xx)', async () => {
      const c = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Racer', graph: simpleGraph() } });
      const all = await Promise.all(
        Array.from({ length: 5 }, () =>
          call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } }),
        ),
      );
      expect(all.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
      expect(all.map((a) => a.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(new Set(all.map((a) => a.body.slug))).toEqual(new Set(['racer']));
    });
  });

  describe('API keys', () => {
    it('are shown once as pf_ + 32 random bytes and stored only as a sha256 hash', async () => {
      const k = await call(createKey, 'POST', `/api/workflows/${wfA}/api-keys`, {
        params: { id: wfA },
        body: { name: 'ci' },
      });
      expect(k.status, k.text).toBe(201);
      expect(k.body).toMatchObject({ id: expect.any(String), name: 'ci', createdAt: expect.any(String) });
      expect(k.body.key).toMatch(/^pf_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(k.body.key.slice(3), 'base64url')).toHaveLength(32);
      expect(k.body.prefix).toBe(k.body.key.slice(0, 10));
      keyA = k.body.key;
      keyAId = k.body.id;
      const kb = await call(createKey, 'POST', `/api/workflows/${wfB}/api-keys`, { params: { id: wfB } });
      keyB = kb.body.key;

      const rows = await (await getApp()).db.prisma.apiKey.findMany({ where: { id: keyAId } });
      expect(rows[0].hash).toBe(createHash('sha256').update(keyA).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(keyA.slice(3));

      const list = await call(listKeys, 'GET', `/api/workflows/${wfA}/api-keys`, { params: { id: wfA } });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        {
          id: keyAId,
          name: 'ci',
          prefix: keyA.slice(0, 10),
          createdAt: expect.any(String),
          lastUsedAt: null,
          revokedAt: null,
        },
      ]);
      expect(list.text).not.toContain(keyA.slice(10));
    });

    it('401 with a Bearer challenge without a key, with a wrong or malformed key, and with a revoked key', async () => {
      const none = await run(slugA, { inputs: { message: 'x' } });
      expectError(none, 401, 'UNAUTHORIZED');
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="paiflow"');
      for (const key of [`pf_${'A'.repeat(43)}`, 'pf_short', keyA.toUpperCase()]) {
        const wrong = await run(slugA, { inputs: { message: 'x' } }, bearer(key));
        expectError(wrong, 401, 'UNAUTHORIZED');
        expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      }
      expectError(
        await run(slugA, { inputs: { message: 'x' } }, { authorization: `Basic ${keyA}` }),
        401,
        'UNAUTHORIZED',
      );

      const temp = await call(createKey, 'POST', `/api/workflows/${wfA}/api-keys`, { params: { id: wfA } });
      expect((await run(slugA, { inputs: { message: 'x' } }, bearer(temp.body.key))).status).toBe(200);
      const r = await call(revokeKey, 'DELETE', `/api/api-keys/${temp.body.id}`, { params: { id: temp.body.id } });
      expect(r.status).toBe(200);
      expect(r.body.revokedAt).toEqual(expect.any(String));
      expectError(await run(slugA, { inputs: { message: 'x' } }, bearer(temp.body.key)), 401, 'UNAUTHORIZED');
      expectError(
        await call(revokeKey, 'DELETE', '/api/api-keys/key_nope', { params: { id: 'key_nope' } }),
        404,
        'API_KEY_NOT_FOUND',
      );
    });

    it("403 with another workflow's key; lastUsedAt records use", async () => {
      expectError(await run(slugA, { inputs: { message: 'x' } }, bearer(keyB)), 403, 'FORBIDDEN');
      expect((await run(slugA, { inputs: { message: 'x' } }, bearer(keyA))).status).toBe(200);
      const until = Date.now() + 5000;
      let used = null;
      while (!used && Date.now() < until) {
        const list = await call(listKeys, 'GET', `/api/workflows/${wfA}/api-keys`, { params: { id: wfA } });
        used = list.body.find((k: any) => k.id === keyAId).lastUsedAt;
        if (!used) await new Promise((ok) => setTimeout(ok, 20));
      }
      expect(used).toEqual(expect.any(String));
    });
  });

  describe('running the published version', () => {
    it('sync: 200 with the outputs; the run is readable with its own key only', async () => {
      const r = await run(slugA, { inputs: { message: 'world' } }, bearer(keyA));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({
        runId: expect.stringMatching(/^run_/),
        status: 'succeeded',
        version: 1,
        outputs: { text: 'Hello world' },
      });
      const runId = r.body.runId;
      const g = await v1Get(runId, keyA);
      expect(g.status).toBe(200);
      expect(g.body).toMatchObject({
        id: runId,
        workflowId: wfA,
        status: 'succeeded',
        outputs: { text: 'Hello world' },
      });
      expect(g.body.graph).toBeUndefined();
      const status = await call(publishStatus, 'GET', `/api/workflows/${wfA}/publish`, { params: { id: wfA } });
      expect(g.body.versionId).toBe(status.body.versionId);
      // Another workflow's key sees nothing, not even that the run exists.
      expectError(await v1Get(runId, keyB), 404, 'RUN_NOT_FOUND');
      expectError(await v1Get('run_doesnotexist', keyB), 404, 'RUN_NOT_FOUND');
      expectError(
        await call(v1RunEvents, 'GET', `/api/v1/runs/${runId}/events`, { params: { runId }, headers: bearer(keyB) }),
        404,
        'RUN_NOT_FOUND',
      );
      expectError(await call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, { params: { runId } }), 401, 'UNAUTHORIZED');
    });

    it('inputs are checked against the start node of the version: 400 with the path', async () => {
      expectError(await run(slugA, { inputs: {} }, bearer(keyA)), 400, 'MISSING_INPUT', 'inputs.message');
      expectError(await run(slugA, { inputs: { message: 3 } }, bearer(keyA)), 400, 'INVALID_INPUT', 'inputs.message');
      expectError(
        await run(slugA, { inputs: { message: 'x' }, mode: 'later' }, bearer(keyA)),
        400,
        'VALIDATION_ERROR',
        'mode',
      );
      expectError(
        await run(slugA, { inputs: { message: 'x' }, version: 99 }, bearer(keyA)),
        404,
        'VERSION_NOT_FOUND',
        'version',
      );
      expectError(await run('no-such-slug', { inputs: {} }, bearer(keyA)), 404, 'NOT_PUBLISHED');
    });

    it('stream: SSE with contiguous seq from 1, ending in the terminal event', async () => {
      const req = new Request(`http://localhost/api/v1/workflows/${slugA}/run`, {
        method: 'POST',
        headers: { ...bearer(keyA), 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: { message: 'stream' }, mode: 'stream' }),
      });
      const res = await v1Run(req, { params: Promise.resolve({ slug: slugA }) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const runId = res.headers.get('x-run-id')!;
      const { frames, closed } = await readSse(res);
      expect(closed).toBe(true);
      expectContiguousToTerminal(frames, runId);
      expect(frames.at(-1)).toMatchObject({
        event: 'run.succeeded',
        data: { data: { outputs: { text: 'Hello stream' } } },
      });
      // The same trace through the v1 events endpoint, from a cursor.
      const again = await v1RunEvents(
        new Request(`http://localhost/api/v1/runs/${runId}/events`, {
          headers: { ...bearer(keyA), 'last-event-id': '2' },
        }),
        { params: Promise.resolve({ runId }) },
      );
      const replay = await readSse(again);
      expect(replay.frames.map((f) => f.id)).toEqual(frames.slice(2).map((f) => f.id));
    });

    it('async: 202 with statusUrl, then polling reaches succeeded and the callback is POSTed', async () => {
      const r = await run(
        slugA,
        { inputs: { message: 'later' }, mode: 'async', callbackUrl: `http://127.0.0.1:${hookPort}/done` },
        bearer(keyA),
      );
      expect(r.status, r.text).toBe(202);
      expect(r.body).toMatchObject({
        runId: expect.any(String),
        statusUrl: `http://localhost/api/v1/runs/${r.body.runId}`,
      });
      expect(r.headers.get('location')).toBe(r.body.statusUrl);
      const until = Date.now() + 20_000;
      let g;
      do {
        g = await v1Get(r.body.runId, keyA);
        if (g.body.status === 'succeeded') break;
        await new Promise((ok) => setTimeout(ok, 50));
      } while (Date.now() < until);
      expect(g.body).toMatchObject({ status: 'succeeded', outputs: { text: 'Hello later' } });
      while (!callbacks.some((c) => c.body.runId === r.body.runId) && Date.now() < until)
        await new Promise((ok) => setTimeout(ok, 50));
      const cb = callbacks.find((c) => c.body.runId === r.body.runId)!;
      expect(cb.body).toMatchObject({ status: 'succeeded', outputs: { text: 'Hello later' }, slug: slugA, version: 1 });
      expect(cb.headers['x-paiflow-run-id']).toBe(r.body.runId);
    });

    it('a callbackUrl the SSRF guard refuses is a 400 at once, and no run starts', async () => {
      for (const url of ['http://127.0.0.1:1/x', 'http://169.254.169.254/latest', 'file:///etc/passwd']) {
        const r = await run(slugA, { inputs: { message: 'x' }, mode: 'async', callbackUrl: url }, bearer(keyA));
        expect(r.status, url).toBe(400);
        expect(r.body.error.path).toBe('callbackUrl');
      }
    });

    it('a repeated Idempotency-Key returns the same run (also when sent concurrently); other inputs → 409', async () => {
      const h = { ...bearer(keyA), 'idempotency-key': `order-${kind}-1` };
      const first = await run(slugA, { inputs: { message: 'once' } }, h);
      const again = await run(slugA, { inputs: { message: 'once' } }, h);
      expect(first.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const h2 = { ...bearer(keyA), 'idempotency-key': `order-${kind}-2` };
      const burst = await Promise.all(
        Array.from({ length: 5 }, () => run(slugA, { inputs: { message: 'burst' }, mode: 'async' }, h2)),
      );
      expect(new Set(burst.map((b) => b.body.runId)).size).toBe(1);
      expectError(await run(slugA, { inputs: { message: 'different' } }, h), 409, 'IDEMPOTENCY_KEY_REUSED');
      expectError(
        await run(slugA, { inputs: { message: 'x' } }, { ...bearer(keyA), 'idempotency-key': 'bad key with spaces' }),
        400,
        'INVALID_IDEMPOTENCY_KEY',
      );
    });
  });

  describe('versions', () => {
    let v1RunId: string;

    it('a run of version 1 resumes on version 1 after the draft is edited and version 2 published', async () => {
      const r = await run(slugA, { inputs: { message: 'v1' } }, bearer(keyA));
      expect(r.body).toMatchObject({ status: 'succeeded', version: 1, outputs: { text: 'Hello v1' } });
      v1RunId = r.body.runId;

      const put = await call(putWf, 'PUT', `/api/workflows/${wfA}`, {
        params: { id: wfA },
        body: { graph: greeterGraph('Bonjour {{inputs.message}}') },
      });
      expect(put.status, put.text).toBe(200);
      const p2 = await call(publish, 'POST', `/api/workflows/${wfA}/publish`, { params: { id: wfA } });
      expect(p2.body).toMatchObject({ version: 2, slug: slugA });
      expect((await run(slugA, { inputs: { message: 'v2' } }, bearer(keyA))).body).toMatchObject({
        version: 2,
        outputs: { text: 'Bonjour v2' },
      });

      const res = await call(resumeRun, 'POST', `/api/runs/${v1RunId}/resume`, {
        params: { runId: v1RunId },
        body: { fromNodeId: 't1' },
      });
      expect(res.status, res.text).toBe(202);
      const done = await waitForRun(getRun, v1RunId);
      expect(done).toMatchObject({ status: 'succeeded', outputs: { text: 'Hello v1' } });
      expect(done.nodes.find((n: any) => n.nodeId === 't1').attempt).toBeGreaterThanOrEqual(1);
    });

    it('`version` in the body runs an older version', async () => {
      expect((await run(slugA, { inputs: { message: 'old' }, version: 1 }, bearer(keyA))).body).toMatchObject({
        version: 1,
        outputs: { text: 'Hello old' },
      });
    });

    it('lists versions newest first with what the draft changed since each', async () => {
      await call(putWf, 'PUT', `/api/workflows/${wfA}`, {
        params: { id: wfA },
        body: {
          graph: (() => {
            const g = greeterGraph('Bonjour {{inputs.message}}');
            g.nodes[1].position = { x: 999, y: 999 }; // layout only: not a change
            g.nodes.push({
              id: 'extra',
              type: 'template',
              position: { x: 0, y: 300 },
              data: { config: { template: 'x', format: 'text' } },
            } as any);
            g.edges.push({ id: 'e3', source: 'start', target: 'extra' });
            return g;
          })(),
        },
      });
      const l = await call(listVersions, 'GET', `/api/workflows/${wfA}/versions`, { params: { id: wfA } });
      expect(l.status).toBe(200);
      expect(l.body).toMatchObject({ slug: slugA, published: true, version: 2 });
      expect(l.body.versions.map((v: any) => [v.version, v.current])).toEqual([
        [2, true],
        [1, false],
      ]);
      expect(l.body.versions[0].draftChanges).toMatchObject({
        added: ['extra'],
        removed: [],
        changed: [],
        edgesAdded: 1,
        edgesRemoved: 0,
        same: false,
      });
      expect(l.body.versions[1].draftChanges).toMatchObject({ added: ['extra'], removed: [], changed: ['t1'] });
      const one = await call(getVersion, 'GET', `/api/workflows/${wfA}/versions/1`, {
        params: { id: wfA, version: '1' },
      });
      expect(one.body).toMatchObject({ version: 1, current: false, graph: { nodes: expect.any(Array) } });
      expect(one.body.graph.nodes[1].data.config.template).toBe('Hello {{inputs.message}}');
      expectError(
        await call(getVersion, 'GET', `/api/workflows/${wfA}/versions/7`, { params: { id: wfA, version: '7' } }),
        404,
        'VERSION_NOT_FOUND',
      );
    });

    it('rollback makes an earlier version current', async () => {
      const rb = await call(rollback, 'POST', `/api/workflows/${wfA}/versions/1/rollback`, {
        params: { id: wfA, version: '1' },
      });
      expect(rb.status, rb.text).toBe(200);
      expect(rb.body).toMatchObject({ version: 1, published: true, slug: slugA });
      expect((await run(slugA, { inputs: { message: 'back' } }, bearer(keyA))).body).toMatchObject({
        version: 1,
        outputs: { text: 'Hello back' },
      });
    });

    it('unpublish: the endpoint 404s, versions and keys are kept, rollback republishes at the same slug', async () => {
      const u = await call(unpublish, 'DELETE', `/api/workflows/${wfA}/publish`, { params: { id: wfA } });
      expect(u.body).toMatchObject({ published: false, slug: slugA });
      expectError(await run(slugA, { inputs: { message: 'x' } }, bearer(keyA)), 404, 'NOT_PUBLISHED');
      expectError(
        await call(openapi, 'GET', `/api/v1/workflows/${slugA}/openapi.json`, { params: { slug: slugA } }),
        404,
        'NOT_PUBLISHED',
      );
      expect(
        (await call(listVersions, 'GET', `/api/workflows/${wfA}/versions`, { params: { id: wfA } })).body.versions,
      ).toHaveLength(2);
      // Runs of the workflow stay readable.
      expect((await v1Get(v1RunId, keyA)).status).toBe(200);
      await call(rollback, 'POST', `/api/workflows/${wfA}/versions/2/rollback`, { params: { id: wfA, version: '2' } });
      expect((await run(slugA, { inputs: { message: 'again' } }, bearer(keyA))).body).toMatchObject({
        version: 2,
        outputs: { text: 'Bonjour again' },
      });
    });
  });

  describe('OpenAPI document', () => {
    it('is valid OpenAPI 3.1 with the start node inputs, response schemas and bearer security', async () => {
      const a = await call(openapi, 'GET', `/api/v1/workflows/${slugA}/openapi.json`, { params: { slug: slugA } });
      expect(a.status, a.text).toBe(200);
      const validator = new Validator();
      const res = await validator.validate(a.body);
      expect(res.errors ?? [], JSON.stringify(res.errors)).toEqual([]);
      expect(res.valid).toBe(true);
      expect(validator.version).toBe('3.1');
      const doc = a.body;
      expect(doc.info).toMatchObject({ title: 'Support Greeter!', version: '2' });
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
      const op = doc.paths[`/api/v1/workflows/${slugA}/run`].post;
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '403', '429']));
      expect(doc.components.schemas.Inputs).toEqual({
        type: 'object',
        required: ['message'],
        description: expect.any(String),
        properties: { message: { type: 'string', description: 'Who to greet' }, times: { type: 'number' } },
      });
      expect(doc.components.schemas.Outputs.properties).toEqual({ text: {} });
      // The OpenAI-compatible endpoint is described too, with this workflow's slug as the only model.
      expect(doc.paths['/api/v1/chat/completions'].post.operationId).toBe('chatCompletions');
      expect(doc.components.schemas.ChatRequest.properties.model).toEqual({ type: 'string', const: slugA });
      // Nothing inside the workflow leaks: no template text.
      expect(a.text).not.toContain('{{');

      // The request schema accepts what the server accepts and rejects what it rejects.
      const ajv = new Ajv2020({ strict: false });
      const inputs = ajv.compile(doc.components.schemas.Inputs);
      expect(inputs({ message: 'hi', times: 2 })).toBe(true);
      expect(inputs({ times: 2 })).toBe(false);
      expect(inputs({ message: 3 })).toBe(false);

      const v1 = await call(openapi, 'GET', `/api/v1/workflows/${slugA}/openapi.json?version=1`, {
        params: { slug: slugA },
      });
      expect(v1.body.info.version).toBe('1');
    });
  });

  describe('CORS', () => {
    it('answers the preflight and marks every answer, errors included', async () => {
      for (const [h, path] of [
        [runOptions, `/api/v1/workflows/${slugA}/run`],
        [v1RunOptions, '/api/v1/runs/run_x'],
      ] as const) {
        const res = await h(
          new Request(`http://localhost${path}`, {
            method: 'OPTIONS',
            headers: {
              origin: 'https://app.example',
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'authorization, content-type',
            },
          }),
        );
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/);
        expect(res.headers.get('access-control-allow-headers')).toMatch(/idempotency-key/);
      }
      const denied = await run(slugA, { inputs: {} });
      expect(denied.headers.get('access-control-allow-origin')).toBe('*');
      expect(denied.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/);
    });
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
}
