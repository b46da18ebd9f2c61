/**
 * The webhook-trigger contract, on the embedded store (the lookup on both databases: the TriggerRepository conformance
 * suite) (the caller points the environment at its database first). A webhook trigger starts a run of the workflow's
 * published version only when the call proves it knows the secret: a GitHub-style `X-Hub-Signature-256: sha256=<hex>`
 * or our `X-Signature` over the raw body (hmac), or the secret in its header (header). A wrong or missing proof is 401
 * and starts nothing. The run's inputs are the mapping's templates over `body`, `query` and `headers`; the run records
 * the trigger (GET /api/runs?trigger=webhook). `async` answers 202 `{ runId }` at once, `wait` 200 `{ runId, status,
 * outputs }`; JSON, form and text bodies map; `none` is allowed but warned about; an unpublished workflow is 409
 * NOT_PUBLISHED, a disabled trigger 409. An Idempotency-Key repeated on the same hook finds the first run (other
 * inputs → 409) and is the hook's own: the same key on another hook is another run. A body over MAX_BODY_BYTES is 413.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as hookGet } from '@/app/api/hooks/[hookId]/route';
import { GET as listRuns } from '@/app/api/runs/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { getApp } from '@/lib/server/app';
import { until } from '../support/until';
import { call, expectError, expectNoServerErrorsOrStacks, waitForRun } from './api-helpers';
import { callHook, created, echoWorkflow, runCount, sign, triggers } from './webhook-triggers-fixture';
import { databaseOf } from '../support/database-of';

export function signedCallsSuite(onClose?: () => Promise<void>) {
  const SECRET = 'gh-webhook-secret-0123456789abcdef';
  const MAPPING = { title: '{{body.pull_request.title}}', ref: '{{query.ref}}', agent: '{{headers.user-agent}}' };

  let wfId = '';
  let hmacHook: any;

  beforeAll(async () => {
    await getApp();
    wfId = await echoWorkflow('Webhook target');
    hmacHook = await created(wfId, {
      type: 'webhook',
      name: 'GitHub',
      auth: { type: 'hmac', secret: SECRET },
      mapping: MAPPING,
      response: 'wait',
    });
  });

  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await onClose?.();
  });

  const ghBody = JSON.stringify({ action: 'opened', pull_request: { title: 'Fix the parser', number: 7 } });
  const ghHeaders = (raw: string, secret = SECRET): Record<string, string> => ({
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/abc123',
    'x-github-event': 'pull_request',
    'x-hub-signature-256': sign(secret, raw),
  });

  describe('hmac: a signed call starts a run with the mapped inputs', () => {
    it('answers with the create: id, url under /api/hooks/<id>, the secret given, no warning', () => {
      expect(hmacHook.id).toMatch(/^hk_[A-Za-z0-9_-]{24,}$/);
      expect(hmacHook.url).toBe(`http://localhost/api/hooks/${hmacHook.id}`);
      expect(hmacHook.path).toBe(`/api/hooks/${hmacHook.id}`);
      expect(hmacHook.auth).toEqual({ type: 'hmac', hasSecret: true });
      expect(hmacHook.warnings).toBeUndefined();
    });

    it('GitHub-style X-Hub-Signature-256 → 200 with the outputs the mapping delivered (wait mode)', async () => {
      const before = await runCount(wfId);
      const a = await callHook(hmacHook.id, ghBody, ghHeaders(ghBody), '?ref=refs/heads/main');
      expect(a.status, a.text).toBe(200);
      expect(a.body).toMatchObject({
        status: 'succeeded',
        outputs: { title: 'Fix the parser', ref: 'refs/heads/main', agent: 'GitHub-Hookshot/abc123' },
      });
      expect(a.body.runId).toMatch(/^run_/);
      expect(a.headers.get('x-run-id')).toBe(a.body.runId);
      expect(await runCount(wfId)).toBe(before + 1);
      const run = await waitForRun(getRun, a.body.runId);
      expect(run.inputs).toEqual({ title: 'Fix the parser', ref: 'refs/heads/main', agent: 'GitHub-Hookshot/abc123' });
      expect(run.versionId).not.toBeNull();
    });

    it('our X-Signature header works the same', async () => {
      const raw = JSON.stringify({ pull_request: { title: 'Signed by us' } });
      const a = await callHook(hmacHook.id, raw, {
        'content-type': 'application/json',
        'x-signature': sign(SECRET, raw),
      });
      expect(a.status, a.text).toBe(200);
      expect(a.body.outputs.title).toBe('Signed by us');
    });

    it('the run records its trigger: GET /api/runs?trigger=webhook lists it, ?trigger=api does not', async () => {
      const raw = JSON.stringify({ pull_request: { title: 'Listed' } });
      const a = await callHook(hmacHook.id, raw, {
        'content-type': 'application/json',
        'x-signature': sign(SECRET, raw),
      });
      const webhookRuns = await call(listRuns, 'GET', `/api/runs?trigger=webhook&workflowId=${wfId}`);
      expect(webhookRuns.status, webhookRuns.text).toBe(200);
      const row = webhookRuns.body.runs.find((r: any) => r.id === a.body.runId);
      expect(row).toMatchObject({ trigger: 'webhook', version: 1 });
      const apiRuns = await call(listRuns, 'GET', `/api/runs?trigger=api&workflowId=${wfId}`);
      expect(apiRuns.body.runs.map((r: any) => r.id)).not.toContain(a.body.runId);
      const stored = await databaseOf(await getApp()).prisma.run.findUniqueOrThrow({ where: { id: a.body.runId } });
      expect({ kind: stored.triggerKind, id: stored.triggerId }).toEqual({ kind: 'webhook', id: hmacHook.id });
      // The trigger's last run: written at once for a quiet hook, a burst's latest within a second.
      await until(
        async () => (await triggers.get(wfId, hmacHook.id)).body.lastRunId === a.body.runId,
        "the trigger's lastRunId",
        5_000,
        50,
      );
    });
  });

  describe('hmac: a wrong or missing signature is 401 and starts nothing', () => {
    const cases: Array<[string, (raw: string) => Record<string, string>, string]> = [
      ['no signature header', () => ({ 'content-type': 'application/json' }), 'MISSING_SIGNATURE'],
      ['signed with another secret', (raw) => ghHeaders(raw, 'another-secret-0123456789abcdef'), 'INVALID_SIGNATURE'],
      [
        'a signature of another body',
        () => ({ 'content-type': 'application/json', 'x-signature': sign(SECRET, '{"pull_request":{}}') }),
        'INVALID_SIGNATURE',
      ],
      ['not sha256=<hex>', () => ({ 'x-hub-signature-256': 'sha1=abcdef' }), 'INVALID_SIGNATURE'],
      ['the secret itself instead of a signature', () => ({ 'x-signature': SECRET }), 'INVALID_SIGNATURE'],
    ];
    for (const [name, headers, code] of cases)
      it(name, async () => {
        const before = await runCount(wfId);
        const a = await callHook(hmacHook.id, ghBody, headers(ghBody));
        expectError(a, 401, code);
        expect(a.text).not.toContain(SECRET);
        expect(await runCount(wfId)).toBe(before);
      });

    it('an unknown hook id is 404 and starts nothing', async () => {
      const before = await runCount(wfId);
      expectError(await callHook('hk_doesnotexist', ghBody, ghHeaders(ghBody)), 404, 'HOOK_NOT_FOUND');
      expect(await runCount(wfId)).toBe(before);
    });
  });

  describe('header secret, no auth, and the response modes', () => {
    it('header auth: the secret in its header starts a run (async 202 { runId }); wrong/missing → 401', async () => {
      const t = await created(wfId, {
        type: 'webhook',
        auth: { type: 'header', header: 'X-Hook-Token', secret: 'header-secret-0123456789' },
        mapping: { title: '{{body.title}}' },
      });
      expect(t.auth).toEqual({ type: 'header', header: 'x-hook-token', hasSecret: true });
      expect(t.response).toBe('async');
      const raw = JSON.stringify({ title: 'by header' });
      const before = await runCount(wfId);
      expectError(await callHook(t.id, raw, { 'content-type': 'application/json' }), 401, 'MISSING_SECRET');
      expectError(
        await callHook(t.id, raw, { 'content-type': 'application/json', 'x-hook-token': 'header-secret-012345678X' }),
        401,
        'INVALID_SECRET',
      );
      expect(await runCount(wfId)).toBe(before);
      const a = await callHook(t.id, raw, {
        'content-type': 'application/json',
        'x-hook-token': 'header-secret-0123456789',
      });
      expect(a.status, a.text).toBe(202);
      expect(Object.keys(a.body).sort()).toEqual(['runId', 'status']);
      const run = await waitForRun(getRun, a.body.runId);
      expect(run.outputs.title).toBe('by header');
      // The secret header is withheld from what the mapping (and so the run) can see.
      expect(JSON.stringify(run)).not.toContain('header-secret-0123456789');
    });

    it('a generated secret is shown once when none is given', async () => {
      const t = await created(wfId, { type: 'webhook', auth: { type: 'header' }, mapping: {} });
      expect(t.secret).toMatch(/^whsec_/);
      expect(t.auth.header).toBe('x-webhook-secret');
      const again = await triggers.get(wfId, t.id);
      expect(again.body.secret).toBeUndefined();
      expect(again.text).not.toContain(t.secret);
      // Without a mapping a JSON object body is the inputs as they are.
      const a = await callHook(t.id, '{"title":"unmapped"}', {
        'content-type': 'application/json',
        'x-webhook-secret': t.secret,
      });
      expect(a.status, a.text).toBe(202);
      expect((await waitForRun(getRun, a.body.runId)).outputs.title).toBe('unmapped');
    });

    it('none: created with a warning in the answer, and anyone with the URL starts runs', async () => {
      const t = await created(wfId, { type: 'webhook', auth: { type: 'none' }, mapping: { title: '{{query.t}}' } });
      expect(t.warnings).toEqual([expect.stringMatching(/no authentication/)]);
      expect(t.auth).toEqual({ type: 'none', hasSecret: false });
      expect(t.secret).toBeUndefined();
      const a = await callHook(t.id, '', {}, '?t=open');
      expect(a.status, a.text).toBe(202);
      expect((await waitForRun(getRun, a.body.runId)).outputs.title).toBe('open');
      const listed = await triggers.list(wfId);
      expect(listed.body.find((x: any) => x.id === t.id).warnings).toHaveLength(1);
    });

    it('a call whose mapping misses a required input: 400 at inputs.title, nothing started', async () => {
      const t = await created(wfId, {
        type: 'webhook',
        auth: { type: 'none' },
        mapping: { title: '{{body.missing}}' },
        response: 'wait',
      });
      const before = await runCount(wfId);
      const a = await callHook(t.id, '{"other":1}', { 'content-type': 'application/json' });
      expectError(a, 400, 'MISSING_INPUT', 'inputs.title');
      expect(await runCount(wfId)).toBe(before);
    });
  });

  describe('bodies: JSON, form and text', () => {
    let hookId = '';
    beforeAll(async () => {
      hookId = (
        await created(wfId, {
          type: 'webhook',
          auth: { type: 'hmac', secret: SECRET },
          mapping: { title: 'got {{body.title}}{{body}}', ref: '{{body.tags[1]}}' },
          response: 'wait',
        })
      ).id;
    });
    const send = (raw: string, contentType: string) =>
      callHook(hookId, raw, { 'content-type': contentType, 'x-signature': sign(SECRET, raw) });

    it('form-urlencoded: fields by name, repeated names as a list', async () => {
      const a = await send('title=from+a+form&tags=a&tags=b', 'application/x-www-form-urlencoded');
      expect(a.status, a.text).toBe(200);
      expect(a.body.outputs.title).toMatch(/^got from a form/);
      expect(a.body.outputs.ref).toBe('b');
    });

    it('text/plain: the body is the text', async () => {
      const a = await send('just some text', 'text/plain; charset=utf-8');
      expect(a.status, a.text).toBe(200);
      expect(a.body.outputs.title).toBe('got just some text');
    });

    it('invalid JSON is 400 at body and starts nothing', async () => {
      const before = await runCount(wfId);
      expectError(await send('{"title":', 'application/json'), 400, 'INVALID_JSON', 'body');
      expect(await runCount(wfId)).toBe(before);
    });
  });

  describe('what cannot start', () => {
    it('an unpublished workflow: 409 NOT_PUBLISHED, nothing started', async () => {
      const draft = await echoWorkflow('Never published', { publish: false });
      const t = await created(draft, { type: 'webhook', auth: { type: 'none' }, mapping: {} });
      expectError(await callHook(t.id, '{"title":"x"}', { 'content-type': 'application/json' }), 409, 'NOT_PUBLISHED');
      expect(await runCount(draft)).toBe(0);
    });

    it('a disabled trigger: 409 TRIGGER_DISABLED, nothing started; enabled again, it runs', async () => {
      const t = await created(wfId, { type: 'webhook', enabled: false, auth: { type: 'none' }, mapping: {} });
      expect(t.enabled).toBe(false);
      const before = await runCount(wfId);
      const body = '{"title":"x"}';
      expectError(await callHook(t.id, body, { 'content-type': 'application/json' }), 409, 'TRIGGER_DISABLED');
      expect(await runCount(wfId)).toBe(before);
      expect((await triggers.patch(wfId, t.id, { enabled: true })).status).toBe(200);
      expect((await callHook(t.id, body, { 'content-type': 'application/json' })).status).toBe(202);
      expect(await runCount(wfId)).toBe(before + 1);
    });
  });

  describe('idempotency, GET calls and the size limit', () => {
    let a = '';
    let b = '';
    beforeAll(async () => {
      const body = { type: 'webhook', auth: { type: 'none' }, mapping: { title: '{{body.title}}{{query.t}}' } };
      a = (await created(wfId, body)).id;
      b = (await created(wfId, body)).id;
    });
    const json = { 'content-type': 'application/json' };

    it('a repeated Idempotency-Key on the same hook finds the first run; other inputs → 409', async () => {
      const first = await callHook(a, '{"title":"once"}', { ...json, 'idempotency-key': 'delivery-1' });
      expect(first.status, first.text).toBe(202);
      const before = await runCount(wfId);
      const again = await callHook(a, '{"title":"once"}', { ...json, 'idempotency-key': 'delivery-1' });
      expect(again.status, again.text).toBe(202);
      expect(again.body.runId).toBe(first.body.runId);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const other = await callHook(a, '{"title":"twice"}', { ...json, 'idempotency-key': 'delivery-1' });
      expectError(other, 409, 'IDEMPOTENCY_KEY_REUSED');
      expect(await runCount(wfId)).toBe(before);
    });

    it("the key is the hook's own: the same key on another hook of the workflow starts its own run", async () => {
      const onA = await callHook(a, '{"title":"shared key"}', { ...json, 'idempotency-key': 'delivery-2' });
      const onB = await callHook(b, '{"title":"shared key"}', { ...json, 'idempotency-key': 'delivery-2' });
      expect([onA.status, onB.status]).toEqual([202, 202]);
      expect(onB.body.runId).not.toBe(onA.body.runId);
      expect(onB.headers.get('idempotent-replayed')).toBeNull();
    });

    it('GET: the query alone maps', async () => {
      const r = await call(hookGet, 'GET', `/api/hooks/${a}?t=from-get`, { params: { hookId: a }, anonymous: true });
      expect(r.status, r.text).toBe(202);
      expect((await waitForRun(getRun, r.body.runId)).outputs.title).toBe('from-get');
    });

    it('a body over MAX_BODY_BYTES is 413 and starts nothing', async () => {
      const before = await runCount(wfId);
      const big = JSON.stringify({ title: 'x'.repeat((await getApp()).config.maxBodyBytes) });
      expectError(await callHook(a, big, json), 413, 'PAYLOAD_TOO_LARGE');
      expect(await runCount(wfId)).toBe(before);
    });
  });
}
