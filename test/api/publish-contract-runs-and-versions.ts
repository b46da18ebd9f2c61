/**
 * The publish contract, part 2: running the published version (sync / stream / async with a callback, input checks,
 * idempotency) and versions (a run resumes on its own version, older versions run on request, rollback, unpublish).
 */
import { describe, expect, it } from 'vitest';
import { POST as resumeRun } from '@/app/api/runs/[runId]/resume/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as v1RunEvents } from '@/app/api/v1/runs/[runId]/events/route';
import { GET as v1GetRun } from '@/app/api/v1/runs/[runId]/route';
import { GET as openapi } from '@/app/api/v1/workflows/[slug]/openapi.json/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { DELETE as unpublish, GET as publishStatus, POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as rollback } from '@/app/api/workflows/[id]/versions/[version]/rollback/route';
import { GET as getVersion } from '@/app/api/workflows/[id]/versions/[version]/route';
import { GET as listVersions } from '@/app/api/workflows/[id]/versions/route';
import { call, expectError, waitForRun } from './api-helpers';
import { greeterGraph, type PublishContract } from './publish-contract-context';
import { bearer, expectContiguousToTerminal, readSse } from './v1-endpoint-helpers';

export function runsAndVersionsContract(ctx: PublishContract) {
  describe('running the published version', () => {
    it('sync: 200 with the outputs; the run is readable with its own key only', async () => {
      const r = await ctx.run(ctx.slugA, { inputs: { message: 'world' } }, bearer(ctx.keyA));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({
        runId: expect.stringMatching(/^run_/),
        status: 'succeeded',
        version: 1,
        outputs: { text: 'Hello world' },
      });
      const runId = r.body.runId;
      const g = await ctx.v1Get(runId, ctx.keyA);
      expect(g.status).toBe(200);
      expect(g.body).toMatchObject({
        id: runId,
        workflowId: ctx.wfA,
        status: 'succeeded',
        outputs: { text: 'Hello world' },
      });
      expect(g.body.graph).toBeUndefined();
      const status = await call(publishStatus, 'GET', `/api/workflows/${ctx.wfA}/publish`, { params: { id: ctx.wfA } });
      expect(g.body.versionId).toBe(status.body.versionId);
      // Another workflow's key sees nothing, not even that the run exists.
      expectError(await ctx.v1Get(runId, ctx.keyB), 404, 'RUN_NOT_FOUND');
      expectError(await ctx.v1Get('run_doesnotexist', ctx.keyB), 404, 'RUN_NOT_FOUND');
      expectError(
        await call(v1RunEvents, 'GET', `/api/v1/runs/${runId}/events`, {
          params: { runId },
          headers: bearer(ctx.keyB),
        }),
        404,
        'RUN_NOT_FOUND',
      );
      expectError(await call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, { params: { runId } }), 401, 'UNAUTHORIZED');
    });

    it('inputs are checked against the start node of the version: 400 with the path', async () => {
      expectError(await ctx.run(ctx.slugA, { inputs: {} }, bearer(ctx.keyA)), 400, 'MISSING_INPUT', 'inputs.message');
      expectError(
        await ctx.run(ctx.slugA, { inputs: { message: 3 } }, bearer(ctx.keyA)),
        400,
        'INVALID_INPUT',
        'inputs.message',
      );
      expectError(
        await ctx.run(ctx.slugA, { inputs: { message: 'x' }, mode: 'later' }, bearer(ctx.keyA)),
        400,
        'VALIDATION_ERROR',
        'mode',
      );
      expectError(
        await ctx.run(ctx.slugA, { inputs: { message: 'x' }, version: 99 }, bearer(ctx.keyA)),
        404,
        'VERSION_NOT_FOUND',
        'version',
      );
      expectError(await ctx.run('no-such-slug', { inputs: {} }, bearer(ctx.keyA)), 404, 'NOT_PUBLISHED');
    });

    it('stream: SSE with contiguous seq from 1, ending in the terminal event', async () => {
      const req = new Request(`http://localhost/api/v1/workflows/${ctx.slugA}/run`, {
        method: 'POST',
        headers: { ...bearer(ctx.keyA), 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: { message: 'stream' }, mode: 'stream' }),
      });
      const res = await v1Run(req, { params: Promise.resolve({ slug: ctx.slugA }) });
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
          headers: { ...bearer(ctx.keyA), 'last-event-id': '2' },
        }),
        { params: Promise.resolve({ runId }) },
      );
      const replay = await readSse(again);
      expect(replay.frames.map((f) => f.id)).toEqual(frames.slice(2).map((f) => f.id));
    });

    it('async: 202 with statusUrl, then polling reaches succeeded and the callback is POSTed', async () => {
      const r = await ctx.run(
        ctx.slugA,
        { inputs: { message: 'later' }, mode: 'async', callbackUrl: `http://127.0.0.1:${ctx.hookPort}/done` },
        bearer(ctx.keyA),
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
        g = await ctx.v1Get(r.body.runId, ctx.keyA);
        if (g.body.status === 'succeeded') break;
        await new Promise((ok) => setTimeout(ok, 50));
      } while (Date.now() < until);
      expect(g.body).toMatchObject({ status: 'succeeded', outputs: { text: 'Hello later' } });
      while (!ctx.callbacks.some((c) => c.body.runId === r.body.runId) && Date.now() < until)
        await new Promise((ok) => setTimeout(ok, 50));
      const cb = ctx.callbacks.find((c) => c.body.runId === r.body.runId)!;
      expect(cb.body).toMatchObject({
        status: 'succeeded',
        outputs: { text: 'Hello later' },
        slug: ctx.slugA,
        version: 1,
      });
      expect(cb.headers['x-paiflow-run-id']).toBe(r.body.runId);
    });

    it('a callbackUrl the SSRF guard refuses is a 400 SSRF_BLOCKED at once, and no run starts', async () => {
      for (const url of ['http://127.0.0.1:1/x', 'http://169.254.169.254/latest', 'file:///etc/passwd']) {
        const r = await ctx.run(
          ctx.slugA,
          { inputs: { message: 'x' }, mode: 'async', callbackUrl: url },
          bearer(ctx.keyA),
        );
        expect(r.status, url).toBe(400);
        expect(r.body.error.path).toBe('callbackUrl');
        expect(r.body.error.code, url).toBe('SSRF_BLOCKED');
      }
      // An internal address says which entry would allow it.
      const internal = await ctx.run(
        ctx.slugA,
        { inputs: { message: 'x' }, mode: 'async', callbackUrl: 'http://127.0.0.1:1/x' },
        bearer(ctx.keyA),
      );
      expect(internal.body.error.message).toContain('HTTP_ALLOWLIST=127.0.0.1:1;');
    });

    it(
      'a repeated Idempotency-Key returns the same run (also when sent concurrently); ' + 'other inputs → 409',
      async () => {
        const h = { ...bearer(ctx.keyA), 'idempotency-key': `order-${ctx.kind}-1` };
        const first = await ctx.run(ctx.slugA, { inputs: { message: 'once' } }, h);
        const again = await ctx.run(ctx.slugA, { inputs: { message: 'once' } }, h);
        expect(first.status).toBe(200);
        expect(again.body).toEqual(first.body);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        const h2 = { ...bearer(ctx.keyA), 'idempotency-key': `order-${ctx.kind}-2` };
        const burst = await Promise.all(
          Array.from({ length: 5 }, () => ctx.run(ctx.slugA, { inputs: { message: 'burst' }, mode: 'async' }, h2)),
        );
        expect(new Set(burst.map((b) => b.body.runId)).size).toBe(1);
        expectError(await ctx.run(ctx.slugA, { inputs: { message: 'different' } }, h), 409, 'IDEMPOTENCY_KEY_REUSED');
        expectError(
          await ctx.run(
            ctx.slugA,
            { inputs: { message: 'x' } },
            { ...bearer(ctx.keyA), 'idempotency-key': 'bad key with spaces' },
          ),
          400,
          'INVALID_IDEMPOTENCY_KEY',
        );
      },
    );
  });

  describe('versions', () => {
    let v1RunId: string;

    it('a run of version 1 resumes on version 1 after the draft is edited and version 2 published', async () => {
      const r = await ctx.run(ctx.slugA, { inputs: { message: 'v1' } }, bearer(ctx.keyA));
      expect(r.body).toMatchObject({ status: 'succeeded', version: 1, outputs: { text: 'Hello v1' } });
      v1RunId = r.body.runId;

      const put = await call(putWf, 'PUT', `/api/workflows/${ctx.wfA}`, {
        params: { id: ctx.wfA },
        body: { graph: greeterGraph('Bonjour {{inputs.message}}') },
      });
      expect(put.status, put.text).toBe(200);
      const p2 = await call(publish, 'POST', `/api/workflows/${ctx.wfA}/publish`, { params: { id: ctx.wfA } });
      expect(p2.body).toMatchObject({ version: 2, slug: ctx.slugA });
      expect((await ctx.run(ctx.slugA, { inputs: { message: 'v2' } }, bearer(ctx.keyA))).body).toMatchObject({
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
      expect(
        (await ctx.run(ctx.slugA, { inputs: { message: 'old' }, version: 1 }, bearer(ctx.keyA))).body,
      ).toMatchObject({
        version: 1,
        outputs: { text: 'Hello old' },
      });
    });

    it('lists versions newest first with what the draft changed since each', async () => {
      await call(putWf, 'PUT', `/api/workflows/${ctx.wfA}`, {
        params: { id: ctx.wfA },
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
      const l = await call(listVersions, 'GET', `/api/workflows/${ctx.wfA}/versions`, { params: { id: ctx.wfA } });
      expect(l.status).toBe(200);
      expect(l.body).toMatchObject({ slug: ctx.slugA, published: true, version: 2 });
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
      const one = await call(getVersion, 'GET', `/api/workflows/${ctx.wfA}/versions/1`, {
        params: { id: ctx.wfA, version: '1' },
      });
      expect(one.body).toMatchObject({ version: 1, current: false, graph: { nodes: expect.any(Array) } });
      expect(one.body.graph.nodes[1].data.config.template).toBe('Hello {{inputs.message}}');
      expectError(
        await call(getVersion, 'GET', `/api/workflows/${ctx.wfA}/versions/7`, {
          params: { id: ctx.wfA, version: '7' },
        }),
        404,
        'VERSION_NOT_FOUND',
      );
    });

    it('rollback makes an earlier version current', async () => {
      const rb = await call(rollback, 'POST', `/api/workflows/${ctx.wfA}/versions/1/rollback`, {
        params: { id: ctx.wfA, version: '1' },
      });
      expect(rb.status, rb.text).toBe(200);
      expect(rb.body).toMatchObject({ version: 1, published: true, slug: ctx.slugA });
      expect((await ctx.run(ctx.slugA, { inputs: { message: 'back' } }, bearer(ctx.keyA))).body).toMatchObject({
        version: 1,
        outputs: { text: 'Hello back' },
      });
    });

    it('unpublish: the endpoint 404s, versions and keys are kept, rollback republishes at the same slug', async () => {
      const u = await call(unpublish, 'DELETE', `/api/workflows/${ctx.wfA}/publish`, { params: { id: ctx.wfA } });
      expect(u.body).toMatchObject({ published: false, slug: ctx.slugA });
      expectError(await ctx.run(ctx.slugA, { inputs: { message: 'x' } }, bearer(ctx.keyA)), 404, 'NOT_PUBLISHED');
      expectError(
        await call(openapi, 'GET', `/api/v1/workflows/${ctx.slugA}/openapi.json`, { params: { slug: ctx.slugA } }),
        404,
        'NOT_PUBLISHED',
      );
      expect(
        (await call(listVersions, 'GET', `/api/workflows/${ctx.wfA}/versions`, { params: { id: ctx.wfA } })).body
          .versions,
      ).toHaveLength(2);
      // Runs of the workflow stay readable.
      expect((await ctx.v1Get(v1RunId, ctx.keyA)).status).toBe(200);
      await call(rollback, 'POST', `/api/workflows/${ctx.wfA}/versions/2/rollback`, {
        params: { id: ctx.wfA, version: '2' },
      });
      expect((await ctx.run(ctx.slugA, { inputs: { message: 'again' } }, bearer(ctx.keyA))).body).toMatchObject({
        version: 2,
        outputs: { text: 'Bonjour again' },
      });
    });
  });
}
