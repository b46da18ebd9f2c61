/**
 * API keys of published workflows. A key is `pf_` + 32 random bytes (base64url), shown once; the database keeps only
 * its sha256, looked up by that hash (unique index) and compared in constant time. Every request reads the key's row,
 * so a revocation is effective on the next request, in every process.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { PaiError } from '@/engine/errors';
import type { ApiKeyRecord, PublishedWorkflow } from '@/engine/store/publishing';
import type { App } from '../app-types';
import { clientIp } from '../auth/request-info';
import { httpError } from '@/lib/http/errors';
import { corsOf } from './v1-http';
import { v1Settings } from './v1-settings';

const KEY_RE = /^pf_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 10; // "pf_" + 7 characters: enough to tell keys apart in a list, useless to guess the rest
/** lastUsedAt is a hint for people, not an audit log: write it at most this often per key. */
const TOUCH_EVERY_MS = 60_000;

const sha256 = (s: string) => createHash('sha256').update(s).digest();

export async function mintApiKey(app: App, workflowId: string, name: string) {
  const key = `pf_${randomBytes(32).toString('base64url')}`;
  const rec = await app.store.createApiKey({
    id: `key_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    workflowId,
    name,
    prefix: key.slice(0, PREFIX_LENGTH),
    hash: sha256(key).toString('hex'),
  });
  return { ...presentKey(rec), key };
}

export function presentKey(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
  };
}

function unauthorized(message: string, tokenGiven: boolean): PaiError {
  // RFC 6750: a request without credentials gets the bare challenge; a bad token gets error="invalid_token".
  const challenge = tokenGiven ? 'Bearer realm="paiflow", error="invalid_token"' : 'Bearer realm="paiflow"';
  return httpError('UNAUTHORIZED', message, 401, { 'www-authenticate': challenge });
}

/**
 * The bearer token's sha256, or 401 when there is none or it cannot be a key; 429 first when the client address has
 * failed too often lately (a request without any key is not a guess and is not counted).
 */
function bearerHash(app: App, req: Request): Buffer {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.get('authorization') ?? '');
  if (!m) throw unauthorized('an API key is required: Authorization: Bearer <key>', false);
  const failures = v1Settings(app).keyFailures;
  const retryAfter = failures.retryAfterSec(clientIp(req));
  if (retryAfter > 0)
    throw httpError('TOO_MANY_ATTEMPTS', `too many failed API-key attempts; retry in ${retryAfter} s`, 429, {
      'retry-after': String(retryAfter),
    });
  if (!KEY_RE.test(m[1])) throw failed(app, req, unauthorized('the API key is not valid', true));
  return sha256(m[1]);
}

/** Counts a failed attempt of the request's client address; returns the error to throw. */
function failed(app: App, req: Request, error: PaiError): PaiError {
  v1Settings(app).keyFailures.fail(clientIp(req));
  return error;
}

/** The stored key if it matches `hash` (constant-time) and is not revoked, else 401; notes its use. */
function liveKey(app: App, req: Request, hash: Buffer, rec: (ApiKeyRecord & { hash: string }) | null): ApiKeyRecord {
  const stored = rec ? Buffer.from(rec.hash, 'hex') : Buffer.alloc(hash.length);
  if (!rec || stored.length !== hash.length || !timingSafeEqual(stored, hash) || rec.revokedAt) {
    throw failed(app, req, unauthorized('the API key is not valid or was revoked', true));
  }
  const now = Date.now();
  if (!rec.lastUsedAt || now - Date.parse(rec.lastUsedAt) > TOUCH_EVERY_MS)
    void app.store.touchApiKey(rec.id, new Date(now)).catch(() => {});
  const { hash: _hash, ...key } = rec;
  return key;
}

/** The live key the request bears, or 401. */
export async function authenticate(app: App, req: Request): Promise<ApiKeyRecord> {
  const hash = bearerHash(app, req);
  return liveKey(app, req, hash, await app.store.findApiKeyByHash(hash.toString('hex')));
}

/** Spends one token of the key's rate limit, or 429 with Retry-After. */
export function rateLimit(app: App, key: ApiKeyRecord): void {
  const t = v1Settings(app).limiter.take(key.id);
  if (!t.ok) {
    throw httpError('RATE_LIMITED', `too many requests for this API key; retry in ${t.retryAfterSec} s`, 429, {
      'retry-after': String(t.retryAfterSec),
    });
  }
}

/**
 * The run endpoint's checks with one database read: the key (401), its rate limit (429), the workflow published
 * under `slug` (404), and that the key is that workflow's (403), in that order.
 */
export async function authorizeForSlug(
  app: App,
  req: Request,
  slug: string,
): Promise<{ key: ApiKeyRecord; workflow: PublishedWorkflow }> {
  const hash = bearerHash(app, req);
  const found = await app.store.findKeyAndPublished(hash.toString('hex'), slug);
  if (found.workflow) corsOf(req, found.workflow); // answers, errors too, carry this workflow's CORS headers
  const key = liveKey(app, req, hash, found.key);
  rateLimit(app, key);
  if (!found.workflow) throw new PaiError('NOT_PUBLISHED', `no published workflow "${slug}"`);
  if (found.workflow.id !== key.workflowId) throw new PaiError('FORBIDDEN', 'this API key belongs to another workflow');
  return { key, workflow: found.workflow };
}

/**
 * A v1 request's key: authenticated (401), then rate-limited (429). Which workflow it may touch is the caller's check.
 */
export async function authorize(app: App, req: Request): Promise<ApiKeyRecord> {
  const key = await authenticate(app, req);
  rateLimit(app, key);
  return key;
}
