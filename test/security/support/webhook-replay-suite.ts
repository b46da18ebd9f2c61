/**
 * The webhook delivery-id contract, shared by the embedded-store and PostgreSQL test files (the caller points the
 * environment at its database first): a call repeated with the same delivery id — GitHub's `X-GitHub-Delivery`,
 * Standard Webhooks' `webhook-id` (re-signed with a new timestamp on every retry, as senders do) or `Idempotency-Key`
 * — starts one run, and every repeat answers like the first call (same run id, `Idempotent-Replayed: true`), also
 * after the server restarts. Another delivery id is another run.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { expectNoServerErrorsOrStacks } from '../../api/api-helpers';
import { callHook, created, echoWorkflow, runCount, sign } from '../../api/webhook-triggers-fixture';

/** Standard Webhooks signing, as the spec's libraries do it: the key is the base64 after `whsec_`. */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  raw: string,
  nowSec = Math.floor(Date.now() / 1000),
) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const sig = createHmac('sha256', key).update(`${id}.${nowSec}.${raw}`).digest('base64');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(nowSec),
    'webhook-signature': `v1,${sig}`,
  };
}

async function restartApp(): Promise<void> {
  const g = globalThis as { __paiflowApp?: Promise<{ close(): Promise<void> }> };
  await (await g.__paiflowApp)?.close();
  g.__paiflowApp = undefined;
  await getApp();
}

export function webhookReplaySuite(onClose?: () => Promise<void>) {
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  let wfId = '';
  let asyncHook = '';
  let waitHook = '';

  beforeAll(async () => {
    await getApp();
    wfId = await echoWorkflow('Replayed');
    asyncHook = (await created(wfId, { type: 'webhook', auth: { type: 'hmac', secret: SECRET }, mapping: {} })).id;
    waitHook = (
      await created(wfId, {
        type: 'webhook',
        auth: { type: 'hmac', secret: SECRET },
        mapping: {},
        response: 'wait',
      })
    ).id;
  });

  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await onClose?.();
  });

  /** Sends the same call four times; every answer names one run, and only one run was started. */
  async function sendFourTimes(send: () => Promise<{ status: number; body: any; headers: Headers; text: string }>) {
    const before = await runCount(wfId);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send());
    const first = answers[0];
    expect(first.status, first.text).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const a of answers.slice(1)) {
      expect(a.status, a.text).toBe(202);
      expect(a.body.runId).toBe(first.body.runId);
      expect(a.headers.get('x-run-id')).toBe(first.body.runId);
      expect(a.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await runCount(wfId)).toBe(before + 1);
    return first.body.runId as string;
  }

  describe('the same delivery id starts one run', () => {
    const raw = JSON.stringify({ title: 'deploy' });

    it('X-GitHub-Delivery: 4 sends → 1 run, every answer with its id', async () => {
      const headers = {
        'content-type': 'application/json',
        'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
        'x-hub-signature-256': sign(SECRET, raw),
      };
      await sendFourTimes(() => callHook(asyncHook, raw, headers));
    });

    it('Standard Webhooks webhook-id, re-signed on each retry: 4 sends → 1 run', async () => {
      let t = Math.floor(Date.now() / 1000) - 40;
      await sendFourTimes(() =>
        callHook(asyncHook, raw, standardWebhookHeaders(SECRET, 'msg_2KWPBgLlAfxdpx2A', raw, t++)),
      );
    });

    it('Idempotency-Key: 4 sends → 1 run', async () => {
      const headers = {
        'content-type': 'application/json',
        'idempotency-key': 'order-17',
        'x-signature': sign(SECRET, raw),
      };
      await sendFourTimes(() => callHook(asyncHook, raw, headers));
    });

    it('a wait-mode hook answers a repeat with the first run and its outputs', async () => {
      const body = JSON.stringify({ title: 'waited' });
      const headers = {
        'content-type': 'application/json',
        'x-github-delivery': 'd-wait',
        'x-signature': sign(SECRET, body),
      };
      const first = await callHook(waitHook, body, headers);
      expect(first.status, first.text).toBe(200);
      const again = await callHook(waitHook, body, headers);
      expect(again.status, again.text).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });

    it('another delivery id is another run', async () => {
      const before = await runCount(wfId);
      for (const id of ['d-one', 'd-two']) {
        const a = await callHook(asyncHook, raw, {
          'content-type': 'application/json',
          'x-github-delivery': id,
          'x-signature': sign(SECRET, raw),
        });
        expect(a.status, a.text).toBe(202);
      }
      expect(await runCount(wfId)).toBe(before + 2);
    });

    it('a malformed delivery id is a 400 with its path, and starts nothing', async () => {
      const before = await runCount(wfId);
      const a = await callHook(asyncHook, raw, {
        'content-type': 'application/json',
        'x-github-delivery': 'x'.repeat(300),
        'x-signature': sign(SECRET, raw),
      });
      expect({ status: a.status, code: a.body.error.code, path: a.body.error.path }).toEqual({
        status: 400,
        code: 'INVALID_DELIVERY_ID',
        path: 'headers.x-github-delivery',
      });
      expect(await runCount(wfId)).toBe(before);
    });
  });

  describe('the delivery ids outlive the process', () => {
    it('a delivery repeated after a restart answers with the run from before it', async () => {
      const raw = JSON.stringify({ title: 'before the restart' });
      const headers = {
        'content-type': 'application/json',
        'x-github-delivery': 'd-restart',
        'x-signature': sign(SECRET, raw),
      };
      const first = await callHook(asyncHook, raw, headers);
      expect(first.status, first.text).toBe(202);
      const before = await runCount(wfId);
      await restartApp();
      const again = await callHook(asyncHook, raw, headers);
      expect(again.status, again.text).toBe(202);
      expect(again.body.runId).toBe(first.body.runId);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await runCount(wfId)).toBe(before);
    });
  });
}
