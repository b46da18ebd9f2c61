/**
 * Guarantee: every completion callback of a published run carries `X-PaiFlow-Timestamp` and `X-PaiFlow-Signature:
 * sha256=<HMAC-SHA256(secret, "<timestamp>.<raw body>")>` with the workflow's secret, which its editors read from
 * GET /api/workflows/:id/callback-secret; a receiver using verifyCallbackSignature accepts it as sent and refuses a
 * tampered body, a timestamp outside the window and another secret; a rotation signs the next callback with the
 * new secret only. The secret is stored encrypted and appears in no run record, answer or log line.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as v1GetRun } from '@/app/api/v1/runs/[runId]/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as rotate } from '@/app/api/workflows/[id]/callback-secret/rotate/route';
import { GET as readSecret } from '@/app/api/workflows/[id]/callback-secret/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { verifyCallbackSignature } from '@/lib/server/publishing/callback-signature';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';
import { bearer } from './v1-endpoint-helpers';
import { databaseOf } from '../support/database-of';

useFreshDataDir('paiflow-callback-sig-');
process.env.SEED_EXAMPLE = '0';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  /** What the receiver answered: 204 when the signature verified with `receiverSecret`, else 401. */
  answered: number;
}

let hook: Server;
let hookUrl = '';
/** The secret the receiver verifies with (as a real receiver would be configured); null: accept anything. */
let receiverSecret: string | null = null;
const received: Received[] = [];
const logged: string[] = [];

let wfId = '';
let slug = '';
let apiKey = '';

const header = (h: IncomingHttpHeaders, name: string) => String(h[name] ?? '');

async function asyncRunWithCallback(message: string): Promise<{ runId: string; cb: Received }> {
  const r = await call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
    params: { slug },
    body: { inputs: { message }, mode: 'async', callbackUrl: hookUrl },
    headers: bearer(apiKey),
  });
  expect(r.status, r.text).toBe(202);
  const runId: string = r.body.runId;
  const until = Date.now() + 30_000;
  let cb: Received | undefined;
  while (!(cb = received.find((c) => header(c.headers, 'x-paiflow-run-id') === runId)) && Date.now() < until)
    await new Promise((ok) => setTimeout(ok, 50));
  expect(cb, `a callback for ${runId}`).toBeDefined();
  return { runId, cb: cb! };
}

const secretOf = async () => {
  const a = await call(readSecret, 'GET', `/api/workflows/${wfId}/callback-secret`, { params: { id: wfId } });
  expect(a.status, a.text).toBe(200);
  expect(a.headers.get('cache-control')).toBe('no-store');
  return a.body as { secret: string; createdAt: string };
};

const verify = (cb: Received, secret: string, extra: { body?: string; now?: number } = {}) =>
  verifyCallbackSignature({
    secret,
    body: extra.body ?? cb.raw,
    timestamp: header(cb.headers, 'x-paiflow-timestamp'),
    signature: header(cb.headers, 'x-paiflow-signature'),
    ...(extra.now !== undefined ? { now: extra.now } : {}),
  });

beforeAll(async () => {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
  hook = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      const ok =
        receiverSecret === null ||
        verifyCallbackSignature({
          secret: receiverSecret,
          body: raw,
          timestamp: header(req.headers, 'x-paiflow-timestamp'),
          signature: header(req.headers, 'x-paiflow-signature'),
        }).ok;
      received.push({ headers: req.headers, raw, answered: ok ? 204 : 401 });
      res.writeHead(ok ? 204 : 401).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const port = (hook.address() as AddressInfo).port;
  hookUrl = `http://127.0.0.1:${port}/paiflow-done`;
  // The SSRF guard refuses loopback unless allowlisted; set before the app reads its config.
  process.env.HTTP_ALLOWLIST = `127.0.0.1:${port}`;
  await getApp();

  const wf = await call(createWf, 'POST', '/api/workflows', {
    body: { name: 'Signed Callbacks', graph: simpleGraph('Hello {{inputs.message}}') },
  });
  expect(wf.status, wf.text).toBe(201);
  wfId = wf.body.id;
  const p = await call(publish, 'POST', `/api/workflows/${wfId}/publish`, { params: { id: wfId } });
  expect(p.status, p.text).toBe(201);
  slug = p.body.slug;
  const k = await call(createKey, 'POST', `/api/workflows/${wfId}/api-keys`, { params: { id: wfId }, body: {} });
  expect(k.status, k.text).toBe(201);
  apiKey = k.body.key;
});

afterAll(async () => {
  await (await getApp()).close();
  hook.closeAllConnections();
  await new Promise<void>((r) => hook.close(() => r()));
  vi.restoreAllMocks();
});

describe('signed completion callbacks', () => {
  let first: Received;
  let firstSecret = '';

  it('the first callback makes the secret; the one the API shows verifies the body as received', async () => {
    const { runId, cb } = await asyncRunWithCallback('signed');
    first = cb;
    expect(JSON.parse(cb.raw)).toMatchObject({ runId, status: 'succeeded', outputs: { text: 'Hello signed' } });
    expect(header(cb.headers, 'x-paiflow-timestamp')).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(header(cb.headers, 'x-paiflow-timestamp')) - Date.now() / 1000)).toBeLessThan(120);
    expect(header(cb.headers, 'x-paiflow-signature')).toMatch(/^sha256=[0-9a-f]{64}$/);
    const s = await secretOf();
    expect(s.secret).toMatch(/^pfcs_[A-Za-z0-9_-]{43}$/);
    expect(Number.isNaN(Date.parse(s.createdAt))).toBe(false);
    expect((await secretOf()).secret).toBe(s.secret); // stable until rotated
    firstSecret = s.secret;
    expect(verify(cb, s.secret)).toEqual({ ok: true });
  });

  it('a tampered body, a stale or future timestamp, another secret or a missing header fail verification', () => {
    const ts = Number(header(first.headers, 'x-paiflow-timestamp'));
    const tampered = first.raw.replace('Hello signed', 'Hello forged');
    expect(tampered).not.toBe(first.raw);
    expect(verify(first, firstSecret, { body: tampered })).toEqual({ ok: false, reason: 'MISMATCH' });
    expect(verify(first, firstSecret, { body: first.raw + ' ' })).toEqual({ ok: false, reason: 'MISMATCH' });
    expect(verify(first, 'pfcs_not-the-secret')).toEqual({ ok: false, reason: 'MISMATCH' });
    // Replayed six minutes later, or "sent" from six minutes ahead: outside the default five-minute window.
    expect(verify(first, firstSecret, { now: (ts + 301) * 1000 })).toEqual({ ok: false, reason: 'STALE' });
    expect(verify(first, firstSecret, { now: (ts - 301) * 1000 })).toEqual({ ok: false, reason: 'STALE' });
    expect(verify(first, firstSecret, { now: (ts + 299) * 1000 })).toEqual({ ok: true });
    // A replay with a fresh timestamp but the old signature does not verify either: the timestamp is signed.
    const shifted = verifyCallbackSignature({
      secret: firstSecret,
      body: first.raw,
      timestamp: ts + 60,
      signature: header(first.headers, 'x-paiflow-signature'),
      now: (ts + 60) * 1000,
    });
    expect(shifted).toEqual({ ok: false, reason: 'MISMATCH' });
    const base = { secret: firstSecret, body: first.raw };
    expect(verifyCallbackSignature({ ...base, timestamp: ts, signature: undefined }).ok).toBe(false);
    expect(verifyCallbackSignature({ ...base, timestamp: '', signature: 'sha256=00' })).toEqual({
      ok: false,
      reason: 'MALFORMED',
    });
  });

  it('rotating changes the secret the next callback is signed with; the old one no longer verifies', async () => {
    const r = await call(rotate, 'POST', `/api/workflows/${wfId}/callback-secret/rotate`, { params: { id: wfId } });
    expect(r.status, r.text).toBe(200);
    const rotated: string = r.body.secret;
    expect(rotated).toMatch(/^pfcs_/);
    expect(rotated).not.toBe(firstSecret);
    expect((await secretOf()).secret).toBe(rotated);

    receiverSecret = rotated; // the receiver is reconfigured with the new secret
    const { cb } = await asyncRunWithCallback('rotated');
    expect(cb.answered).toBe(204);
    expect(verify(cb, rotated)).toEqual({ ok: true });
    expect(verify(cb, firstSecret)).toEqual({ ok: false, reason: 'MISMATCH' });

    // A receiver still on the old secret refuses the next one (and PaiFlow does not retry a 4xx).
    receiverSecret = firstSecret;
    const { cb: refused } = await asyncRunWithCallback('old secret');
    expect(refused.answered).toBe(401);
    receiverSecret = null;
  }, 120_000);

  it('the secret is stored encrypted and appears in no run record, answer or log line', async () => {
    const { secret } = await secretOf();
    const app = await getApp();
    const rows = await databaseOf(app).prisma.$queryRaw<Array<{ callback_secret: string }>>`
      SELECT callback_secret FROM workflows WHERE id = ${wfId}`;
    expect(rows[0].callback_secret).toMatch(/^v1:/);
    expect(rows[0].callback_secret).not.toContain(secret.slice(5, 20));

    const { runId, cb } = await asyncRunWithCallback('leak check');
    const editorView = await call(getRun, 'GET', `/api/runs/${runId}`, { params: { runId } });
    const v1View = await call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, { params: { runId }, headers: bearer(apiKey) });
    const events = await databaseOf(app).prisma.runEvent.findMany({ where: { runId } });
    const everything = [
      editorView.text,
      v1View.text,
      JSON.stringify(events),
      ...received.map((c) => c.raw + JSON.stringify(c.headers)),
      ...logged,
    ].join('\n');
    expect(editorView.status).toBe(200);
    expect(cb.raw).not.toContain('pfcs_');
    for (const s of [secret, firstSecret]) expect(everything).not.toContain(s);
  });

  it('is for the workflow’s editors only: anonymous → 401, an unknown workflow → 404', async () => {
    const anon = await call(readSecret, 'GET', `/api/workflows/${wfId}/callback-secret`, {
      params: { id: wfId },
      anonymous: true,
    });
    expectError(anon, 401, anon.body?.error?.code);
    expectError(
      await call(rotate, 'POST', '/api/workflows/wf_nope/callback-secret/rotate', { params: { id: 'wf_nope' } }),
      404,
      'WORKFLOW_NOT_FOUND',
    );
    expectNoServerErrorsOrStacks();
  });
});
