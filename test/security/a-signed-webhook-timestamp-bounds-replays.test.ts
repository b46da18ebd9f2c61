// Guarantee: a captured signed webhook call cannot be replayed later. With `X-Webhook-Timestamp` the signature covers
// "<timestamp>.<body>" (so the time cannot be changed without the secret), and a timestamp further than
// WEBHOOK_TIMESTAMP_TOLERANCE_S (default 300 s) from now, either way, is 401 WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE with
// nothing started; Standard Webhooks calls (webhook-id / webhook-timestamp / webhook-signature) are checked the same
// way. A hook with `auth.requireTimestamp` refuses calls without a signed timestamp; other hooks still take plain
// body signatures, as before.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getApp } from '@/lib/server/app';
import { expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { callHook, created, echoWorkflow, runCount, sign, triggers } from '../api/webhook-triggers-fixture';
import { standardWebhookHeaders } from './support/webhook-replay-suite';

useFreshDataDir('paiflow-webhook-timestamp-');
process.env.SEED_EXAMPLE = '0';
process.env.API_KEY_MAX_FAILURES = '1000'; // the refusals below are not what this file tests

const SECRET = 'whsec_dGhpcyBpcyBhIHN0YW5kYXJkIHdlYmhvb2sgc2VjcmV0';
const raw = JSON.stringify({ title: 'pay invoice 42' });
const now = () => Math.floor(Date.now() / 1000);
const signedAt = (ts: number, body = raw, secret = SECRET) => ({
  'content-type': 'application/json',
  'x-webhook-timestamp': String(ts),
  'x-signature': `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`,
});

let wfId = '';
let hook = '';

beforeAll(async () => {
  await getApp();
  wfId = await echoWorkflow('Timed');
  hook = (await created(wfId, { type: 'webhook', auth: { type: 'hmac', secret: SECRET }, mapping: {} })).id;
});

afterAll(async () => {
  delete process.env.API_KEY_MAX_FAILURES;
  delete process.env.WEBHOOK_TIMESTAMP_TOLERANCE_S;
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

/** The call is refused with `code` and starts no run. */
async function refused(headers: Record<string, string>, code: string, id = hook, body = raw) {
  const before = await runCount(wfId);
  const a = await callHook(id, body, headers);
  expectError(a, 401, code);
  expect(await runCount(wfId)).toBe(before);
  return a;
}

describe('X-Webhook-Timestamp: the signature covers "<timestamp>.<body>"', () => {
  it('a fresh timestamp with its signature starts a run', async () => {
    const a = await callHook(hook, raw, signedAt(now()));
    expect(a.status, a.text).toBe(202);
  });

  it('the same call replayed after the tolerance is 401 WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', async () => {
    const a = await refused(signedAt(now() - 301), 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
    expect(a.body.error.message).toMatch(/30\d s old; at most 300 s/);
    await refused(signedAt(now() + 400), 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('a replay with a fresh timestamp but the old signature is 401 INVALID_SIGNATURE', async () => {
    const captured = signedAt(now() - 3_600);
    await refused({ ...captured, 'x-webhook-timestamp': String(now()) }, 'INVALID_SIGNATURE');
  });

  it('a signature of the body alone does not cover a timestamp: 401 INVALID_SIGNATURE', async () => {
    await refused(
      { 'content-type': 'application/json', 'x-webhook-timestamp': String(now()), 'x-signature': sign(SECRET, raw) },
      'INVALID_SIGNATURE',
    );
  });

  it('a timestamp that is not Unix seconds is 401 INVALID_TIMESTAMP', async () => {
    await refused({ ...signedAt(now()), 'x-webhook-timestamp': '2026-01-01T00:00:00Z' }, 'INVALID_TIMESTAMP');
  });

  it('WEBHOOK_TIMESTAMP_TOLERANCE_S sets the window', async () => {
    process.env.WEBHOOK_TIMESTAMP_TOLERANCE_S = '30';
    try {
      await refused(signedAt(now() - 60), 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
      expect((await callHook(hook, raw, signedAt(now() - 10))).status).toBe(202);
    } finally {
      delete process.env.WEBHOOK_TIMESTAMP_TOLERANCE_S;
    }
  });

  it('without a timestamp a body signature still works (existing senders)', async () => {
    const a = await callHook(hook, raw, { 'content-type': 'application/json', 'x-signature': sign(SECRET, raw) });
    expect(a.status, a.text).toBe(202);
  });
});

describe('Standard Webhooks: v1 signatures over "<id>.<timestamp>.<body>"', () => {
  it('a fresh call starts a run; the same call after the tolerance is refused', async () => {
    const fresh = await callHook(hook, raw, standardWebhookHeaders(SECRET, 'msg_fresh', raw));
    expect(fresh.status, fresh.text).toBe(202);
    await refused(standardWebhookHeaders(SECRET, 'msg_old', raw, now() - 301), 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('another secret, another id under the same signature, or a missing id are 401 INVALID_SIGNATURE', async () => {
    const other = 'whsec_c29tZSBvdGhlciBzZWNyZXQgb2YgdGhlIHNlbmRlcg==';
    await refused(standardWebhookHeaders(other, 'msg_a', raw), 'INVALID_SIGNATURE');
    const signed = standardWebhookHeaders(SECRET, 'msg_b', raw);
    await refused({ ...signed, 'webhook-id': 'msg_c' }, 'INVALID_SIGNATURE');
    const { 'webhook-id': _id, ...withoutId } = signed;
    await refused(withoutId, 'INVALID_SIGNATURE');
  });

  it("the spec's published example (Svix's docs) verifies, at its own time", async () => {
    const example = await created(wfId, {
      type: 'webhook',
      auth: { type: 'hmac', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      mapping: { title: 'test {{body.test}}' },
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1614265330_000 + 5_000);
    try {
      const a = await callHook(example.id, '{"test": 2432232314}', {
        'content-type': 'application/json',
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      });
      expect(a.status, a.text).toBe(202);
    } finally {
      vi.useRealTimers();
    }
  });

  it('one matching signature among several (a sender rotating its secret) is enough', async () => {
    const signed = standardWebhookHeaders(SECRET, 'msg_rotating', raw);
    const a = await callHook(hook, raw, {
      ...signed,
      'webhook-signature': `v1,${Buffer.alloc(32, 7).toString('base64')} ${signed['webhook-signature']}`,
    });
    expect(a.status, a.text).toBe(202);
  });
});

describe('a hook may require a signed timestamp', () => {
  it('requireTimestamp: a body-only signature is 401 MISSING_TIMESTAMP; a timestamped one runs', async () => {
    const strict = await created(wfId, {
      type: 'webhook',
      auth: { type: 'hmac', secret: SECRET, requireTimestamp: true },
      mapping: {},
    });
    expect(strict.auth).toEqual({ type: 'hmac', requireTimestamp: true, hasSecret: true });
    await refused(
      { 'content-type': 'application/json', 'x-signature': sign(SECRET, raw) },
      'MISSING_TIMESTAMP',
      strict.id,
    );
    expect((await callHook(strict.id, raw, signedAt(now()))).status).toBe(202);
    expect((await callHook(strict.id, raw, standardWebhookHeaders(SECRET, 'msg_strict', raw))).status).toBe(202);
  });

  it('only an hmac hook can require one: 400 at auth.requireTimestamp', async () => {
    const a = await triggers.create(wfId, {
      type: 'webhook',
      auth: { type: 'header', secret: 'header-secret-0123456789', requireTimestamp: true },
    });
    expectError(a, 400, 'VALIDATION_ERROR', 'auth.requireTimestamp');
  });
});
