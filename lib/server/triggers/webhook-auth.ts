/**
 * Who may call a webhook, and whether this call was seen before.
 *
 * Authentication (`hmac`), in the schemes senders use:
 * - `X-Signature` (or GitHub's `X-Hub-Signature-256`): `sha256=<hex HMAC-SHA256(secret, raw body)>`. With
 *   `X-Webhook-Timestamp: <unix seconds>` the signature is over `<timestamp>.<raw body>` (Stripe's construction), and
 *   a timestamp further than WEBHOOK_TIMESTAMP_TOLERANCE_S from now is refused, so a captured call cannot be replayed
 *   later.
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` (several, space-separated)
 *   over `<id>.<timestamp>.<raw body>`; the key is the base64 after `whsec_` when the secret has that form, as the
 *   spec says, else the secret's bytes. The same tolerance applies.
 * A trigger with `auth.requireTimestamp` refuses calls without a signed timestamp.
 *
 * Every refusal counts toward the client address's lock-out, the same FailureWindow as wrong API keys
 * (API_KEY_MAX_FAILURES within API_KEY_FAILURE_WINDOW_S): guessing across many hooks, or between hooks and the
 * published API, is one budget per address.
 *
 * Deduplication: a call's delivery id (`webhook-id`, `Idempotency-Key`, `X-GitHub-Delivery`, in that order) becomes
 * the run's idempotency key within the hook, so a redelivered or replayed call finds the first run (kept in the runs
 * table: across restarts, replicas and both stores) instead of starting another.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { settings } from '@/engine/config/settings';
import { PaiError } from '@/engine/errors';
import { answerWith, httpError } from '@/lib/http/errors';
import type { App } from '../app-types';
import { clientIp } from '../auth/request-info';
import { idempotencyKeyOf } from '../publishing/published-runs';
import { v1Settings } from '../publishing/v1-settings';
import { DEFAULT_SECRET_HEADER, type WebhookConfig } from './trigger-schema';
import { triggersOf, type WebhookToRun } from './triggers';

/** Signature headers read for `hmac`: ours, and GitHub's name for the same `sha256=<hex>` value. */
const SIGNATURE_HEADERS = ['x-signature', 'x-hub-signature-256'];
/** Every header a signature comes in: never handed to the run. */
export const SIGNATURE_HEADER_NAMES = [...SIGNATURE_HEADERS, 'webhook-signature'];
const TIMESTAMP_HEADER = 'x-webhook-timestamp';
const DELIVERY_ID_RE = /^[\x21-\x7e]{1,255}$/;
const TIMESTAMP_RE = /^\d{1,12}$/;
const BASE64_RE = /^[A-Za-z0-9+/_-]+={0,2}$/;

export interface Delivery {
  /** The run's idempotency key within the hook. */
  key: string;
  /** Idempotency-Key: a repeat must carry the same inputs (409 otherwise); a delivery id answers the first run. */
  sameInputsRequired: boolean;
}

/** 401 unless the call carries the trigger's secret (header) or a valid, timely signature (hmac); 429 when locked. */
export function authenticateCall(
  app: App,
  req: Request,
  trigger: WebhookToRun['trigger'],
  config: WebhookConfig,
  raw: Buffer,
): void {
  if (config.auth.type === 'none') return;
  const failures = v1Settings(app).keyFailures;
  const caller = clientIp(req);
  const retryAfter = failures.retryAfterSec(caller);
  if (retryAfter > 0)
    throw httpError('TOO_MANY_ATTEMPTS', `too many failed authentication attempts; retry in ${retryAfter} s`, 429, {
      'retry-after': String(retryAfter),
    });
  const secret = triggersOf(app).secretOf(trigger) ?? '';
  const refuse = (code: string, message: string) => {
    failures.fail(caller);
    // Whatever the reason, the caller did not prove it holds the secret: 401.
    return answerWith(new PaiError(code, message), 401);
  };
  if (config.auth.type === 'header') {
    const name = config.auth.header ?? DEFAULT_SECRET_HEADER;
    const given = req.headers.get(name);
    if (given === null) throw refuse('MISSING_SECRET', `the webhook secret is required in the ${name} header`);
    if (!sameText(given, secret))
      throw refuse('INVALID_SECRET', `the ${name} header does not hold this webhook's secret`);
    return;
  }
  const standard = req.headers.get('webhook-signature');
  const timestamp =
    standard !== null ? checkStandardWebhook(req, secret, raw, refuse) : checkSignature(req, secret, raw, refuse);
  if (timestamp === null) {
    if (config.auth.requireTimestamp)
      throw refuse(
        'MISSING_TIMESTAMP',
        'this webhook requires a signed timestamp: X-Webhook-Timestamp (signature over "<timestamp>.<body>") or ' +
          'the Standard Webhooks headers',
      );
    return;
  }
  const tolerance = settings().WEBHOOK_TIMESTAMP_TOLERANCE_S;
  const skew = Math.round(Date.now() / 1000 - Number(timestamp));
  if (Math.abs(skew) > tolerance)
    throw refuse(
      'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE',
      `the signed timestamp is ${Math.abs(skew)} s ${skew > 0 ? 'old' : 'ahead'}; at most ${tolerance} s either way ` +
        'is accepted (a replay, or a sender whose clock is off)',
    );
}

type Refuse = (code: string, message: string) => PaiError;

/** `X-Signature: sha256=<hex>` over the body, or over `<timestamp>.<body>` with X-Webhook-Timestamp; its timestamp. */
function checkSignature(req: Request, secret: string, raw: Buffer, refuse: Refuse): string | null {
  const header = SIGNATURE_HEADERS.map((h) => req.headers.get(h)).find((v) => v !== null);
  if (!header)
    throw refuse('MISSING_SIGNATURE', 'the body must be signed: X-Signature: sha256=<hex HMAC-SHA256 of the body>');
  const timestamp = req.headers.get(TIMESTAMP_HEADER)?.trim() ?? null;
  if (timestamp !== null && !TIMESTAMP_RE.test(timestamp))
    throw refuse('INVALID_TIMESTAMP', 'X-Webhook-Timestamp must be a Unix time in seconds');
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  const hmac = createHmac('sha256', secret);
  if (timestamp !== null) hmac.update(`${timestamp}.`);
  const expected = hmac.update(raw).digest();
  if (!m || !timingSafeEqual(Buffer.from(m[1], 'hex'), expected))
    throw refuse(
      'INVALID_SIGNATURE',
      timestamp === null
        ? 'the signature does not match the body (X-Signature: sha256=<hex>)'
        : 'the signature does not match "<X-Webhook-Timestamp>.<body>" (X-Signature: sha256=<hex>)',
    );
  return timestamp;
}

/** Standard Webhooks: `v1,<base64>` over `<webhook-id>.<webhook-timestamp>.<body>`; its timestamp. */
function checkStandardWebhook(req: Request, secret: string, raw: Buffer, refuse: Refuse): string {
  const id = req.headers.get('webhook-id');
  const timestamp = req.headers.get('webhook-timestamp')?.trim();
  if (!id || !timestamp)
    throw refuse('INVALID_SIGNATURE', 'a webhook-signature needs its webhook-id and webhook-timestamp headers');
  if (!TIMESTAMP_RE.test(timestamp))
    throw refuse('INVALID_TIMESTAMP', 'webhook-timestamp must be a Unix time in seconds');
  const expected = createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestamp}.`).update(raw).digest();
  const given = (req.headers.get('webhook-signature') ?? '')
    .split(' ')
    .map((s) => /^v1,([A-Za-z0-9+/]+={0,2})$/.exec(s)?.[1])
    .filter((b): b is string => !!b)
    .map((b) => Buffer.from(b, 'base64'));
  if (!given.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected)))
    throw refuse('INVALID_SIGNATURE', 'no v1 signature matches "<webhook-id>.<webhook-timestamp>.<body>"');
  return timestamp;
}

/** The spec's key: the bytes base64-encoded after `whsec_`; any other secret is used as it is. */
function standardWebhooksKey(secret: string): Buffer {
  const rest = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : '';
  return rest && BASE64_RE.test(rest) ? Buffer.from(rest, 'base64') : Buffer.from(secret);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The call's delivery id as the run's idempotency key within this hook, or null. The sender's id is this hook's
 * own: the same id on another hook, the published API or a schedule's tick (`schedule:…`) is another run.
 */
export function deliveryOf(req: Request, triggerId: string): Delivery | null {
  const own = (id: string) => `hook:${triggerId}:${id}`;
  const standardId = deliveryId(req, 'webhook-id');
  if (standardId !== null) return { key: own(standardId), sameInputsRequired: false };
  const idempotencyKey = idempotencyKeyOf(req);
  if (idempotencyKey !== null) return { key: own(idempotencyKey), sameInputsRequired: true };
  const github = deliveryId(req, 'x-github-delivery');
  return github === null ? null : { key: own(github), sameInputsRequired: false };
}

function deliveryId(req: Request, header: string): string | null {
  const id = req.headers.get(header);
  if (id === null) return null;
  if (!DELIVERY_ID_RE.test(id))
    throw new PaiError('INVALID_DELIVERY_ID', `${header} must be 1–255 visible ASCII characters`, {
      path: `headers.${header}`,
    });
  return id;
}
