// Guarantees: the owner is created once (setup, or PAIFLOW_OWNER_* at start-up); sessions are httpOnly SameSite=Lax
// cookies (Secure behind HTTPS) that expire when idle or too old and die at logout or a password change; cookie
// requests from other origins are refused (CSRF); sign-ins are throttled per account and per address (429 +
// Retry-After); personal access tokens work until revoked; invitations work once; nothing secret is stored in clear.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POST as accept } from '@/app/api/auth/accept-invite/route';
import { POST as login } from '@/app/api/auth/login/route';
import { POST as logout } from '@/app/api/auth/logout/route';
import { POST as changePassword } from '@/app/api/auth/password/route';
import { POST as setup } from '@/app/api/auth/setup/route';
import { GET as state } from '@/app/api/auth/state/route';
import { DELETE as revokeToken } from '@/app/api/auth/tokens/[id]/route';
import { POST as createToken } from '@/app/api/auth/tokens/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { POST as invite } from '@/app/api/workspaces/[id]/invitations/route';
import { GET as auditLog } from '@/app/api/audit/route';
import { createApp, getApp } from '@/lib/server/app';
import { readConfig } from '@/lib/server/config';
import { call, useFreshDataDir, type Answer } from '../api/api-helpers';
import { databaseOf } from '../support/database-of';

useFreshDataDir('paiflow-sessions-');
process.env.TRUST_PROXY = '1'; // the client address comes from X-Forwarded-For in these tests
process.env.SEED_EXAMPLE = '0';

const OWNER = { email: 'Boss@Example.test', password: 'first-password-1', name: 'Boss' };
const cookieOf = (a: Answer) => /paiflow_session=([^;]+)/.exec(a.headers.get('set-cookie') ?? '')?.[1];
const withCookie = (c: string | undefined, extra: Record<string, string> = {}) => ({
  cookie: `paiflow_session=${c}`,
  ...extra,
});

afterAll(async () => {
  await (await getApp()).close();
});

describe('setup', () => {
  it('is required on a fresh data dir, creates the owner once and signs them in', async () => {
    const before = await call(state, 'GET', '/api/auth/state');
    expect(before.body).toEqual({ setupRequired: true, authenticated: false });
    const bad = await call(setup, 'POST', '/api/auth/setup', { body: { ...OWNER, password: 'short' } });
    expect({ status: bad.status, path: bad.body.error.path }).toEqual({ status: 400, path: 'password' });
    const s = await call(setup, 'POST', '/api/auth/setup', { body: OWNER });
    expect(s.status).toBe(201);
    expect(s.body.user.email).toBe('boss@example.test');
    const cookie = s.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const again = await call(setup, 'POST', '/api/auth/setup', { body: { ...OWNER, email: 'other@example.test' } });
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 409, code: 'SETUP_DONE' });
    const after = await call(state, 'GET', '/api/auth/state', { headers: withCookie(cookieOf(s)) });
    expect(after.body).toMatchObject({
      setupRequired: false,
      authenticated: true,
      user: { email: 'boss@example.test' },
    });
    expect(after.body.role).toBe('owner');
  });

  it('stores a scrypt hash, never the password', async () => {
    const users = await databaseOf(await getApp()).prisma.user.findMany();
    expect(users).toHaveLength(1);
    expect(users[0].passwordHash).toMatch(/^scrypt\$/);
    expect(users[0].passwordHash).not.toContain(OWNER.password);
  });

  it('PAIFLOW_OWNER_EMAIL + PAIFLOW_OWNER_PASSWORD create the owner at start-up', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-owner-env-'));
    const app = await createApp(
      readConfig({
        ...process.env,
        DATA_DIR: dir,
        SEED_EXAMPLE: '1',
        PAIFLOW_OWNER_EMAIL: 'ci@example.test',
        PAIFLOW_OWNER_PASSWORD: 'ci-password-1',
      }),
    );
    try {
      expect(await app.accounts.hasUsers()).toBe(true);
      const { user } = await app.accounts.login('ci@example.test', 'ci-password-1', 'test');
      const [ws] = await app.accounts.workspacesOf(user.id);
      expect(ws.role).toBe('owner');
      // The seeded example is in the owner's first workspace.
      const seeded = await app.store.listWorkflows(ws.id);
      expect(seeded.map((w) => w.name).join()).toMatch(/Support triage/);
    } finally {
      await app.close();
    }
  });
});

describe('sessions', () => {
  async function signIn(password = OWNER.password, headers: Record<string, string> = {}) {
    const a = await call(login, 'POST', '/api/auth/login', { body: { email: OWNER.email, password }, headers });
    expect(a.status, a.text).toBe(200);
    return cookieOf(a)!;
  }
  const listAs = (c: string | undefined, extra: Record<string, string> = {}) =>
    call(listWf, 'GET', '/api/workflows', { headers: withCookie(c, extra) });

  it('a cookie is Secure behind HTTPS', async () => {
    const a = await call(login, 'POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(a.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('logout revokes the session at once', async () => {
    const c = await signIn();
    expect((await listAs(c)).status).toBe(200);
    const out = await call(logout, 'POST', '/api/auth/logout', { headers: withCookie(c) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await listAs(c)).status).toBe(401);
  });

  it('expires when idle too long and when too old', async () => {
    const prisma = databaseOf(await getApp()).prisma;
    const idle = await signIn();
    await prisma.session.updateMany({ data: { lastSeenAt: new Date(Date.now() - 2 * 86_400_000) }, where: {} });
    expect((await listAs(idle)).status).toBe(401);
    const old = await signIn();
    await prisma.session.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) }, where: {} });
    expect((await listAs(old)).status).toBe(401);
  });

  it('refuses cookie requests that change something from another origin (CSRF)', async () => {
    const c = await signIn();
    const body = { name: 'csrf', graph: { nodes: [], edges: [] } };
    const evil = await call(createWf, 'POST', '/api/workflows?draft=1', {
      body,
      headers: withCookie(c, { origin: 'https://evil.example' }),
    });
    expect({ status: evil.status, code: evil.body.error.code }).toEqual({ status: 403, code: 'CSRF_REJECTED' });
    const site = await call(createWf, 'POST', '/api/workflows?draft=1', {
      body,
      headers: withCookie(c, { 'sec-fetch-site': 'cross-site' }),
    });
    expect(site.status).toBe(403);
    const same = await call(createWf, 'POST', '/api/workflows?draft=1', {
      body,
      headers: withCookie(c, { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' }),
    });
    expect(same.status, same.text).toBe(201);
    // Reading is not a state change: a cross-site GET is answered (the browser keeps the answer from the page).
    expect((await listAs(c, { 'sec-fetch-site': 'cross-site' })).status).toBe(200);
  });

  it('a password change signs out every other session and the old password stops working', async () => {
    const a = await signIn();
    const b = await signIn();
    const bad = await call(changePassword, 'POST', '/api/auth/password', {
      body: { currentPassword: 'wrong-one-123', newPassword: 'second-password-2' },
      headers: withCookie(a),
    });
    expect(bad.status).toBe(400);
    const ok = await call(changePassword, 'POST', '/api/auth/password', {
      body: { currentPassword: OWNER.password, newPassword: 'second-password-2' },
      headers: withCookie(a),
    });
    expect(ok.status).toBe(204);
    expect((await listAs(a)).status).toBe(200);
    expect((await listAs(b)).status).toBe(401);
    const old = await call(login, 'POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password },
    });
    expect(old.status).toBe(401);
    OWNER.password = 'second-password-2';
    await signIn();
  });
});

describe('sign-in throttling', () => {
  it('10 failures for one account in 15 minutes → 429 with Retry-After', async () => {
    const app = await getApp();
    await app.accounts.invite({ id: 'x', email: 'x', role: 'owner' }, 'ws_default', 'victim@example.test', 'viewer');
    for (let i = 0; i < 10; i++) {
      const a = await call(login, 'POST', '/api/auth/login', {
        body: { email: 'victim@example.test', password: `guess-${i}` },
        headers: { 'x-forwarded-for': `10.0.0.${i}` },
      });
      expect({ status: a.status, code: a.body.error.code }).toEqual({ status: 401, code: 'INVALID_CREDENTIALS' });
    }
    const blocked = await call(login, 'POST', '/api/auth/login', {
      body: { email: 'victim@example.test', password: 'anything' },
      headers: { 'x-forwarded-for': '10.0.0.99' },
    });
    expect({ status: blocked.status, code: blocked.body.error.code }).toEqual({
      status: 429,
      code: 'TOO_MANY_ATTEMPTS',
    });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
  });

  it('10 failures from one address → 429 for that address, whatever the account', async () => {
    for (let i = 0; i < 10; i++) {
      const a = await call(login, 'POST', '/api/auth/login', {
        body: { email: `nobody-${i}@example.test`, password: 'guess' },
        headers: { 'x-forwarded-for': '192.0.2.7' },
      });
      expect(a.status).toBe(401);
    }
    const blocked = await call(login, 'POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password },
      headers: { 'x-forwarded-for': '192.0.2.7' },
    });
    expect(blocked.status).toBe(429);
    const elsewhere = await call(login, 'POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password },
      headers: { 'x-forwarded-for': '192.0.2.8' },
    });
    expect(elsewhere.status).toBe(200);
  });

  it('without TRUST_PROXY a client cannot dodge the address limit with made-up X-Forwarded-For headers', async () => {
    process.env.TRUST_PROXY = '';
    process.env.PAIFLOW_CLIENT_IP_TAG = 'tag-of-this-process';
    try {
      for (let i = 0; i < 10; i++) {
        const a = await call(login, 'POST', '/api/auth/login', {
          body: { email: `spoof-${i}@example.test`, password: 'guess' },
          headers: { 'x-forwarded-for': `203.0.113.${i}`, 'x-paiflow-client-ip': 'tag-of-this-process 198.51.100.4' },
        });
        expect(a.status).toBe(401);
      }
      const blocked = await call(login, 'POST', '/api/auth/login', {
        body: { email: OWNER.email, password: OWNER.password },
        headers: { 'x-forwarded-for': '203.0.113.200', 'x-paiflow-client-ip': 'tag-of-this-process 198.51.100.4' },
      });
      expect(blocked.status).toBe(429);
    } finally {
      process.env.TRUST_PROXY = '1';
    }
  });

  it('guesses sent all at once are counted too: at most 10 of them are checked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        call(login, 'POST', '/api/auth/login', {
          body: { email: 'parallel@example.test', password: `guess-${i}` },
          headers: { 'x-forwarded-for': `10.1.0.${i}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
  });

  it("accepting an invitation with an existing account's password is throttled like a sign-in", async () => {
    const app = await getApp();
    const ownerKey = `email:${OWNER.email.toLowerCase()}`;
    await app.stores.signInAttempts.forget([], [ownerKey]); // blocked attempts of earlier tests
    const boss = (await app.stores.accounts.userByEmail(OWNER.email.toLowerCase()))!;
    const { id: wsB } = await app.accounts.createWorkspace(boss, 'Guessing ground');
    const inv = await app.accounts.invite({ id: 'x', email: 'x', role: 'owner' }, wsB, OWNER.email, 'viewer');
    const tries = [];
    for (let i = 0; i < 11; i++)
      tries.push(
        await call(accept, 'POST', '/api/auth/accept-invite', {
          body: { token: inv.token, name: 'x', password: `wrong-guess-${i}` },
          headers: { 'x-forwarded-for': `10.2.0.${i}` },
        }),
      );
    expect(tries.slice(0, 10).map((t) => t.status)).toEqual(Array(10).fill(401));
    expect(tries[10].status).toBe(429);
    // The owner's own sign-in is locked too (the same account key), until the window passes.
    const own = await call(login, 'POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password },
      headers: { 'x-forwarded-for': '10.2.1.1' },
    });
    expect(own.status).toBe(429);
    await app.stores.signInAttempts.forget([], [ownerKey]);
  });

  it('failures are in the audit log', async () => {
    const a = await call(auditLog, 'GET', '/api/audit');
    expect(a.status).toBe(200);
    const actions = a.body.map((e: any) => e.action);
    expect(actions).toContain('login.failed');
    expect(actions).toContain('login.succeeded');
    expect(actions).toContain('setup.owner_created');
  });
});

describe('personal access tokens and invitations', () => {
  it('a token works on management routes until revoked and is stored hashed', async () => {
    const c = (
      await call(login, 'POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password } })
    ).headers.get('set-cookie')!;
    const cookie = c.split(';')[0];
    const t = await call(createToken, 'POST', '/api/auth/tokens', { body: { name: 'ci' }, headers: { cookie } });
    expect(t.status).toBe(201);
    expect(t.body.token).toMatch(/^pat_/);
    const bearer = { authorization: `Bearer ${t.body.token}` };
    expect((await call(listWf, 'GET', '/api/workflows', { headers: bearer })).status).toBe(200);
    const rows = await databaseOf(await getApp()).prisma.personalAccessToken.findMany();
    expect(JSON.stringify(rows)).not.toContain(t.body.token);
    // A token cannot mint or revoke tokens: a leaked one cannot make itself a spare.
    const minted = await call(createToken, 'POST', '/api/auth/tokens', { body: { name: 'spare' }, headers: bearer });
    expect({ status: minted.status, code: minted.body.error.code }).toEqual({ status: 403, code: 'SESSION_REQUIRED' });
    const r = await call(revokeToken, 'DELETE', `/api/auth/tokens/${t.body.id}`, {
      params: { id: t.body.id },
      headers: { cookie },
    });
    expect(r.status).toBe(204);
    const after = await call(listWf, 'GET', '/api/workflows', { headers: bearer });
    expect({ status: after.status, code: after.body.error.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    const junk = await call(listWf, 'GET', '/api/workflows', {
      headers: { authorization: 'Bearer pf_live_not_a_pat' },
    });
    expect(junk.status).toBe(401);
  });

  it('an invitation link works once and expires', async () => {
    const inv = await call(invite, 'POST', '/api/workspaces/ws_default/invitations', {
      params: { id: 'ws_default' },
      body: { email: 'newbie@example.test', role: 'editor' },
    });
    expect(inv.status, inv.text).toBe(201);
    expect(inv.body.url).toMatch(/\/invite\/inv_/);
    const first = await call(accept, 'POST', '/api/auth/accept-invite', {
      body: { token: inv.body.token, name: 'Newbie', password: 'newbie-password-1' },
    });
    expect(first.status, first.text).toBe(201);
    expect(cookieOf(first)).toBeTruthy();
    const twice = await call(accept, 'POST', '/api/auth/accept-invite', {
      body: { token: inv.body.token, name: 'Newbie', password: 'newbie-password-1' },
    });
    expect({ status: twice.status, code: twice.body.error.code }).toEqual({ status: 404, code: 'INVITATION_INVALID' });
    const late = await call(invite, 'POST', '/api/workspaces/ws_default/invitations', {
      params: { id: 'ws_default' },
      body: { email: 'late@example.test', role: 'viewer' },
    });
    await databaseOf(await getApp()).prisma.invitation.updateMany({
      where: { email: 'late@example.test' },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await call(accept, 'POST', '/api/auth/accept-invite', {
      body: { token: late.body.token, name: 'Late', password: 'late-password-1' },
    });
    expect(expired.status).toBe(404);
  });
});
