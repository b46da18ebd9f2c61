/**
 * Guarantee: a fresh deployment answers nothing but its setup until the owner is created; then only a session cookie
 * or a personal access token gets in — wrong passwords are refused, signing out ends the session, a token is shown
 * once, works as `Authorization: Bearer` until it is revoked and cannot mint tokens, and a cookie request that
 * changes something from another origin is refused with 403 CSRF_REJECTED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from './support/client';
import { acceptance } from './support/context';
import { startServer, type RunningServer } from './support/server';

const { profile } = acceptance();
const FIRST = { email: 'first-owner@acceptance.test', password: 'first-run-password-1', name: 'First Owner' };
const EVIL = 'http://evil.example';

let server: RunningServer;
let anon: Client;
/** The app's own origin, as a browser page of the app sends it. */
let origin: string;

/** The `paiflow_session=…` pair of a Set-Cookie answer. */
function sessionOf(headers: Headers): string {
  const c = (headers.getSetCookie?.() ?? []).find((x) => x.startsWith('paiflow_session='));
  expect(c, 'a paiflow_session cookie').toBeTruthy();
  return c!.split(';')[0];
}

async function signIn(password = FIRST.password): Promise<string> {
  const r = await anon.post('/api/auth/login', { email: FIRST.email, password }, { origin });
  expect(r.status, r.text).toBe(200);
  return sessionOf(r.headers);
}

beforeAll(async () => {
  server = await startServer({ profile, owner: false });
  anon = new Client(server.baseURL);
  origin = server.baseURL;
}, 240_000);

afterAll(async () => {
  if (process.env.ACCEPTANCE_SERVER_LOG === '1') console.log(server?.log());
  await server?.kill('SIGTERM');
});

describe('first run, sign-in and personal access tokens', () => {
  it('before setup answers only the setup: state says so, management routes refuse, nobody can sign in', async () => {
    const state = await anon.expectStatus(anon.get('/api/auth/state'), 200);
    expect(state).toEqual({ setupRequired: true, authenticated: false });
    // The pages' sign-in gate reads that state and sends the first visitor to /setup, which is served.
    const setupPage = await anon.get('/setup');
    expect(setupPage.status).toBe(200);
    expect(setupPage.headers.get('content-type')).toMatch(/text\/html/);
    expect((await anon.get('/api/health')).status).toBe(200);

    for (const [method, path] of [
      ['GET', '/api/workflows'],
      ['POST', '/api/workflows'],
      ['GET', '/api/templates'],
      ['GET', '/api/runs'],
      ['GET', '/api/node-types'],
      ['GET', '/api/knowledge-bases'],
      ['GET', '/api/auth/tokens'],
    ]) {
      const r = await anon.request(method, path, method === 'POST' ? { name: 'x', graph: {} } : undefined);
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(401);
      expect(r.body.error.code).toBe('UNAUTHENTICATED');
    }
    const login = await anon.post('/api/auth/login', { email: FIRST.email, password: FIRST.password }, { origin });
    expect(login.status).toBe(401);
    expect(login.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(login.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a bad or cross-site setup and creates nothing', async () => {
    const short = await anon.post('/api/auth/setup', { ...FIRST, password: 'short' }, { origin });
    expect(short.status, short.text).toBe(400);
    expect(short.body.error.code).toBeTruthy();
    expect(JSON.stringify(short.body.error)).toContain('password');
    const cross = await anon.post('/api/auth/setup', FIRST, { origin: EVIL });
    expect(cross.status, cross.text).toBe(403);
    expect(cross.body.error.code).toBe('CSRF_REJECTED');
    expect((await anon.get('/api/auth/state')).body.setupRequired).toBe(true);
  });

  it('creates the owner through the setup API and signs them in with an httpOnly session cookie', async () => {
    const r = await anon.post('/api/auth/setup', FIRST, { origin });
    expect(r.status, r.text).toBe(201);
    expect(r.body.user).toMatchObject({ email: FIRST.email, name: FIRST.name });
    const raw = r.headers.getSetCookie().find((c) => c.startsWith('paiflow_session='))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    const cookie = sessionOf(r.headers);

    const state = await anon.expectStatus(anon.get('/api/auth/state', { cookie }), 200);
    expect(state).toMatchObject({ setupRequired: false, authenticated: true, role: 'owner' });
    expect(state.user.email).toBe(FIRST.email);
    expect(state.workspaces.length).toBeGreaterThanOrEqual(1);

    // The seeded examples are in the owner's first workspace.
    const list = await anon.expectStatus(anon.get('/api/workflows', { cookie }), 200);
    expect(list.map((w: any) => w.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^Support triage/)]));

    const again = await anon.post('/api/auth/setup', { ...FIRST, email: 'second@acceptance.test' }, { origin });
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe('SETUP_DONE');
    // Anonymous callers are still kept out.
    expect((await anon.get('/api/workflows')).status).toBe(401);
  });

  it('refuses a wrong password the same way as an unknown account, and signing out ends the session', async () => {
    const wrong = await anon.post('/api/auth/login', { email: FIRST.email, password: 'not-the-password' }, { origin });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const unknown = await anon.post('/api/auth/login', { email: 'nobody@acceptance.test', password: 'x' }, { origin });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toEqual(wrong.body.error);

    const cookie = await signIn();
    expect((await anon.get('/api/workflows', { cookie })).status).toBe(200);
    const out = await anon.post('/api/auth/logout', undefined, { cookie, origin });
    expect(out.status, out.text).toBe(204);
    expect(out.headers.getSetCookie().join(';')).toMatch(/paiflow_session=;.*Max-Age=0/i);
    // The old cookie no longer works, even if a client kept it.
    const after = await anon.get('/api/workflows', { cookie });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHENTICATED');
    expect(await anon.expectStatus(anon.get('/api/auth/state', { cookie }), 200)).toEqual({
      setupRequired: false,
      authenticated: false,
    });
  });

  it('makes a token from a session: shown once, works as Bearer, cannot mint tokens, revocable', async () => {
    const cookie = await signIn();
    const made = await anon.post('/api/auth/tokens', { name: 'ci' }, { cookie, origin });
    expect(made.status, made.text).toBe(201);
    const { id, token } = made.body;
    expect(token).toMatch(/^pat_/);
    expect(made.headers.get('cache-control')).toMatch(/no-store/);

    const pat = new Client(server.baseURL, { authorization: `Bearer ${token}` });
    const viaToken = await pat.expectStatus(pat.get('/api/workflows'), 200);
    const viaCookie = await anon.expectStatus(anon.get('/api/workflows', { cookie }), 200);
    expect(viaToken.map((w: any) => w.id).sort()).toEqual(viaCookie.map((w: any) => w.id).sort());
    // A script needs no Origin: the token is not something a browser sends by itself.
    const created = await pat.post('/api/workflows', {
      name: `Made with a token ${Date.now()}`,
      graph: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: {} } },
          { id: 'end', type: 'end', position: { x: 200, y: 0 }, data: { config: {} } },
        ],
        edges: [{ id: 'e1', source: 'start', target: 'end' }],
      },
    });
    expect(created.status, created.text).toBe(201);

    // Listed with its prefix and last use, never the token itself.
    const listed = await anon.get('/api/auth/tokens', { cookie });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(token);
    const row = listed.body.find((t: any) => t.id === id);
    expect(row).toMatchObject({ name: 'ci', prefix: token.slice(0, row.prefix.length), revokedAt: null });
    expect(token.startsWith(row.prefix)).toBe(true);
    expect(row.prefix.length).toBeLessThan(token.length);
    expect(row.lastUsedAt).not.toBeNull();

    // A token cannot mint tokens (nor revoke them).
    const mint = await pat.post('/api/auth/tokens', { name: 'minted by a token' });
    expect(mint.status, mint.text).toBe(403);
    expect(mint.body.error.code).toBe('SESSION_REQUIRED');
    const after = await anon.expectStatus(anon.get('/api/auth/tokens', { cookie }), 200);
    expect(after.map((t: any) => t.name)).not.toContain('minted by a token');

    const revoke = await anon.delete(`/api/auth/tokens/${id}`, { cookie, origin });
    expect(revoke.status, revoke.text).toBe(204);
    const refused = await pat.get('/api/workflows');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHENTICATED');
    const revoked = (await anon.get('/api/auth/tokens', { cookie })).body.find((t: any) => t.id === id);
    expect(revoked.revokedAt).not.toBeNull();

    for (const bad of ['pat_this-token-was-never-made', 'not-a-pat']) {
      const r = await anon.get('/api/workflows', { authorization: `Bearer ${bad}` });
      expect(r.status, bad).toBe(401);
    }
  });

  it('refuses cookie requests that change something from another origin with 403 CSRF_REJECTED', async () => {
    const cookie = await signIn();
    const before = await anon.expectStatus(anon.get('/api/workflows', { cookie }), 200);
    const body = {
      name: `Cross-site ${Date.now()}`,
      graph: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: {} } },
          { id: 'end', type: 'end', position: { x: 200, y: 0 }, data: { config: {} } },
        ],
        edges: [{ id: 'e1', source: 'start', target: 'end' }],
      },
    };
    const foreign: Record<string, string>[] = [
      { origin: EVIL },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      const r = await anon.post('/api/workflows', body, { cookie, ...headers });
      expect(r.status, `${JSON.stringify(headers)}: ${r.text}`).toBe(403);
      expect(r.body.error.code).toBe('CSRF_REJECTED');
    }
    const mint = await anon.post('/api/auth/tokens', { name: 'cross-site token' }, { cookie, origin: EVIL });
    expect(mint.status).toBe(403);
    expect(mint.body.error.code).toBe('CSRF_REJECTED');
    const logout = await anon.post('/api/auth/logout', undefined, { cookie, origin: EVIL });
    expect(logout.status).toBe(403);
    expect(logout.body.error.code).toBe('CSRF_REJECTED');

    // Nothing changed: no workflow, no token, and the session still works (reads are not refused).
    const list = await anon.expectStatus(anon.get('/api/workflows', { cookie, origin: EVIL }), 200);
    expect(list.map((w: any) => w.id).sort()).toEqual(before.map((w: any) => w.id).sort());
    const tokens = await anon.expectStatus(anon.get('/api/auth/tokens', { cookie }), 200);
    expect(tokens.map((t: any) => t.name)).not.toContain('cross-site token');

    // The same request from the app's own page goes through.
    const same = await anon.post('/api/workflows', body, { cookie, origin });
    expect(same.status, same.text).toBe(201);
    const sameSite = await anon.post(
      '/api/workflows',
      { ...body, name: `${body.name} b` },
      { cookie, 'sec-fetch-site': 'same-origin' },
    );
    expect(sameSite.status, sameSite.text).toBe(201);
  });
});
