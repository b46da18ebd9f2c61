// Guarantees: with OIDC_* set, signing in at a real OpenID Connect provider (oidc-provider, on a loopback port) opens
// the same session a password sign-in opens; the first sign-in creates the user in the default workspace with
// OIDC_DEFAULT_ROLE, or with the role OIDC_ROLE_MAP gives a value of OIDC_ROLE_CLAIM (which then decides the role at
// every sign-in); later sign-ins find the same user by issuer + subject; an existing account is linked only through
// an address the issuer verified. A callback with another browser's state, a replayed callback, a token with another
// nonce and a code from another issuer are refused and land on /login with the reason's code — never a session,
// never a 5xx. Without OIDC_ISSUER there is no single sign-on, and half a configuration stops start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as callbackRoute } from '@/app/api/auth/oidc/callback/route';
import { GET as startRoute } from '@/app/api/auth/oidc/start/route';
import { POST as login } from '@/app/api/auth/login/route';
import { GET as state } from '@/app/api/auth/state/route';
import { GET as listWf } from '@/app/api/workflows/route';
import { parseSettings } from '@/engine/config/settings';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir, type Answer } from '../api/api-helpers';
import { ownerToken } from '../support/owner';
import { Browser, startOidcProvider, type TestProvider } from '../support/oidc-test-provider';

useFreshDataDir('paiflow-oidc-');
process.env.SEED_EXAMPLE = '0';

const APP = 'http://localhost';
const CALLBACK = `${APP}/api/auth/oidc/callback`;
const OIDC = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_SCOPES', 'OIDC_DEFAULT_ROLE'];
const ROLES = ['OIDC_ROLE_CLAIM', 'OIDC_ROLE_MAP'];

let idp: TestProvider;
let elsewhere: TestProvider;

function useIssuer(p: TestProvider, extra: Record<string, string> = {}) {
  for (const k of [...OIDC, ...ROLES, 'OIDC_NAME']) delete process.env[k];
  Object.assign(process.env, { OIDC_ISSUER: p.issuer, OIDC_CLIENT_ID: p.clientId, OIDC_CLIENT_SECRET: p.clientSecret });
  Object.assign(process.env, extra);
}

beforeAll(async () => {
  const accounts = {
    alice: { email: 'alice@corp.test', email_verified: true, name: 'Alice' },
    erin: { email: 'erin@corp.test', email_verified: true, name: 'Erin' },
    bob: { email: 'bob@corp.test', email_verified: true, name: 'Bob', groups: ['devs', 'paiflow-admins'] },
    dave: { email: 'dave@corp.test', email_verified: true, name: 'Dave', groups: ['sales'] },
    owner: { email: 'owner@example.test', email_verified: true, name: 'Owner at the IdP' },
    mallory: { email: 'owner@example.test', email_verified: false, name: 'Not the owner' },
  };
  idp = await startOidcProvider({ redirectUris: [CALLBACK], accounts });
  // Another issuer that knows the same client, id and secret alike: its codes and tokens must not count here.
  elsewhere = await startOidcProvider({
    redirectUris: [CALLBACK],
    accounts,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
  });
  useIssuer(idp);
  await ownerToken(await getApp()); // the owner exists (setup), as single sign-on needs
});

afterAll(async () => {
  for (const k of [...OIDC, ...ROLES]) delete process.env[k];
  await Promise.all([idp?.close(), elsewhere?.close()]);
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

/** PaiFlow's first leg in `browser`: answers the authorization URL it redirects to. */
async function start(browser: Browser, next = '/workflows'): Promise<string> {
  const a = await call(startRoute, 'GET', `/api/auth/oidc/start?next=${encodeURIComponent(next)}`, { anonymous: true });
  expect(a.status, a.text).toBe(302);
  browser.keep(APP, a.headers);
  expect(browser.cookie(APP, 'paiflow_oidc'), 'the sealed state cookie').toBeTruthy();
  return a.headers.get('location')!;
}

/** The issuer's leg: from the authorization URL to the callback URL it sends the browser back to. */
const atIssuer = (browser: Browser, authorizationUrl: string) =>
  browser.follow(authorizationUrl, (u) => u.startsWith(CALLBACK));

/** The callback, with the browser's cookies for PaiFlow (or the given ones). */
async function finish(browser: Browser, callbackUrl: string, cookie = browser.cookieHeader(APP)): Promise<Answer> {
  const a = await call(callbackRoute, 'GET', callbackUrl.slice(APP.length), { headers: { cookie } });
  browser.keep(APP, a.headers);
  return a;
}

async function signIn(account: string, next = '/workflows') {
  idp.signInAs(account);
  const browser = new Browser();
  const a = await finish(browser, await atIssuer(browser, await start(browser, next)));
  expect({ status: a.status, location: a.headers.get('location') }).toEqual({ status: 302, location: next });
  const session = browser.cookie(APP, 'paiflow_session');
  expect(session, 'a session cookie').toBeTruthy();
  const me = await call(state, 'GET', '/api/auth/state', { headers: { cookie: `paiflow_session=${session}` } });
  expect(me.body.authenticated).toBe(true);
  return { session: session!, me: me.body, browser };
}

/** A refused callback: a redirect to /login with the code, no session, and the state cookie cleared. */
function expectRefused(a: Answer, code: string) {
  expect({ status: a.status, location: a.headers.get('location') }).toEqual({
    status: 302,
    location: `/login?error=${code}`,
  });
  const cookies = a.headers.getSetCookie();
  expect(cookies.some((c) => c.startsWith('paiflow_session='))).toBe(false);
  expect(cookies.some((c) => /^paiflow_oidc=;.*Max-Age=0/.test(c))).toBe(true);
}

async function lastFailure() {
  const rows = await (await getApp()).stores.audit.list(DEFAULT_WORKSPACE_ID, { limit: 20, withGlobal: true });
  return rows.find((r) => r.action === 'login.sso_failed')?.data as { code: string; reason: string } | undefined;
}

describe('signing in at the issuer', () => {
  it('tells the login page the button, and starts with PKCE S256, state, nonce and a sealed cookie', async () => {
    useIssuer(idp, { OIDC_NAME: 'Corp ID' });
    const s = await call(state, 'GET', '/api/auth/state');
    expect(s.body).toEqual({
      setupRequired: false,
      authenticated: false,
      sso: { name: 'Corp ID', startUrl: '/api/auth/oidc/start' },
    });
    const a = await call(startRoute, 'GET', '/api/auth/oidc/start', { anonymous: true });
    const to = new URL(a.headers.get('location')!);
    expect(to.origin).toBe(idp.issuer);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: idp.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p)?.length).toBeGreaterThan(20);
    const cookie = a.headers.getSetCookie().find((c) => c.startsWith('paiflow_oidc='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/auth\/oidc/);
    // Sealed: neither the state nor the PKCE verifier can be read from it.
    expect(decodeURIComponent(cookie)).not.toContain(to.searchParams.get('state')!);
  });

  it('creates the user in the default workspace with OIDC_DEFAULT_ROLE, and finds them again by subject', async () => {
    useIssuer(idp);
    const first = await signIn('alice');
    expect(first.me.user).toMatchObject({ email: 'alice@corp.test', name: 'Alice' });
    expect(first.me).toMatchObject({ workspaceId: DEFAULT_WORKSPACE_ID, role: 'viewer' });
    // The session works on the API like a password sign-in's.
    const list = await call(listWf, 'GET', '/api/workflows', {
      headers: { cookie: `paiflow_session=${first.session}` },
    });
    expect(list.status).toBe(200);
    const again = await signIn('alice');
    expect(again.me.user.id).toBe(first.me.user.id);
    expect(again.session).not.toBe(first.session);
    // A user made by single sign-on has no password that works.
    const pw = await call(login, 'POST', '/api/auth/login', {
      body: { email: 'alice@corp.test', password: 'anything' },
    });
    expect(pw.status).toBe(401);
    const rows = await (await getApp()).stores.audit.list(DEFAULT_WORKSPACE_ID, { limit: 50, withGlobal: true });
    const mine = rows.filter((r) => r.actorId === first.me.user.id).map((r) => [r.action, (r.data as any)?.outcome]);
    expect(mine).toEqual(
      expect.arrayContaining([
        ['login.sso_succeeded', 'created'],
        ['login.sso_succeeded', 'returning'],
        ['member.joined', undefined],
      ]),
    );

    useIssuer(idp, { OIDC_DEFAULT_ROLE: 'editor' });
    expect((await signIn('erin')).me.role).toBe('editor');
  });

  it('maps OIDC_ROLE_CLAIM values to roles, highest first; the issuer decides again at every sign-in', async () => {
    useIssuer(idp, {
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ROLE_MAP: 'paiflow-admins:admin,devs:editor',
    });
    const bob = await signIn('bob');
    expect(bob.me.role).toBe('admin');
    expect((await signIn('dave')).me.role).toBe('viewer'); // no mapped value: OIDC_DEFAULT_ROLE
    idp.setAccount('bob', { email: 'bob@corp.test', email_verified: true, name: 'Bob', groups: ['devs'] });
    const later = await signIn('bob');
    expect(later.me.user.id).toBe(bob.me.user.id);
    expect(later.me.role).toBe('editor');
  });

  it('links an existing account only through an address the issuer verified; the owner stays owner', async () => {
    useIssuer(idp, { OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'devs:editor' });
    idp.signInAs('mallory');
    const browser = new Browser();
    expectRefused(await finish(browser, await atIssuer(browser, await start(browser))), 'SSO_EMAIL_TAKEN');
    const owner = await signIn('owner');
    expect(owner.me.user.email).toBe('owner@example.test');
    expect(owner.me.role).toBe('owner');
  });
});

describe('forged and replayed callbacks are refused', () => {
  it('the user cancels at the issuer: SSO_DENIED', async () => {
    useIssuer(idp);
    idp.signInAs(null);
    const browser = new Browser();
    expectRefused(await finish(browser, await atIssuer(browser, await start(browser))), 'SSO_DENIED');
    expect((await lastFailure())?.reason).toMatch(/access_denied/);
  });

  it("another browser's state: SSO_STATE_MISMATCH", async () => {
    useIssuer(idp);
    idp.signInAs('alice');
    const victim = new Browser();
    const attacker = new Browser();
    const attackersCallback = await atIssuer(attacker, await start(attacker));
    await start(victim);
    expectRefused(await finish(victim, attackersCallback), 'SSO_STATE_MISMATCH');
  });

  it('a callback without the state cookie: SSO_STATE_MISSING', async () => {
    useIssuer(idp);
    idp.signInAs('alice');
    const browser = new Browser();
    const url = await atIssuer(browser, await start(browser));
    expectRefused(await finish(browser, url, ''), 'SSO_STATE_MISSING');
  });

  it('the same callback twice: the code works once (SSO_TOKEN_REJECTED)', async () => {
    useIssuer(idp);
    idp.signInAs('alice');
    const browser = new Browser();
    const url = await atIssuer(browser, await start(browser));
    const cookie = browser.cookieHeader(APP);
    expect((await finish(browser, url, cookie)).headers.get('location')).toBe('/workflows');
    expectRefused(await finish(browser, url, cookie), 'SSO_TOKEN_REJECTED');
    expect((await lastFailure())?.reason).toMatch(/invalid_grant/);
  });

  it('an ID token with another nonce than this browser sent: SSO_TOKEN_REJECTED', async () => {
    useIssuer(idp);
    idp.signInAs('alice');
    const browser = new Browser();
    const authorization = new URL(await start(browser));
    authorization.searchParams.set('nonce', 'a-nonce-of-someone-else-0123456789');
    expectRefused(await finish(browser, await atIssuer(browser, authorization.href)), 'SSO_TOKEN_REJECTED');
    expect((await lastFailure())?.reason).toMatch(/nonce/);
  });

  it('a code and token from another issuer: SSO_TOKEN_REJECTED', async () => {
    useIssuer(idp);
    elsewhere.signInAs('alice');
    const browser = new Browser();
    const authorization = new URL(await start(browser));
    const forged = new URL(authorization.pathname + authorization.search, elsewhere.issuer);
    expectRefused(await finish(browser, await atIssuer(browser, forged.href)), 'SSO_TOKEN_REJECTED');
    expect((await lastFailure())?.reason).toMatch(/iss/);
  });
});

describe('without the settings', () => {
  it('offers no single sign-on, and its routes say so on the login page', async () => {
    for (const k of [...OIDC, ...ROLES]) delete process.env[k];
    const s = await call(state, 'GET', '/api/auth/state');
    expect(s.body).toEqual({ setupRequired: false, authenticated: false });
    const a = await call(startRoute, 'GET', '/api/auth/oidc/start', { anonymous: true });
    expect({ status: a.status, location: a.headers.get('location') }).toEqual({
      status: 302,
      location: '/login?error=SSO_NOT_CONFIGURED',
    });
  });

  it('stops start-up on half a configuration or a role single sign-on may not give', () => {
    const refused = (env: Record<string, string>) => {
      try {
        parseSettings(env);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(refused({ OIDC_ISSUER: 'https://id.example.com' })).toMatch(
      /OIDC_CLIENT_ID is not set but OIDC_ISSUER is; expected/,
    );
    expect(refused({ OIDC_CLIENT_ID: 'paiflow' })).toMatch(/OIDC_ISSUER is not set/);
    expect(refused({ OIDC_ISSUER: 'http://id.example.com', OIDC_CLIENT_ID: 'x' })).toMatch(/not an https:\/\/ URL/);
    expect(refused({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x', OIDC_DEFAULT_ROLE: 'owner' })).toMatch(
      /OIDC_DEFAULT_ROLE="owner" gives "owner"/,
    );
    expect(
      refused({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x', OIDC_ROLE_MAP: 'admins:admin' }),
    ).toMatch(/OIDC_ROLE_CLAIM is not set but OIDC_ROLE_MAP/);
    expect(refused({ OIDC_SCOPES: 'email profile' })).toMatch(/OIDC_SCOPES="email profile" does not include openid/);
    const ok = parseSettings({
      OIDC_ISSUER: 'https://login.example.com/realms/corp',
      OIDC_CLIENT_ID: 'paiflow',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ROLE_MAP: 'urn:corp:admins:admin, devs:editor',
    });
    expect(ok.OIDC_ROLE_MAP).toEqual([
      ['urn:corp:admins', 'admin'],
      ['devs', 'editor'],
    ]);
    expect(ok.OIDC_DEFAULT_ROLE).toBe('viewer');
  });
});
