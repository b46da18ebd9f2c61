/**
 * Guarantee: a trigger body that cannot work is refused at save with 400 and the JSON path of the problem (a bad
 * cron at `cron`, an unknown zone at `timezone`, a mapping that reads `{{inputs.x}}` at `mapping.<input>`, …) and
 * nothing is saved; GET/PATCH/DELETE behave as CRUD (a deleted webhook's URL is 404); a webhook's secret is shown
 * only in the answer that set it and appears nowhere else: not in GET answers, not sealed-as-plaintext in the
 * triggers table, not in the run's inputs, snapshots, trace events or the audit log, and not in any log line.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as fire } from '@/app/api/workflows/[id]/triggers/[triggerId]/run/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from './api-helpers';
import { callHook, created, echoWorkflow, runCount, sign, triggers } from './webhook-triggers-fixture';
import { databaseOf } from '../support/database-of';

useFreshDataDir('paiflow-webhook-crud-');
process.env.SEED_EXAMPLE = '0';

const HMAC_SECRET = 'hmac-secret-Qx7vT2pL9wZk4sYd';
const HEADER_SECRET = 'header-secret-Mn3bV8cX1zAq6rFe';
const CLIENT_IP_TAG = 'client-ip-tag-Hs4kR7uW2eTy';
const logged: string[] = [];
let wfId = '';

beforeAll(async () => {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
  await getApp();
  wfId = await echoWorkflow('CRUD target');
});

afterAll(() => {
  vi.restoreAllMocks();
  expectNoServerErrorsOrStacks();
});

describe('bad create bodies: 400 with the path, nothing saved', () => {
  const hook = { type: 'webhook', auth: { type: 'none' } };
  const cases: Array<[string, unknown, string, string]> = [
    ['a bad cron', { type: 'schedule', cron: 'every tuesday' }, 'INVALID_CRON', 'cron'],
    ['a cron with too many fields', { type: 'schedule', cron: '* * * * * * * *' }, 'INVALID_CRON', 'cron'],
    ['a cron that never fires again', { type: 'schedule', cron: '0 0 30 2 *' }, 'INVALID_CRON', 'cron'],
    [
      'an unknown time zone',
      { type: 'schedule', cron: '0 9 * * *', timezone: 'Mars/Olympus' },
      'INVALID_TIMEZONE',
      'timezone',
    ],
    ['an empty cron', { type: 'schedule', cron: '' }, 'VALIDATION_ERROR', 'cron'],
    ['inputs not an object', { type: 'schedule', cron: '0 9 * * *', inputs: [1] }, 'VALIDATION_ERROR', 'inputs'],
    [
      'a misfire policy we do not have',
      { type: 'schedule', cron: '0 9 * * *', misfire: 'all' },
      'VALIDATION_ERROR',
      'misfire',
    ],
    [
      'a mapping reading {{inputs.x}}',
      { ...hook, mapping: { title: '{{inputs.x}}' } },
      'VALIDATION_ERROR',
      'mapping.title',
    ],
    [
      'a mapping reading a node',
      { ...hook, mapping: { ref: 'x {{n1.output.text}}' } },
      'VALIDATION_ERROR',
      'mapping.ref',
    ],
    ['a mapping that is code', { ...hook, mapping: { title: '{{body.a()}}' } }, 'VALIDATION_ERROR', 'mapping.title'],
    ['an unknown auth type', { type: 'webhook', auth: { type: 'basic' } }, 'VALIDATION_ERROR', 'auth.type'],
    ['a short secret', { type: 'webhook', auth: { type: 'hmac', secret: 'short' } }, 'VALIDATION_ERROR', 'auth.secret'],
    [
      'a bad header name',
      { type: 'webhook', auth: { type: 'header', header: 'a b' } },
      'VALIDATION_ERROR',
      'auth.header',
    ],
    ['a response mode we do not have', { ...hook, response: 'sync' }, 'VALIDATION_ERROR', 'response'],
    ['a wait timeout too long', { ...hook, timeoutMs: 3_600_000 }, 'VALIDATION_ERROR', 'timeoutMs'],
    ['a schedule field on a webhook', { ...hook, cron: '* * * * *' }, 'UNKNOWN_KEY', 'cron'],
    ['an unknown trigger type', { type: 'email' }, 'VALIDATION_ERROR', 'type'],
  ];
  for (const [name, body, code, path] of cases)
    it(name, async () => {
      const a = await triggers.create(wfId, body);
      expectError(a, 400, code, path === '' ? undefined : path);
      expect((await triggers.list(wfId)).body).toEqual([]);
    });

  it('a body that is not JSON: 400', async () => {
    expect((await triggers.create(wfId, undefined)).status).toBe(400);
  });
});

describe('CRUD', () => {
  it('GET lists, GET one, PATCH changes what is given, DELETE removes (its URL then 404)', async () => {
    const t = await created(wfId, {
      type: 'webhook',
      name: 'CI',
      auth: { type: 'hmac', secret: HMAC_SECRET },
      mapping: { title: '{{body.title}}' },
    });
    expect((await triggers.list(wfId)).body.map((x: any) => x.id)).toEqual([t.id]);
    const one = await triggers.get(wfId, t.id);
    expect(one.body).toMatchObject({ id: t.id, type: 'webhook', name: 'CI', enabled: true, response: 'async' });

    const p = await triggers.patch(wfId, t.id, {
      name: 'CI (main)',
      mapping: { title: '{{body.t}}' },
      response: 'wait',
    });
    expect(p.status, p.text).toBe(200);
    expect(p.body).toMatchObject({ name: 'CI (main)', mapping: { title: '{{body.t}}' }, response: 'wait' });
    expect(p.body.secret).toBeUndefined();
    // The secret was kept: the old signature still works with the new mapping.
    const raw = '{"t":"patched"}';
    const a = await callHook(t.id, raw, { 'content-type': 'application/json', 'x-signature': sign(HMAC_SECRET, raw) });
    expect(a.status, a.text).toBe(200);
    expect(a.body.outputs.title).toBe('patched');

    expectError(await triggers.patch(wfId, t.id, { cron: '* * * * *' }), 400, 'VALIDATION_ERROR', 'cron');
    expectError(await triggers.patch(wfId, t.id, { mapping: { title: '{{inputs.t}}' } }), 400, 'VALIDATION_ERROR');
    expectError(await triggers.patch(wfId, t.id, { type: 'schedule' }), 400, 'UNKNOWN_KEY', 'type');

    const d = await triggers.remove(wfId, t.id);
    expect(d.status).toBe(204);
    expectError(await triggers.get(wfId, t.id), 404, 'TRIGGER_NOT_FOUND');
    expectError(await triggers.remove(wfId, t.id), 404, 'TRIGGER_NOT_FOUND');
    const before = await runCount(wfId);
    expectError(
      await callHook(t.id, raw, { 'content-type': 'application/json', 'x-signature': sign(HMAC_SECRET, raw) }),
      404,
      'HOOK_NOT_FOUND',
    );
    expect(await runCount(wfId)).toBe(before);
  });

  it('a trigger of another workflow is not found under this one', async () => {
    const other = await echoWorkflow('Other');
    const t = await created(other, { type: 'webhook', auth: { type: 'none' }, mapping: {} });
    expectError(await triggers.get(wfId, t.id), 404, 'TRIGGER_NOT_FOUND');
    expectError(await triggers.patch(wfId, t.id, { enabled: false }), 404, 'TRIGGER_NOT_FOUND');
    expectError(await triggers.remove(wfId, t.id), 404, 'TRIGGER_NOT_FOUND');
    expect((await triggers.get(other, t.id)).status).toBe(200);
  });

  it('PATCH auth replaces the secret: the new one is shown once and only it verifies', async () => {
    const t = await created(wfId, { type: 'webhook', auth: { type: 'hmac' }, mapping: { title: '{{body.title}}' } });
    const first: string = t.secret;
    const p = await triggers.patch(wfId, t.id, { auth: { type: 'hmac', secret: 'rotated-secret-0123456789' } });
    expect(p.body.secret).toBe('rotated-secret-0123456789');
    const raw = '{"title":"rotated"}';
    expectError(
      await callHook(t.id, raw, { 'content-type': 'application/json', 'x-signature': sign(first, raw) }),
      401,
      'INVALID_SIGNATURE',
    );
    const ok = await callHook(t.id, raw, {
      'content-type': 'application/json',
      'x-signature': sign('rotated-secret-0123456789', raw),
    });
    expect(ok.status, ok.text).toBe(202);
    await triggers.remove(wfId, t.id);
  });
});

describe('secrets appear only in the answer that set them', () => {
  let hmacId = '';
  let headerId = '';
  const runIds: string[] = [];

  beforeAll(async () => {
    hmacId = (
      await created(wfId, {
        type: 'webhook',
        auth: { type: 'hmac', secret: HMAC_SECRET },
        mapping: { title: '{{body.title}}', agent: 'all headers: {{headers}}' },
        response: 'wait',
      })
    ).id;
    const h = await created(wfId, {
      type: 'webhook',
      auth: { type: 'header', header: 'x-token', secret: HEADER_SECRET },
      // The whole request, headers and body, as one input: the secret header must not be in it.
      mapping: { title: '{{body.title}}', agent: 'all headers: {{headers}}', ref: 'query: {{query}}' },
      response: 'wait',
    });
    expect(h.secret).toBe(HEADER_SECRET);
    headerId = h.id;
    const raw = JSON.stringify({ title: 'secret check' });
    const a = await callHook(hmacId, raw, {
      'content-type': 'application/json',
      'x-signature': sign(HMAC_SECRET, raw),
      'x-hub-signature-256': sign(HMAC_SECRET, raw),
    });
    expect(a.status, a.text).toBe(200);
    runIds.push(a.body.runId);
    const b = await callHook(headerId, raw, {
      'content-type': 'application/json',
      'x-token': HEADER_SECRET,
      // What the production server adds; its tag is a per-process secret.
      'x-paiflow-client-ip': `${CLIENT_IP_TAG} 203.0.113.9`,
    });
    expect(b.status, b.text).toBe(200);
    runIds.push(b.body.runId);
    const m = await call(fire, 'POST', `/api/workflows/${wfId}/triggers/${headerId}/run`, {
      params: { id: wfId, triggerId: headerId },
      body: { body: { title: 'manual' } },
    });
    expect(m.status, m.text).toBe(202);
    runIds.push(m.body.runId);
    for (const id of runIds) await waitForRun(getRun, id);
  });

  const secrets = [HMAC_SECRET, HEADER_SECRET, CLIENT_IP_TAG];
  const signatures = () => [sign(HMAC_SECRET, JSON.stringify({ title: 'secret check' })).slice(7)];

  it('not in GET answers (list and one), which say only that one is set', async () => {
    const list = await triggers.list(wfId);
    const one = await triggers.get(wfId, headerId);
    for (const s of secrets) {
      expect(list.text).not.toContain(s);
      expect(one.text).not.toContain(s);
    }
    expect(one.body.auth).toEqual({ type: 'header', header: 'x-token', hasSecret: true });
    expect(one.body.secret).toBeUndefined();
  });

  it('stored sealed: the triggers table holds no secret in plain text', async () => {
    const rows = await databaseOf(await getApp()).prisma.trigger.findMany({
      where: { id: { in: [hmacId, headerId] } },
    });
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.secret).toBeTruthy();
      for (const s of secrets) expect(JSON.stringify(r)).not.toContain(s);
    }
  });

  it("not in the runs' inputs, outputs, snapshots or trace events, nor in the audit log", async () => {
    const app = await getApp();
    for (const id of runIds) {
      const run = await waitForRun(getRun, id);
      expect(run.status).toBe('succeeded');
      const events = await app.store.getEvents(id);
      expect(events.length).toBeGreaterThan(2);
      const stored = JSON.stringify([await databaseOf(app).prisma.run.findUnique({ where: { id } }), run, events]);
      for (const s of [...secrets, ...signatures()]) expect(stored).not.toContain(s);
    }
    // The header run did get the rest of the request (so the check above is not vacuous).
    const headerRun = await waitForRun(getRun, runIds[1]);
    const headers = JSON.parse(headerRun.inputs.agent.slice('all headers: '.length));
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-token']).toBeUndefined();
    expect(headers['x-paiflow-client-ip']).toBeUndefined();
    const audit = JSON.stringify(await databaseOf(app).prisma.auditEntry.findMany(), (_k, v) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(audit).toContain('trigger.created');
    for (const s of secrets) expect(audit).not.toContain(s);
  });

  it('not in any log line', () => {
    for (const s of secrets) expect(logged.join('\n')).not.toContain(s);
  });
});
