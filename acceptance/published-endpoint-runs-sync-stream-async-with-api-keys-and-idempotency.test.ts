/**
 * Guarantee: a published workflow is an HTTP endpoint an outside app can rely on — its API key (shown once) runs it in
 * sync, stream (SSE: contiguous seq, ending with the terminal event and the outputs) and async mode (202 + a status
 * URL the key reads); one Idempotency-Key is one run however often it is sent; a wrong, missing, revoked or other
 * workflow's key is refused; the OpenAPI 3.1 document describes the start node's inputs; and a new version does not
 * change what a caller pinned to an older `version` gets.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PREFIX, keyClient, publishWithKey, questionAnswerGraph, type Published } from './support/b-published';
import type { Client } from './support/client';
import { acceptance } from './support/context';
import { readSse } from './support/sse';
import { until } from './support/runs';

const { api, baseURL } = acceptance();

const QUESTION = 'How many days do I have to return a kettle?';

describe('a published workflow called with its API key', () => {
  let wf: Published;
  let caller: Client;
  /** The sync answer: what every mode must agree on (the demo model is deterministic). */
  let answer: string;

  const runPath = () => `/api/v1/workflows/${wf.slug}/run`;
  const runCount = async () => (await api.expectStatus(api.get(`/api/workflows/${wf.workflowId}/runs`), 200)).length;

  beforeAll(async () => {
    wf = await publishWithKey(api, `Returns desk ${Date.now()}`, questionAnswerGraph());
    caller = keyClient(api, wf.key);
  });

  it('lists the new key by its prefix and never shows the key again', async () => {
    const keys = await api.expectStatus(api.get(`/api/workflows/${wf.workflowId}/api-keys`), 200);
    const mine = keys.find((k: any) => k.id === wf.keyId);
    expect(mine).toMatchObject({ prefix: wf.key.slice(0, mine.prefix.length), revokedAt: null });
    expect(JSON.stringify(keys)).not.toContain(wf.key);
  });

  it('runs in sync mode: 200 with the run id, succeeded and the End outputs', async () => {
    const r = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'succeeded', version: 1 });
    expect(r.body.runId).toMatch(/^run_/);
    expect(r.headers.get('x-run-id')).toBe(r.body.runId);
    answer = r.body.outputs.answer;
    expect(answer).toContain(DEMO_PREFIX);
    expect(answer).toContain(`You said: "${QUESTION}"`);
    // The owner sees the same run in the editor, as a run of published version 1 started through the API.
    const run = await api.expectStatus(api.get(`/api/runs/${r.body.runId}`), 200);
    expect(run).toMatchObject({ status: 'succeeded', workflowId: wf.workflowId, outputs: { answer } });
    expect(run.versionId).toBeTruthy();
    const history = await api.expectStatus(api.get(`/api/workflows/${wf.workflowId}/runs`), 200);
    expect(history.find((h: any) => h.id === r.body.runId)).toMatchObject({ trigger: 'api', version: 1 });
  });

  it('refuses inputs the start node does not accept with 400 and the input path, starting nothing', async () => {
    const before = await runCount();
    const r = await caller.post(runPath(), { inputs: {}, mode: 'sync' });
    expect(r.status, r.text).toBe(400);
    expect(JSON.stringify(r.body.error)).toContain('inputs.question');
    expect(await runCount()).toBe(before);
  });

  it('streams the run as SSE: contiguous seq from 1, tokens, and the terminal event carrying the outputs', async () => {
    const s = await readSse(`${baseURL}${runPath()}`, {
      headers: { authorization: `Bearer ${wf.key}` },
      body: { inputs: { question: QUESTION }, mode: 'stream' },
    });
    expect(s.status, s.text).toBe(200);
    const events = s.events.map((e) => e.json);
    expect(events.length).toBeGreaterThan(3);
    // `id:` is the seq, and the seq runs 1, 2, 3 … without a gap or a repeat.
    expect(s.events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const runId = s.headers.get('x-run-id');
    expect(runId).toMatch(/^run_/);
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set([runId]));
    expect(events[0].type).toBe('run.started');
    const last = events.at(-1);
    expect(last.type).toBe('run.succeeded');
    expect(last.data.outputs).toEqual({ answer });
    // The LLM's tokens arrived live, and put together they are the answer.
    const tokens = events.filter((e) => e.type === 'node.token' && e.nodeId === 'llm').map((e) => e.data.delta);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe(answer);
    const nodes = events.filter((e) => e.type === 'node.succeeded').map((e) => e.nodeId);
    expect(nodes).toEqual(['start', 'llm', 'end']);
  });

  it('runs in async mode: 202 with a status URL the key reads until the run succeeded', async () => {
    const r = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'async' });
    expect(r.status, r.text).toBe(202);
    const { runId, statusUrl } = r.body;
    expect(runId).toMatch(/^run_/);
    expect(statusUrl).toBe(`${baseURL}/api/v1/runs/${runId}`);
    expect(r.headers.get('location')).toBe(statusUrl);
    const done = await until('the async run to succeed', async () => {
      const v = await caller.get(statusUrl.slice(baseURL.length));
      expect(v.status, v.text).toBe(200);
      return v.body.status === 'succeeded' ? v.body : null;
    });
    expect(done).toMatchObject({ id: runId, workflowId: wf.workflowId, inputs: { question: QUESTION } });
    expect(done.outputs).toEqual({ answer });
    expect(done.finishedAt).toBeTruthy();
    // Without the publisher's opt-in (publicTrace) a key holder sees no node trace.
    expect(done.nodes).toBeUndefined();
    // The run's status is not public: without the key it is 401.
    const anonymous = await api.with({ authorization: '' }).get(`/api/v1/runs/${runId}`);
    expect(anonymous.status).toBe(401);
  });

  it('answers the same Idempotency-Key with the same run, never a second one', async () => {
    const idem = `order-${randomBytes(6).toString('hex')}`;
    const before = await runCount();
    const first = await caller.post(
      runPath(),
      { inputs: { question: QUESTION }, mode: 'async' },
      { 'idempotency-key': idem },
    );
    expect(first.status, first.text).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await caller.post(
      runPath(),
      { inputs: { question: QUESTION }, mode: 'async' },
      { 'idempotency-key': idem },
    );
    expect(again.status, again.text).toBe(202);
    expect(again.body.runId).toBe(first.body.runId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // A sync retry of the same request (a client that timed out and tries again) gets that run's outcome.
    const sync = await caller.post(
      runPath(),
      { inputs: { question: QUESTION }, mode: 'sync' },
      { 'idempotency-key': idem },
    );
    expect(sync.status, sync.text).toBe(200);
    expect(sync.body).toMatchObject({ runId: first.body.runId, status: 'succeeded', outputs: { answer } });
    expect(await runCount()).toBe(before + 1);
    // The same key for another request is a mistake, not someone else's run.
    const other = await caller.post(
      runPath(),
      { inputs: { question: 'Something else entirely' }, mode: 'async' },
      { 'idempotency-key': idem },
    );
    expect(other.status, other.text).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await runCount()).toBe(before + 1);
  });

  it('refuses a missing or wrong key with 401 and a Bearer challenge, starting nothing', async () => {
    const before = await runCount();
    const missing = await api.with({ authorization: '' }).post(runPath(), { inputs: { question: QUESTION } });
    expect(missing.status, missing.text).toBe(401);
    // The endpoint's own OpenAPI document declares WWW-Authenticate on 401 (RFC 6750).
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrongKey = `pf_${randomBytes(32).toString('base64url')}`;
    const wrong = await keyClient(api, wrongKey).post(runPath(), { inputs: { question: QUESTION } });
    expect(wrong.status, wrong.text).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    // A personal access token of the owner is not an API key either.
    const pat = await api.post(runPath(), { inputs: { question: QUESTION } });
    expect(pat.status, pat.text).toBe(401);
    expect(await runCount()).toBe(before);
  });

  it('refuses a revoked key on the next request, while the other keys keep working', async () => {
    const second = await api.expectStatus(api.post(`/api/workflows/${wf.workflowId}/api-keys`, { name: 'temp' }), 201);
    const temp = keyClient(api, second.key);
    const ok = await temp.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync' });
    expect(ok.status, ok.text).toBe(200);
    const revoked = await api.expectStatus(api.delete(`/api/api-keys/${second.id}`), 200);
    expect(revoked.revokedAt).toBeTruthy();
    const refused = await temp.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync' });
    expect(refused.status, refused.text).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
    // Its runs are no longer readable with it either.
    expect((await temp.get(`/api/v1/runs/${ok.body.runId}`)).status).toBe(401);
    const still = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync' });
    expect(still.status, still.text).toBe(200);
  });

  it("refuses another workflow's key with 403 and does not let it read this workflow's runs", async () => {
    const other = await publishWithKey(api, `Other desk ${Date.now()}`, questionAnswerGraph());
    const r = await keyClient(api, other.key).post(runPath(), { inputs: { question: QUESTION } });
    expect(r.status, r.text).toBe(403);
    const mine = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync' });
    expect((await keyClient(api, other.key).get(`/api/v1/runs/${mine.body.runId}`)).status).toBe(404);
  });

  it('serves an OpenAPI 3.1 document whose inputs are the start node inputs', async () => {
    const r = await api.with({ authorization: '' }).get(`/api/v1/workflows/${wf.slug}/openapi.json`);
    expect(r.status, r.text).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe(String(wf.version));
    const op = doc.paths[runPath()].post;
    expect(op).toBeTruthy();
    expect(op.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/RunRequest');
    expect(doc.components.schemas.RunRequest.properties.inputs.$ref).toBe('#/components/schemas/Inputs');
    const inputs = doc.components.schemas.Inputs;
    expect(inputs).toMatchObject({
      type: 'object',
      properties: { question: { type: 'string', description: 'What the customer asks' } },
      required: ['question'],
    });
    expect(Object.keys(doc.components.schemas.Outputs.properties)).toEqual(['answer']);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    // It describes the endpoint, not the workflow's internals (prompts, templates).
    expect(r.text).not.toContain('{{inputs.question}}');
    const unknown = await api.with({ authorization: '' }).get(`/api/v1/workflows/no-such-${Date.now()}/openapi.json`);
    expect(unknown.status).toBe(404);
  });

  it('keeps serving a pinned older version after a new one is published', async () => {
    const wfNow = await api.expectStatus(api.get(`/api/workflows/${wf.workflowId}`), 200);
    await api.expectStatus(
      api.put(`/api/workflows/${wf.workflowId}`, {
        graph: questionAnswerGraph('Version two says: {{llm.output.text}}'),
        revision: wfNow.revision,
      }),
      200,
    );
    // Editing the draft changes nothing for callers until it is published.
    const draftOnly = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync' });
    expect(draftOnly.body).toMatchObject({ version: 1, outputs: { answer } });
    const pub = await api.expectStatus(api.post(`/api/workflows/${wf.workflowId}/publish`), 201);
    expect(pub).toMatchObject({ version: 2, slug: wf.slug });

    const current = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync' });
    expect(current.status, current.text).toBe(200);
    expect(current.body).toMatchObject({ version: 2, outputs: { answer: `Version two says: ${answer}` } });
    const pinned = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync', version: 1 });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.body).toMatchObject({ version: 1, outputs: { answer } });
    const missing = await caller.post(runPath(), { inputs: { question: QUESTION }, mode: 'sync', version: 99 });
    expect(missing.status, missing.text).toBe(404);
    expect(missing.body.error.code).toBe('VERSION_NOT_FOUND');
    const doc = await api.expectStatus(api.get(`/api/v1/workflows/${wf.slug}/openapi.json`), 200);
    expect(doc.info.version).toBe('2');
  });
});
