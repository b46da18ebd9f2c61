/**
 * What a single sign-on remembers between sending the browser to the issuer and its return: the state, the nonce,
 * the PKCE verifier, where to go afterwards. It lives in the browser, in a cookie that is
 *  - encrypted and authenticated (AES-256-GCM under a key derived from the credentials master key, so every replica
 *    of one deployment reads it, and nobody can read the verifier or forge a state);
 *  - httpOnly, SameSite=Lax (sent on the issuer's top-level redirect back), Secure behind HTTPS, scoped to
 *    /api/auth/oidc, and short-lived: 10 minutes, checked inside the sealed value too;
 *  - cleared by the callback, whatever its outcome.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readCookie } from '../auth/cookies';
import { isHttps } from '../auth/request-info';

export const SSO_STATE_COOKIE = 'paiflow_oidc';
const COOKIE_PATH = '/api/auth/oidc';
export const SSO_STATE_TTL_SECONDS = 600;

export interface SsoState {
  state: string;
  nonce: string;
  verifier: string;
  /** The issuer the sign-in started at: a callback after OIDC_ISSUER changed is refused. */
  issuer: string;
  /** The redirect_uri sent to the issuer (the token request repeats it exactly). */
  redirectUri: string;
  /** Where the browser goes once signed in: a path on this site. */
  next: string;
}

/** The cookie's key: its own, derived from the master key, never the key that encrypts credentials. */
export function stateKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'paiflow-oidc-state-v1', 32));
}

export function sealState(key: Buffer, value: SsoState, now = Date.now()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const plain = JSON.stringify({ ...value, exp: now + SSO_STATE_TTL_SECONDS * 1000 });
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
}

/** The sealed value, or null when it is missing, forged, made with another key or expired. */
export function openState(key: Buffer, sealed: string | undefined, now = Date.now()): SsoState | null {
  if (!sealed) return null;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const { exp, ...value } = JSON.parse(plain) as SsoState & { exp: number };
    return typeof exp === 'number' && exp > now ? value : null;
  } catch {
    return null;
  }
}

export function readStateCookie(req: Request): string | undefined {
  return readCookie(req, SSO_STATE_COOKIE);
}

export function stateCookie(req: Request, sealed: string): string {
  return cookie(req, sealed, SSO_STATE_TTL_SECONDS);
}

export function clearedStateCookie(req: Request): string {
  return cookie(req, '', 0);
}

function cookie(req: Request, value: string, maxAge: number): string {
  return [
    `${SSO_STATE_COOKIE}=${value}`,
    `Path=${COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAge}`,
    ...(isHttps(req) ? ['Secure'] : []),
  ].join('; ');
}
