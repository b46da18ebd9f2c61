/**
 * Signatures of completion callbacks, in the scheme of Stripe and Standard Webhooks: the sender puts the time in
 * `X-PaiFlow-Timestamp` (Unix seconds) and `X-PaiFlow-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw
 * body>")>`. Signing the timestamp with the body lets a receiver refuse an old delivery replayed later (the
 * tolerance window) without keeping every body it has seen; within the window it deduplicates by
 * `X-PaiFlow-Run-Id`. This file needs nothing of the app, so a receiver in Node can use it as it is.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TIMESTAMP_HEADER = 'x-paiflow-timestamp';
export const SIGNATURE_HEADER = 'x-paiflow-signature';
/** Five minutes either way, Stripe's default: room for clock skew and a slow network, not for a replay days later. */
export const DEFAULT_TOLERANCE_SEC = 300;

type Body = string | Uint8Array;

function hmacHex(secret: string, timestamp: string, body: Body): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** `sha256=<hex>` for `body` sent at `timestamp` (Unix seconds). */
export function signCallback(secret: string, timestamp: number, body: Body): string {
  return `sha256=${hmacHex(secret, String(timestamp), body)}`;
}

/** The two headers a signed callback carries; `nowMs`: the sending time (default now). */
export function callbackSignatureHeaders(secret: string, body: Body, nowMs = Date.now()): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signCallback(secret, timestamp, body) };
}

export type VerifyResult =
  | { ok: true }
  | {
      ok: false;
      /** MALFORMED: a header is missing or not in its format; STALE: outside the window; MISMATCH: wrong signature. */
      reason: 'MALFORMED' | 'STALE' | 'MISMATCH';
    };

/**
 * Checks a received callback. `body` must be the raw bytes (or the exact text) as received, before any JSON
 * parsing; `timestamp` and `signature` are the header values. `signature` may hold several `sha256=` values
 * separated by spaces or commas (any one matching is enough). `now`: milliseconds since the epoch (default
 * `Date.now()`); `toleranceSec`: how far the timestamp may be from it, either way.
 */
export function verifyCallbackSignature({
  secret,
  body,
  timestamp,
  signature,
  toleranceSec = DEFAULT_TOLERANCE_SEC,
  now = Date.now(),
}: {
  secret: string;
  body: Body;
  timestamp: string | number | null | undefined;
  signature: string | null | undefined;
  toleranceSec?: number;
  now?: number;
}): VerifyResult {
  const ts = String(timestamp ?? '').trim();
  if (!/^\d{1,12}$/.test(ts) || !signature) return { ok: false, reason: 'MALFORMED' };
  const given = signature
    .split(/[\s,]+/)
    .map((s) => /^sha256=([0-9a-f]{64})$/i.exec(s)?.[1])
    .filter((hex): hex is string => !!hex);
  if (!given.length) return { ok: false, reason: 'MALFORMED' };
  if (Math.abs(now / 1000 - Number(ts)) > toleranceSec) return { ok: false, reason: 'STALE' };
  const expected = Buffer.from(hmacHex(secret, ts, body), 'hex');
  const match = given.some((hex) => timingSafeEqual(Buffer.from(hex, 'hex'), expected));
  return match ? { ok: true } : { ok: false, reason: 'MISMATCH' };
}
