/**
 * The two legs of a single sign-on, as the routes answer them: `start` sends the browser to the issuer, `callback`
 * takes it back, checks everything, signs the user in and sends the browser on. Both are browser navigations, so they
 * answer redirects, never JSON: a failure lands on /login?error=<CODE>, which the login page shows in the user's
 * language (messages/<locale>/errors.json); the English detail goes to the server log and the audit log. Nothing here
 * answers a 500 or a stack trace.
 */
import * as oidc from 'openid-client';
import { settings } from '@/engine/config/settings';
import { PaiError } from '@/engine/errors';
import { guardErrorIn } from '@/engine/net/ssrf-guard';
import type { App } from '../app-types';
import { localRedirectPath } from '@/lib/http/local-redirect';
import { originOf } from '../publishing/v1-http';
import { loadMasterKey } from '../credentials/master-key';
import { audit } from '../auth/audit';
import { sessionCookie } from '../auth/cookies';
import { clientIp } from '../auth/request-info';
import { authorizationRequest, issuerConfig, redeemCallback } from './issuer-client';
import { signInWithIdentity } from './sso-accounts';
import { identityOf } from './sso-identity';
import { SSO_CALLBACK_PATH, SSO_START_PATH, ssoSettingsOf, type SsoSettings } from './sso-settings';
import { clearedStateCookie, openState, readStateCookie, sealState, stateCookie, stateKey } from './state-cookie';

/** Codes a failed sign-in lands on /login with (each explained in messages/<locale>/errors.json). */
export const SSO_ERROR_CODES = [
  'SSO_NOT_CONFIGURED',
  'SSO_ISSUER_UNREACHABLE',
  'SSO_STATE_MISSING',
  'SSO_STATE_MISMATCH',
  'SSO_DENIED',
  'SSO_TOKEN_REJECTED',
  'SSO_EMAIL_REQUIRED',
  'SSO_EMAIL_TAKEN',
  'SSO_SETUP_REQUIRED',
  'SSO_FAILED',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

const keys = new WeakMap<App, Buffer>();
function keyOf(app: App): Buffer {
  let key = keys.get(app);
  if (!key) keys.set(app, (key = stateKey(loadMasterKey(settings().PAIFLOW_ENCRYPTION_KEY, app.config.dataDir))));
  return key;
}

function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  for (const c of cookies) headers.append('set-cookie', c);
  return new Response(null, { status: 302, headers });
}

function callbackUrl(req: Request): string {
  return `${settings().PUBLIC_URL[0] ?? originOf(req)}${SSO_CALLBACK_PATH}`;
}

/** What went wrong, as a code of SSO_ERROR_CODES, with the English detail for the logs. */
function failureOf(e: unknown): { code: SsoErrorCode; reason: string } {
  const reason = (e as Error)?.message ?? String(e);
  const pe = e instanceof PaiError ? e : undefined;
  if (pe && (SSO_ERROR_CODES as readonly string[]).includes(pe.code)) return { code: pe.code as SsoErrorCode, reason };
  const guard = guardErrorIn(e);
  if (guard) return { code: 'SSO_ISSUER_UNREACHABLE', reason: `${guard.code}: ${guard.message}` };
  // By class, not by name: the production bundle renames classes.
  if (e instanceof oidc.AuthorizationResponseError) return { code: 'SSO_DENIED', reason: `${e.error}: ${reason}` };
  if (e instanceof oidc.ResponseBodyError) return { code: 'SSO_TOKEN_REJECTED', reason: `${e.error}: ${reason}` };
  const code = (e as { code?: string }).code ?? '';
  const cause = (e as { cause?: { message?: string } }).cause?.message;
  if (e instanceof oidc.ClientError && /^OAUTH_/.test(code))
    return { code: 'SSO_TOKEN_REJECTED', reason: `${code}: ${reason}${cause ? ` (${cause})` : ''}` };
  if (e instanceof TypeError || /fetch failed|ECONNREFUSED|timeout|aborted/i.test(reason))
    return { code: 'SSO_ISSUER_UNREACHABLE', reason: cause ? `${reason} (${cause})` : reason };
  return { code: 'SSO_FAILED', reason };
}

async function failed(app: App | undefined, req: Request, e: unknown, cookies: string[] = []): Promise<Response> {
  const { code, reason } = failureOf(e);
  console.warn(`[paiflow] single sign-on failed: ${code}: ${reason}`);
  // Only sign-ins this server started are recorded: a bare request to the callback costs nothing to send.
  if (app && code !== 'SSO_NOT_CONFIGURED' && code !== 'SSO_STATE_MISSING')
    await audit(app.stores.audit, { action: 'login.sso_failed', ip: clientIp(req), data: { code, reason } });
  return redirect(`/login?error=${code}`, cookies);
}

function configured(): SsoSettings {
  const sso = ssoSettingsOf(settings());
  if (!sso) throw new PaiError('SSO_NOT_CONFIGURED', 'single sign-on is not configured (OIDC_ISSUER)');
  return sso;
}

async function issuer(app: App, sso: SsoSettings): Promise<oidc.Configuration> {
  try {
    return await issuerConfig(sso, app.config.httpAllowlist);
  } catch (e) {
    const guard = guardErrorIn(e);
    const why = guard ? `${guard.code}: ${guard.message}` : (e as Error).message;
    throw new PaiError('SSO_ISSUER_UNREACHABLE', `discovery at ${sso.issuer} failed: ${why}`, { cause: e });
  }
}

/** GET /api/auth/oidc/start[?next=/path]: 302 to the issuer's authorization endpoint, with the sealed state cookie. */
export async function startSignIn(getApp: () => Promise<App>, req: Request): Promise<Response> {
  let app: App | undefined;
  try {
    const sso = configured();
    app = await getApp();
    const redirectUri = callbackUrl(req);
    const auth = await authorizationRequest(await issuer(app, sso), sso, redirectUri);
    const next = localRedirectPath(new URL(req.url).searchParams.get('next'), originOf(req));
    const sealed = sealState(keyOf(app), { ...auth, issuer: sso.issuer, redirectUri, next });
    return redirect(auth.url.href, [stateCookie(req, sealed)]);
  } catch (e) {
    return failed(app, req, e);
  }
}

/** GET /api/auth/oidc/callback?code&state[&iss]: verifies, signs in, 302 to where the sign-in started. */
export async function finishSignIn(getApp: () => Promise<App>, req: Request): Promise<Response> {
  let app: App | undefined;
  // The state is used once: whatever happens, the browser forgets it.
  const clear = clearedStateCookie(req);
  try {
    const sso = configured();
    app = await getApp();
    const saved = openState(keyOf(app), readStateCookie(req));
    if (!saved || saved.issuer !== sso.issuer)
      throw new PaiError('SSO_STATE_MISSING', 'no sign-in was started in this browser, or it expired or changed');
    const query = new URL(req.url).searchParams;
    if (query.get('state') !== saved.state)
      throw new PaiError('SSO_STATE_MISMATCH', 'the state of the callback is not the one this browser sent');
    const callback = new URL(saved.redirectUri);
    callback.search = query.toString();
    const needed = ['email', ...(sso.roleClaim ? [sso.roleClaim, sso.roleClaim.split('.')[0]] : [])];
    const claims = await redeemCallback(await issuer(app, sso), callback, saved, needed);
    const ip = clientIp(req);
    const { token } = await signInWithIdentity(app.stores, app.accounts, identityOf(claims, sso), ip);
    // Checked again on the way out: a state sealed by an older server kept `next` as its text checks let it through.
    return redirect(localRedirectPath(saved.next, originOf(req)), [
      clear,
      sessionCookie(req, token, app.config.sessionMaxAgeSeconds),
    ]);
  } catch (e) {
    return failed(app, req, e, [clear]);
  }
}

/** What the login page needs to offer single sign-on (null: off). */
export function ssoButton(): { name: string; startUrl: string } | null {
  const sso = ssoSettingsOf(settings());
  return sso ? { name: sso.name, startUrl: SSO_START_PATH } : null;
}
