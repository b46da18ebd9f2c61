/**
 * Guarantee: on the built app, started with OIDC_* as an operator configures it, a user signs in at a real OpenID
 * Connect provider (oidc-provider, on the port reserved for it; reached through the SSRF guard as the operator's
 * host, not the allowlist): the login page's state names the button, the start route redirects to the issuer, the
 * callback creates the user with the default role and sets the session cookie, and that cookie works on the API with
 * exactly that role. A replayed callback is refused onto the login page, which explains why in the user's language.
 * A `next` that a browser would resolve to another site (a backslash, a tab) lands on this site's start page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, startOidcProvider, type TestProvider } from '../test/support/oidc-test-provider';
import { Client } from './support/client';
import { acceptance } from './support/context';

const { baseURL, ports, env } = acceptance();
const anon = new Client(baseURL);
const CALLBACK = `${baseURL}/api/auth/oidc/callback`;
const email = `ada-${Date.now()}@corp.test`;

let idp: TestProvider;

beforeAll(async () => {
  idp = await startOidcProvider({
    port: ports.oidc,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    redirectUris: [CALLBACK],
    accounts: { ada: { email, email_verified: true, name: 'Ada Lovelace' } },
  });
});

afterAll(async () => {
  await idp?.close();
});

describe('single sign-on on the production server', () => {
  it('signs in at the issuer and the session cookie works on the API with the default role', async () => {
    const state = await anon.expectStatus(anon.get('/api/auth/state'), 200);
    expect(state).toEqual({
      setupRequired: false,
      authenticated: false,
      sso: { name: 'Acceptance IdP', startUrl: '/api/auth/oidc/start' },
    });

    const browser = new Browser();
    const started = await browser.get(`${baseURL}${state.sso.startUrl}?next=/workflows`);
    expect(started.status).toBe(302);
    const authorization = started.headers.get('location')!;
    expect(authorization.startsWith(`${env.OIDC_ISSUER}/`)).toBe(true);
    const callback = await browser.follow(authorization, (u) => u.startsWith(CALLBACK));
    const kept = browser.cookieHeader(baseURL);

    const done = await browser.get(callback);
    expect({ status: done.status, location: done.headers.get('location') }).toEqual({
      status: 302,
      location: '/workflows',
    });
    const session = browser.cookie(baseURL, 'paiflow_session');
    expect(session, 'a session cookie').toBeTruthy();
    const cookie = `paiflow_session=${session}`;

    const me = await anon.expectStatus(anon.get('/api/auth/state', { cookie }), 200);
    expect(me).toMatchObject({
      authenticated: true,
      user: { email, name: 'Ada Lovelace' },
      workspaceId: 'ws_default',
      role: 'viewer',
    });
    expect((await anon.get('/api/workflows', { cookie })).status).toBe(200);
    const write = await anon.post('/api/workflows', { name: 'not mine to make' }, { cookie, origin: baseURL });
    expect({ status: write.status, code: write.body.error?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });

    // The same callback again, with the state cookie it had: the code works once.
    const replay = await fetch(callback, { redirect: 'manual', headers: { cookie: kept } });
    expect({ status: replay.status, location: replay.headers.get('location') }).toEqual({
      status: 302,
      location: '/login?error=SSO_TOKEN_REJECTED',
    });
    expect(replay.headers.getSetCookie().some((c) => c.startsWith('paiflow_session='))).toBe(false);
    const page = await anon.get('/login?error=SSO_TOKEN_REJECTED', { 'accept-language': 'zh-CN' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('无法验证组织登录返回的结果');
  });

  it.each([
    ['/\\evil.example/x', 'a backslash'],
    ['/\t/evil.example/pwned', 'a tab'],
  ])('keeps the browser on this site when `next` is %j (%s)', async (next) => {
    const browser = new Browser();
    const started = await browser.get(`${baseURL}/api/auth/oidc/start?next=${encodeURIComponent(next)}`);
    expect(started.status).toBe(302);
    const callback = await browser.follow(started.headers.get('location')!, (u) => u.startsWith(CALLBACK));
    const done = await browser.get(callback);
    expect(done.status).toBe(302);
    // Where Chromium goes: the Location resolved against the callback's URL, as WHATWG URL resolves it.
    const landing = new URL(done.headers.get('location')!, callback);
    expect(landing.origin).toBe(new URL(baseURL).origin);
    expect(landing.pathname).toBe('/');
    expect(browser.cookie(baseURL, 'paiflow_session'), 'signed in all the same').toBeTruthy();
  });
});
