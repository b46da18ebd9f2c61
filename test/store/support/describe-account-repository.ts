/**
 * The AccountRepository conformance suite, written once and run on every database kind
 * (test/store/accounts-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRepository, UserRecord } from '@/engine/store/accounts';
import { isUniqueViolation } from '@/engine/store/app/errors';
import type { Stores } from '@/engine/store/app/stores';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { newId, type StoresFactory, type StoresUnderTest } from './stores-under-test';

const DEFAULT_WORKSPACE = { id: DEFAULT_WORKSPACE_ID, name: 'My workspace' };

export function describeAccountRepository(label: string, open: StoresFactory) {
  describe(`AccountRepository conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let stores: Stores;
    let accounts: AccountRepository;

    beforeAll(async () => {
      under = await open();
      stores = under.stores;
      accounts = stores.accounts;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    const user = (patch: Partial<UserRecord> = {}): UserRecord => ({
      id: newId('usr'),
      email: `${newId('u')}@example.test`,
      name: 'Someone',
      passwordHash: 'scrypt$hash',
      ...patch,
    });
    const session = async (userId: string) => {
      const s = { id: newId('ses'), tokenHash: newId('hash'), userId, expiresAt: new Date(Date.now() + 3_600_000) };
      await accounts.createSession(s);
      return s;
    };
    /** A new token, with the hash it was made with (the caller keeps it; the store answers it never). */
    const token = async (userId: string, workspaceId: string | null = null) => {
      const hash = newId('hash');
      const t = await accounts.createToken({
        id: newId('tok'),
        userId,
        workspaceId,
        name: 'ci',
        prefix: 'pat_abc',
        hash,
      });
      return { ...t, hash };
    };

    // First: the database has no user yet.
    it('of two first-owner setups at once one wins, and the owner owns the default workspace', async () => {
      expect(await accounts.hasUsers()).toBe(false);
      const [a, b] = await Promise.all([
        accounts.createOwner(user({ email: 'first@example.test' }), DEFAULT_WORKSPACE),
        accounts.createOwner(user({ email: 'second@example.test' }), DEFAULT_WORKSPACE),
      ]);
      const owner = (a ?? b)!;
      expect([a, b].filter(Boolean)).toHaveLength(1);
      expect(await accounts.hasUsers()).toBe(true);
      expect(await accounts.roleIn(owner.id, DEFAULT_WORKSPACE_ID)).toBe('owner');
      expect(await accounts.createOwner(user(), DEFAULT_WORKSPACE)).toBeNull();
      expect((await accounts.membershipsOf(owner.id)).map((m) => m.workspaceId)).toContain(DEFAULT_WORKSPACE_ID);
    });

    it('users are found by id and e-mail address; an address is taken once', async () => {
      const u = await accounts.createUser(user({ name: 'Ada' }));
      expect(await accounts.userById(u.id)).toEqual(u);
      expect(await accounts.userByEmail(u.email)).toEqual(u);
      expect(await accounts.userById('usr_missing')).toBeNull();
      expect(await accounts.userByEmail('nobody@example.test')).toBeNull();
      const again = await accounts.createUser(user({ email: u.email })).catch((e: unknown) => e);
      expect(isUniqueViolation(again)).toBe(true);
    });

    it('a session is found by token hash with its user, touched, moved to a workspace, revoked once', async () => {
      const u = await accounts.createUser(user());
      const s = await session(u.id);
      const found = await accounts.sessionByTokenHash(s.tokenHash);
      expect(found).toMatchObject({ id: s.id, userId: u.id, workspaceId: null, revokedAt: null, user: u });
      expect(found!.expiresAt).toEqual(s.expiresAt);
      const seen = new Date(Date.now() + 120_000);
      await accounts.touchSession(s.id, seen);
      await accounts.setSessionWorkspace(s.id, DEFAULT_WORKSPACE_ID);
      expect(await accounts.sessionByTokenHash(s.tokenHash)).toMatchObject({
        lastSeenAt: seen,
        workspaceId: DEFAULT_WORKSPACE_ID,
      });
      const first = new Date('2030-01-01T00:00:00.000Z');
      await accounts.revokeSessionByTokenHash(s.tokenHash, first);
      await accounts.revokeSessionByTokenHash(s.tokenHash, new Date('2031-01-01T00:00:00.000Z'));
      expect((await accounts.sessionByTokenHash(s.tokenHash))!.revokedAt).toEqual(first);
      expect(await accounts.sessionByTokenHash('unknown-hash')).toBeNull();
    });

    it("a password change revokes the user's other sessions and every token, and no one else's", async () => {
      const u = await accounts.createUser(user());
      const bystander = await accounts.createUser(user());
      const [kept, other] = [await session(u.id), await session(u.id)];
      const theirs = await session(bystander.id);
      await token(u.id);
      await token(u.id);
      const revokedBefore = await token(u.id);
      await accounts.revokeToken(u.id, revokedBefore.id, new Date());
      const theirToken = await token(bystander.id);
      expect(await accounts.changePassword(u.id, 'scrypt$new', kept.id)).toEqual({ tokensRevoked: 2 });
      expect((await accounts.userById(u.id))!.passwordHash).toBe('scrypt$new');
      expect((await accounts.sessionByTokenHash(kept.tokenHash))!.revokedAt).toBeNull();
      expect((await accounts.sessionByTokenHash(other.tokenHash))!.revokedAt).toBeInstanceOf(Date);
      expect((await accounts.listTokens(u.id)).every((t) => t.revokedAt)).toBe(true);
      expect((await accounts.sessionByTokenHash(theirs.tokenHash))!.revokedAt).toBeNull();
      expect((await accounts.listTokens(bystander.id)).map((t) => t.revokedAt)).toEqual([null]);
      expect(theirToken.revokedAt).toBeNull();
      // Without a session to keep, every session goes.
      await accounts.changePassword(u.id, 'scrypt$newer');
      expect((await accounts.sessionByTokenHash(kept.tokenHash))!.revokedAt).toBeInstanceOf(Date);
    });

    it('tokens: listed newest first, found by hash with their user, revoked only by their owner', async () => {
      const u = await accounts.createUser(user());
      const stranger = await accounts.createUser(user());
      const older = await token(u.id, DEFAULT_WORKSPACE_ID);
      await new Promise((r) => setTimeout(r, 5));
      const newer = await token(u.id);
      expect(older).toMatchObject({ userId: u.id, workspaceId: DEFAULT_WORKSPACE_ID, name: 'ci', revokedAt: null });
      expect((await accounts.listTokens(u.id)).map((t) => t.id)).toEqual([newer.id, older.id]);
      expect(await accounts.tokenByHash(older.hash)).toMatchObject({ id: older.id, user: u, lastUsedAt: null });
      const used = new Date('2030-05-05T05:05:05.005Z');
      await accounts.touchToken(older.id, used);
      expect((await accounts.listTokens(u.id)).find((t) => t.id === older.id)!.lastUsedAt).toEqual(used);
      expect(await accounts.revokeToken(stranger.id, older.id, new Date())).toBe('missing');
      expect(await accounts.revokeToken(u.id, older.id, new Date())).toBe('revoked');
      expect(await accounts.revokeToken(u.id, older.id, new Date())).toBe('already');
      expect(await accounts.revokeToken(u.id, 'tok_missing', new Date())).toBe('missing');
      expect(await accounts.tokenByHash('unknown')).toBeNull();
    });

    it('workspaces are made with their owner; members listed oldest first; a member keeps their role', async () => {
      const owner = await accounts.createUser(user());
      const editor = await accounts.createUser(user());
      const ws = await accounts.createWorkspace({ id: newId('ws'), name: 'Team', ownerId: owner.id });
      expect(ws.name).toBe('Team');
      expect(await accounts.roleIn(owner.id, ws.id)).toBe('owner');
      expect(await accounts.roleIn(editor.id, ws.id)).toBeNull();
      await accounts.addMember(ws.id, editor.id, 'editor');
      await accounts.addMember(ws.id, editor.id, 'viewer');
      expect(await accounts.roleIn(editor.id, ws.id)).toBe('editor');
      const members = await accounts.listMembers(ws.id);
      expect(members.map((m) => [m.user.id, m.role])).toEqual([
        [owner.id, 'owner'],
        [editor.id, 'editor'],
      ]);
      expect(await accounts.countOwners(ws.id)).toBe(1);
      await accounts.setRole(ws.id, editor.id, 'owner');
      expect(await accounts.countOwners(ws.id)).toBe(2);
      const mine = await accounts.membershipsOf(editor.id);
      expect(mine).toEqual([expect.objectContaining({ workspaceId: ws.id, workspaceName: 'Team', role: 'owner' })]);
    });

    it('an invitation is found by its token hash and claimed by one of two at once', async () => {
      const owner = await accounts.createUser(user());
      const ws = await accounts.createWorkspace({ id: newId('ws'), name: 'Invites', ownerId: owner.id });
      const tokenHash = newId('inv_hash');
      const expiresAt = new Date('2035-01-01T00:00:00.000Z');
      const inv = await accounts.createInvitation({
        id: newId('inv'),
        workspaceId: ws.id,
        email: 'guest@example.test',
        role: 'viewer',
        tokenHash,
        createdBy: owner.id,
        expiresAt,
      });
      expect(inv).toEqual({
        id: inv.id,
        workspaceId: ws.id,
        email: 'guest@example.test',
        role: 'viewer',
        expiresAt,
        acceptedAt: null,
      });
      expect(await accounts.invitationByTokenHash(tokenHash)).toEqual(inv);
      expect(await accounts.invitationByTokenHash('other')).toBeNull();
      const claims = await Promise.all([
        accounts.claimInvitation(inv.id, new Date()),
        accounts.claimInvitation(inv.id, new Date()),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await accounts.invitationByTokenHash(tokenHash))!.acceptedAt).toBeInstanceOf(Date);
    });

    it('an issuer identity finds its user; of two first sign-ins at once one creates the user', async () => {
      const owner = await accounts.createUser(user());
      const ws = await accounts.createWorkspace({ id: newId('ws'), name: 'SSO', ownerId: owner.id });
      const identity = { issuer: 'https://idp.example.test', subject: newId('sub') };
      const email = `${newId('sso')}@example.test`;
      const [a, b] = await Promise.all([
        accounts.createUserWithIdentity(user({ email }), identity, { workspaceId: ws.id, role: 'viewer' }),
        accounts.createUserWithIdentity(user({ email }), identity, { workspaceId: ws.id, role: 'viewer' }),
      ]);
      const created = (a ?? b)!;
      expect([a, b].filter(Boolean)).toHaveLength(1);
      expect(await accounts.userByIdentity(identity.issuer, identity.subject)).toEqual(created);
      expect(await accounts.roleIn(created.id, ws.id)).toBe('viewer');
      // The same subject at another issuer is another identity; an address in use creates nothing.
      expect(await accounts.userByIdentity('https://other.example.test', identity.subject)).toBeNull();
      const other = { issuer: 'https://other.example.test', subject: identity.subject };
      expect(await accounts.createUserWithIdentity(user({ email }), other, { workspaceId: ws.id, role: 'admin' })).toBe(
        null,
      );
      expect(await accounts.userByIdentity(other.issuer, other.subject)).toBeNull();
      // Linking: once per identity, to an existing user.
      expect(await accounts.linkIdentity(owner.id, other)).toBe(true);
      expect(await accounts.userByIdentity(other.issuer, other.subject)).toEqual(owner);
      expect(await accounts.linkIdentity(created.id, other)).toBe(false);
      expect(await accounts.userByIdentity(other.issuer, other.subject)).toEqual(owner);
    });
  });
}
