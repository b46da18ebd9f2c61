/**
 * Guarantee: a webhook trigger starts a run of the *published* version only for a call signed with its secret
 * (HMAC-SHA256 of the raw body), mapping the call to the start inputs, in `wait` and `async` mode; a bad or missing
 * signature is 401 with nothing started; a schedule trigger fires on its cron (and on "run now"), its runs are
 * recorded as `schedule`, and disabling it stops it.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, until, waitForRun } from './support/runs';

const { api, baseURL } = acceptance();

const sign = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** start(name) → template "Hello, <name>!" → end { greeting }; `word` tells a draft from the published version. */
function greeter(word: string) {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'name', type: 'string', required: true }] }),
      node('greet', 'template', { template: `${word}, {{inputs.name}}!` }, 200),
      node('end', 'end', { outputs: [{ name: 'greeting', value: '{{greet.output.text}}' }] }, 400),
    ],
    edges: chain('start', 'greet', 'end'),
  };
}

async function runsOf(workflowId: string, trigger?: string): Promise<any[]> {
  const q = trigger ? `?trigger=${trigger}&limit=200` : '?limit=200';
  return api.expectStatus(api.get(`/api/workflows/${workflowId}/runs${q}`), 200);
}

describe('webhook triggers', () => {
  let wf: string;
  let versionId: string;

  beforeAll(async () => {
    wf = await createWorkflow(api, `Webhook greeter ${Date.now()}`, greeter('Hello'));
    const published = await api.expectStatus(api.post(`/api/workflows/${wf}/publish`), 201);
    versionId = published.versionId;
    expect(versionId).toBeTruthy();
    // The draft moves on after publishing: a trigger must still run what was published.
    await api.expectStatus(api.put(`/api/workflows/${wf}`, { graph: greeter('DRAFT') }), 200);
  });

  it('answers a signed call in wait mode with the published version’s outputs, mapped from the body', async () => {
    const created = await api.expectStatus(
      api.post(`/api/workflows/${wf}/triggers`, {
        type: 'webhook',
        auth: { type: 'hmac' },
        mapping: { name: '{{body.user.name}}' },
        response: 'wait',
      }),
      201,
    );
    expect(created).toMatchObject({ type: 'webhook', auth: { type: 'hmac', hasSecret: true } });
    expect(created.secret.length).toBeGreaterThanOrEqual(16);
    expect(created.path).toBe(`/api/hooks/${created.id}`);
    // The secret is shown once: never again when the trigger is read.
    const read = await api.expectStatus(api.get(`/api/workflows/${wf}/triggers/${created.id}`), 200);
    expect(read.secret).toBeUndefined();
    expect(JSON.stringify(read)).not.toContain(created.secret);

    const raw = JSON.stringify({ user: { name: 'Ada' }, event: 'signup' });
    const res = await fetch(`${baseURL}${created.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(created.secret, raw) },
      body: raw,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 'succeeded', outputs: { greeting: 'Hello, Ada!' } });
    const run = await api.expectStatus(api.get(`/api/runs/${body.runId}`), 200);
    expect(run.versionId).toBe(versionId);
    expect(run.inputs).toEqual({ name: 'Ada' });
    expect(nodeOf(run, 'greet').output.text).toBe('Hello, Ada!');
    const listed = (await runsOf(wf, 'webhook')).find((r) => r.id === body.runId);
    expect(listed).toMatchObject({ trigger: 'webhook', version: 1, status: 'succeeded' });
  });

  it('answers a signed call in async mode with 202 and the run id, then the run succeeds', async () => {
    const created = await api.expectStatus(
      api.post(`/api/workflows/${wf}/triggers`, {
        type: 'webhook',
        auth: { type: 'hmac' },
        mapping: { name: '{{body.who}}' },
        response: 'async',
      }),
      201,
    );
    const raw = JSON.stringify({ who: 'Grace' });
    const res = await fetch(`${baseURL}${created.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(created.secret, raw) },
      body: raw,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(202);
    expect(body.runId).toMatch(/\S/);
    expect(body.outputs).toBeUndefined();
    const run = await waitForRun(api, body.runId);
    expect(run).toMatchObject({ status: 'succeeded', versionId, outputs: { greeting: 'Hello, Grace!' } });
  });

  it('refuses a wrong, missing or other-body signature with 401 and starts no run', async () => {
    const created = await api.expectStatus(
      api.post(`/api/workflows/${wf}/triggers`, {
        type: 'webhook',
        auth: { type: 'hmac' },
        mapping: { name: '{{body.who}}' },
        response: 'async',
      }),
      201,
    );
    const before = (await runsOf(wf)).length;
    const raw = JSON.stringify({ who: 'Mallory' });
    const attempts: Array<[Record<string, string>, string]> = [
      [{ 'x-signature': sign('not-the-secret-at-all-0000', raw) }, 'INVALID_SIGNATURE'],
      // Signed with the right secret, but over another body: the signature covers the raw bytes.
      [{ 'x-signature': sign(created.secret, JSON.stringify({ who: 'Alice' })) }, 'INVALID_SIGNATURE'],
      [{ 'x-signature': 'sha256=nothex' }, 'INVALID_SIGNATURE'],
      [{}, 'MISSING_SIGNATURE'],
    ];
    for (const [headers, code] of attempts) {
      const res = await fetch(`${baseURL}${created.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: raw,
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(body.error.code).toBe(code);
    }
    const after = await runsOf(wf);
    expect(after.length).toBe(before);
    expect(after.some((r) => JSON.stringify(r).includes('Mallory'))).toBe(false);
  });
});

describe('schedule triggers', () => {
  let wf: string;
  let trigger: any;

  beforeAll(async () => {
    wf = await createWorkflow(api, `Scheduled greeter ${Date.now()}`, greeter('Hello'));
    await api.expectStatus(api.post(`/api/workflows/${wf}/publish`), 201);
    await api.expectStatus(api.put(`/api/workflows/${wf}`, { graph: greeter('DRAFT') }), 200);
  });

  afterAll(async () => {
    if (trigger) await api.delete(`/api/workflows/${wf}/triggers/${trigger.id}`);
  });

  it('fires every second (6-field cron) with its inputs, as schedule runs of the published version', async () => {
    trigger = await api.expectStatus(
      api.post(`/api/workflows/${wf}/triggers`, {
        type: 'schedule',
        cron: '* * * * * *',
        timezone: 'UTC',
        inputs: { name: 'tick' },
      }),
      201,
    );
    expect(trigger.nextRunAt).toBeTruthy();
    expect(trigger.nextRuns.length).toBeGreaterThan(1);
    const [a, b] = trigger.nextRuns.map((t: string) => Date.parse(t));
    expect(b - a).toBe(1000);

    const runs = (await until(
      'two schedule runs',
      async () => {
        const r = await runsOf(wf, 'schedule');
        return r.length >= 2 ? r : null;
      },
      60_000,
      500,
    ))!;
    for (const r of runs) expect(r).toMatchObject({ trigger: 'schedule', version: 1 });
    const done = await waitForRun(api, runs[runs.length - 1].id);
    expect(done).toMatchObject({
      status: 'succeeded',
      inputs: { name: 'tick' },
      outputs: { greeting: 'Hello, tick!' },
    });
    // The run filter of the whole workspace knows them too.
    const all = await api.expectStatus(api.get(`/api/runs?workflowId=${wf}&trigger=schedule`), 200);
    expect(all.runs.map((r: any) => r.id)).toEqual(expect.arrayContaining(runs.map((r) => r.id)));
    const editorRuns = await api.expectStatus(api.get(`/api/runs?workflowId=${wf}&trigger=editor`), 200);
    expect(editorRuns.runs).toEqual([]);
  });

  it('stops firing once disabled, and "run now" still starts one schedule run with its inputs', async () => {
    const patched = await api.expectStatus(
      api.patch(`/api/workflows/${wf}/triggers/${trigger.id}`, { enabled: false }),
      200,
    );
    expect(patched).toMatchObject({ enabled: false, nextRunAt: null, nextRuns: [] });
    // A look of the scheduler that began before the PATCH may still start its tick: let it finish, then count.
    await sleep(1_500);
    const settled = (await runsOf(wf, 'schedule')).length;
    // Three more ticks of the cron, which must not fire (an absence cannot be polled for).
    await sleep(3_000);
    expect((await runsOf(wf, 'schedule')).length).toBe(settled);

    const now = await api.expectStatus(api.post(`/api/workflows/${wf}/triggers/${trigger.id}/run`), 202);
    const run = await waitForRun(api, now.runId);
    expect(run).toMatchObject({ status: 'succeeded', outputs: { greeting: 'Hello, tick!' } });
    const listed = await runsOf(wf, 'schedule');
    expect(listed.length).toBe(settled + 1);
    expect(listed.find((r) => r.id === now.runId)).toMatchObject({ trigger: 'schedule', version: 1 });
  });
});
