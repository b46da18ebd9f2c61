/**
 * Guarantee: webhook rate limiting cannot be turned against the real sender: calls that fail authentication do not
 * use up the hook's rate limit, so someone who learned a URL but not its secret cannot stop the real sender's calls by
 * flooding it (their failures lock out only their own address: test/security/bad-webhook-signatures-count-toward-
 * the-address-lockout.test.ts). Limits here: API_KEY_MAX_FAILURES=3 (per address), RATE_LIMIT_PER_MIN=5.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';
import { callHook, created, echoWorkflow, sign } from './webhook-triggers-fixture';

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
