// Guarantee: guessing webhook secrets is one budget per client address, shared with API-key guessing. Wrong signatures
// spread over many hooks (one each) add up: after API_KEY_MAX_FAILURES of them the address gets 429
// TOO_MANY_ATTEMPTS with Retry-After on every hook — a correctly signed call included, which starts nothing — and on
// the published API with a right key; wrong API keys count toward the same lock-out. Other addresses are not affected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { bearer } from '../api/v1-endpoint-helpers';
import { callHook, created, echoWorkflow, runCount, sign } from '../api/webhook-triggers-fixture';

useFreshDataDir('paiflow-webhook-lockout-');
process.env.SEED_EXAMPLE = '0';
process.env.API_KEY_MAX_FAILURES = '5';
const TAG = 'test-client-ip-tag';
process.env.PAIFLOW_CLIENT_IP_TAG = TAG;

const SECRET = 'lockout-secret-0123456789';
const raw = '{"title":"t"}';
const from = (address: string) => ({ 'x-paiflow-client-ip': `${TAG} ${address}` });
const good = { 'content-type': 'application/json', 'x-signature': sign(SECRET, raw) };
const bad = { 'content-type': 'application/json', 'x-signature': sign('a-guessed-secret-0123456789', raw) };
const WRONG_KEY = `pf_${'x'.repeat(43)}`;

let wfId = '';
let slug = '';
let key = '';
const hooks: string[] = [];

beforeAll(async () => {
  await getApp();
  wfId = await echoWorkflow('Guessed');
  for (let i = 0; i < 7; i++)
    hooks.push((await created(wfId, { type: 'webhook', auth: { type: 'hmac', secret: SECRET }, mapping: {} })).id);
  slug = (await (await getApp()).store.getWorkflow(wfId))!.slug!;
  key = (await call(createKey, 'POST', `/api/workflows/${wfId}/api-keys`, { params: { id: wfId }, body: {} })).body.key;
});

afterAll(async () => {
  delete process.env.API_KEY_MAX_FAILURES;
  delete process.env.PAIFLOW_CLIENT_IP_TAG;
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

const v1 = (headers: Record<string, string>) =>
  call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
    params: { slug },
    body: { inputs: { title: 'v1' }, mode: 'async' },
    headers,
  });

describe('one budget per address across hooks and API keys', () => {
  it('one wrong signature on each of 5 hooks locks the address out of a 6th hook and of /api/v1', async () => {
    const guesser = from('10.1.0.1');
    for (const id of hooks.slice(0, 5))
      expectError(await callHook(id, raw, { ...bad, ...guesser }), 401, 'INVALID_SIGNATURE');
    const before = await runCount(wfId);
    const locked = await callHook(hooks[5], raw, { ...good, ...guesser });
    expectError(locked, 429, 'TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await runCount(wfId)).toBe(before);
    expectError(await v1({ ...guesser, ...bearer(key) }), 429, 'TOO_MANY_ATTEMPTS');
  });

  it('wrong API keys and wrong signatures add up', async () => {
    const guesser = from('10.1.0.2');
    for (let i = 0; i < 3; i++) expect((await v1({ ...guesser, ...bearer(WRONG_KEY) })).status).toBe(401);
    for (const id of hooks.slice(0, 2))
      expectError(await callHook(id, raw, { ...bad, ...guesser }), 401, 'INVALID_SIGNATURE');
    expectError(await callHook(hooks[6], raw, { ...good, ...guesser }), 429, 'TOO_MANY_ATTEMPTS');
  });

  it('another address is not affected', async () => {
    const a = await callHook(hooks[5], raw, { ...good, ...from('10.1.0.3') });
    expect(a.status, a.text).toBe(202);
    expect((await v1({ ...from('10.1.0.3'), ...bearer(key) })).status).toBe(202);
  });
});
