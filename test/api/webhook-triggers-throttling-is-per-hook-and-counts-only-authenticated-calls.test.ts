/**
 * Guarantee: webhook throttling cannot be turned against other users. Failed signatures lock out only that hook
 * (for that client address), never the other webhooks or the published API's keys; and calls that fail
 * authentication do not use up the hook's rate limit, so someone who learned a URL but not its secret cannot stop
 * the real sender's calls by flooding it. Limits here: API_KEY_MAX_FAILURES=3, RATE_LIMIT_PER_MIN=5.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';
import { bearer } from './v1-endpoint-helpers';
import { callHook, created, echoWorkflow, runCount, sign } from './webhook-triggers-fixture';

useFreshDataDir('paiflow-webhook-throttle-');
process.env.SEED_EXAMPLE = '0';
process.env.API_KEY_MAX_FAILURES = '3';
process.env.RATE_LIMIT_PER_MIN = '5';

const SECRET = 'throttle-secret-0123456789';
const raw = '{"title":"t"}';
const good = { 'content-type': 'application/json', 'x-signature': sign(SECRET, raw) };
const bad = { 'content-type': 'application/json', 'x-signature': sign('not-the-secret-0123456789', raw) };
let wfId = '';
const hook = () => created(wfId, { type: 'webhook', auth: { type: 'hmac', secret: SECRET }, mapping: {} });

beforeAll(async () => {
  await getApp();
  wfId = await echoWorkflow('Throttled');
});

afterAll(() => {
  delete process.env.API_KEY_MAX_FAILURES;
  delete process.env.RATE_LIMIT_PER_MIN;
  expectNoServerErrorsOrStacks();
});

describe('failed signatures lock out only their own hook', () => {
  it('3 bad signatures on hook A: A answers 429 (even signed); hook B and the v1 API still work', async () => {
    const a = await hook();
    const b = await hook();
    for (let i = 0; i < 3; i++) expectError(await callHook(a.id, raw, bad), 401, 'INVALID_SIGNATURE');
    const before = await runCount(wfId);
    const locked = await callHook(a.id, raw, good);
    expectError(locked, 429, 'TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await runCount(wfId)).toBe(before);

    expect((await callHook(b.id, raw, good)).status).toBe(202);
    const slug = (await (await getApp()).store.getWorkflow(wfId))!.slug!;
    const key = await call(createKey, 'POST', `/api/workflows/${wfId}/api-keys`, { params: { id: wfId }, body: {} });
    const v1 = await call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
      params: { slug },
      body: { inputs: { title: 'v1' }, mode: 'async' },
      headers: bearer(key.body.key),
    });
    expect(v1.status, v1.text).toBe(202);
  });
});

describe('only authenticated calls use the rate limit', () => {
  it('2 unsigned calls, then the real sender still gets its 5 calls a minute; the 6th is 429', async () => {
    const c = await hook();
    for (let i = 0; i < 2; i++) expectError(await callHook(c.id, raw, bad), 401, 'INVALID_SIGNATURE');
    for (let i = 0; i < 5; i++) {
      const a = await callHook(c.id, raw, good);
      expect(a.status, `call ${i + 1}: ${a.text}`).toBe(202);
    }
    const over = await callHook(c.id, raw, good);
    expectError(over, 429, 'RATE_LIMITED');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
