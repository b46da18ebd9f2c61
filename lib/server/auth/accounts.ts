/**
 * Users, sessions, personal access tokens, workspaces, memberships and invitations, on the app database.
 * Secrets (session tokens, PATs, invitation tokens) are stored as sha256 only; passwords as scrypt hashes.
 */
import { PaiError } from '@/engine/errors';
import { answerWith } from '@/lib/http/errors';
import type { Stores } from '@/engine/store/app/stores';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { audit, type AuditActor } from './audit';
import { hashPassword, UNUSABLE_HASH, verifyPassword } from './passwords';
import { isRole, outranks, type Role } from './policy';
import { newId, newSecret, sha256 } from './secrets';
import { startAttempt } from './throttle';

export interface UserView {
  id: string;
  email: string;
  name: string;
}

export interface SessionSettings {
  /** A session unused this long expires. */
  idleSeconds: number;
  /** A session expires this long after sign-in, however busy. */
  maxAgeSeconds: number;
}

export const PAT_PREFIX = 'pat_';
const INVITATION_DAYS = 7;
const TOUCH_EVERY_MS = 60_000;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
const userView = (u: { id: string; email: string; name: string }): UserView => ({
  id: u.id,
  email: u.email,
  name: u.name,
});

/** The stores accounts are kept in. */
export type AccountStores = Pick<Stores, 'accounts' | 'signInAttempts' | 'audit'>;

export class Accounts {
  private readonly repo: AccountStores['accounts'];

  constructor(
    private readonly stores: AccountStores,
    readonly sessions: SessionSettings,
  ) {
    this.repo = stores.accounts;
  }

  hasUsers(): Promise<boolean> {
    return this.repo.hasUsers();
  }

  /**
   * Creates the first user as owner of the workspace that holds the data from before accounts (and the seeded
   * example). Only while no user exists: afterwards 409 SETUP_DONE, even for two setups racing.
   */
  async setup(input: { email: string; password: string; name: string }, ip?: string): Promise<UserView> {
    const email = normalizeEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    // Also owner of every workspace without members (from before accounts): see AccountRepository.createOwner.
    const user = await this.repo.createOwner(
      { id: newId('usr'), email, name: input.name.trim(), passwordHash },
      { id: DEFAULT_WORKSPACE_ID, name: 'My workspace' },
    );
    if (!user) throw new PaiError('SETUP_DONE', 'the owner account exists already');
    await audit(this.stores.audit, { action: 'setup.owner_created', actor: { id: user.id, email }, ip });
    return userView(user);
  }

  /** Signs in, throttled per account and per client address (10 failures in 15 min → 429 with Retry-After). */
  async login(emailInput: string, password: string, ip: string): Promise<{ user: UserView; token: string }> {
    const email = normalizeEmail(emailInput);
    const attempt = await startAttempt(this.stores.signInAttempts, [`email:${email}`, `ip:${ip}`]);
    const user = await this.repo.userByEmail(email);
    const ok = await verifyPassword(password, user?.passwordHash ?? UNUSABLE_HASH);
    if (!user || !ok) {
      await audit(this.stores.audit, { action: 'login.failed', actor: { email }, ip });
      throw new PaiError('INVALID_CREDENTIALS', 'wrong e-mail address or password');
    }
    await attempt.succeeded([`email:${email}`]);
    const token = await this.createSession(user.id);
    await audit(this.stores.audit, { action: 'login.succeeded', actor: user, ip });
    return { user: userView(user), token };
  }

  async createSession(userId: string): Promise<string> {
    const token = newSecret();
    await this.repo.createSession({
      id: newId('ses'),
      tokenHash: sha256(token),
      userId,
      expiresAt: new Date(Date.now() + this.sessions.maxAgeSeconds * 1000),
    });
    return token;
  }

  /** The session's user, or null when the token is unknown, revoked, idle too long or past its absolute expiry. */
  async resolveSession(token: string) {
    const s = await this.repo.sessionByTokenHash(sha256(token));
    const now = Date.now();
    if (!s || s.revokedAt || s.expiresAt.getTime() <= now) return null;
    if (s.lastSeenAt.getTime() + this.sessions.idleSeconds * 1000 <= now) return null;
    if (now - s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await this.repo.touchSession(s.id, new Date(now));
    }
    return { sessionId: s.id, workspaceId: s.workspaceId, user: userView(s.user) };
  }

  async setSessionWorkspace(sessionId: string, workspaceId: string): Promise<void> {
    await this.repo.setSessionWorkspace(sessionId, workspaceId);
  }

  async logout(token: string): Promise<void> {
    await this.repo.revokeSessionByTokenHash(sha256(token), new Date());
  }

  /**
   * Changes the password, signs out every other session of the user and revokes all their personal access tokens,
   * in one transaction: whatever was taken with the old password stops working with it. Checking the current one is
   * throttled exactly like a sign-in (same account and address counters), so a stolen session cannot be used to
   * guess the password.
   */
  async changePassword(user: UserView, current: string, next: string, keepSessionId?: string, ip?: string) {
    const row = await this.repo.userById(user.id);
    if (!row) throw new Error(`user ${user.id} not found`);
    const accountKey = `email:${row.email}`;
    const attempt = await startAttempt(this.stores.signInAttempts, [accountKey, ...(ip ? [`ip:${ip}`] : [])]);
    if (!(await verifyPassword(current, row.passwordHash))) {
      await audit(this.stores.audit, { action: 'password.change_failed', actor: user, ip });
      // The caller is signed in; a field of the body is wrong: 400, not the 401 of a failed sign-in.
      throw answerWith(
        new PaiError('INVALID_CREDENTIALS', 'the current password is wrong', { path: 'currentPassword' }),
        400,
      );
    }
    await attempt.succeeded([accountKey]);
    const passwordHash = await hashPassword(next);
    const { tokensRevoked } = await this.repo.changePassword(user.id, passwordHash, keepSessionId);
    await audit(this.stores.audit, { action: 'password.changed', actor: user, ip, data: { tokensRevoked } });
  }

  // ── personal access tokens ─────────────────────────────────────────────────────────────────────────────────
  async createToken(user: UserView, name: string, workspaceId: string | undefined, ip?: string) {
    if (workspaceId) await this.requireMembership(user.id, workspaceId);
    const token = newSecret(PAT_PREFIX);
    const row = await this.repo.createToken({
      id: newId('tok'),
      userId: user.id,
      workspaceId: workspaceId ?? null,
      name,
      prefix: token.slice(0, 12),
      hash: sha256(token),
    });
    await audit(this.stores.audit, { action: 'token.created', actor: user, target: row.id, ip, workspaceId });
    return { id: row.id, token, name: row.name, prefix: row.prefix, workspaceId: row.workspaceId };
  }

  async listTokens(userId: string) {
    const rows = await this.repo.listTokens(userId);
    return rows.map((t) => ({
      id: t.id,
      name: t.name,
      prefix: t.prefix,
      workspaceId: t.workspaceId,
      createdAt: t.createdAt.toISOString(),
      lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
      revokedAt: t.revokedAt?.toISOString() ?? null,
    }));
  }

  /** Revokes one of the user's own tokens; another user's token is "not found". */
  async revokeToken(user: UserView, id: string, ip?: string): Promise<void> {
    if (typeof id !== 'string' || !id) throw new PaiError('TOKEN_NOT_FOUND', 'token not found');
    const outcome = await this.repo.revokeToken(user.id, id, new Date());
    if (outcome === 'missing') throw new PaiError('TOKEN_NOT_FOUND', `token ${id} not found`);
    if (outcome === 'already') return;
    await audit(this.stores.audit, { action: 'token.revoked', actor: user, target: id, ip });
  }

  async resolveToken(token: string) {
    const t = await this.repo.tokenByHash(sha256(token));
    if (!t || t.revokedAt) return null;
    if (!t.lastUsedAt || Date.now() - t.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
      await this.repo.touchToken(t.id, new Date());
    }
    return { tokenId: t.id, workspaceId: t.workspaceId, user: userView(t.user) };
  }

  // ── workspaces and members ─────────────────────────────────────────────────────────────────────────────────
  async workspacesOf(userId: string) {
    const rows = await this.repo.membershipsOf(userId);
    return rows.map((m) => ({ id: m.workspaceId, name: m.workspaceName, role: m.role as Role }));
  }

  async roleIn(userId: string, workspaceId: string): Promise<Role | null> {
    const role = await this.repo.roleIn(userId, workspaceId);
    return role && isRole(role) ? role : null;
  }

  private async requireMembership(userId: string, workspaceId: string): Promise<Role> {
    const role = await this.roleIn(userId, workspaceId);
    if (!role)
      throw new PaiError('WORKSPACE_NOT_FOUND', `workspace ${workspaceId} not found`, {
        path: 'workspaceId',
      });
    return role;
  }

  async createWorkspace(user: UserView, name: string) {
    const ws = await this.repo.createWorkspace({ id: newId('ws'), name, ownerId: user.id });
    return { id: ws.id, name: ws.name, role: 'owner' as Role };
  }

  async listMembers(workspaceId: string) {
    const rows = await this.repo.listMembers(workspaceId);
    return rows.map((m) => ({
      ...userView(m.user),
      userId: m.user.id,
      role: m.role,
      joinedAt: m.joinedAt.toISOString(),
    }));
  }

  /** Changes a member's role. Only an owner makes or unmakes owners; the last owner stays an owner. */
  async setRole(actor: AuditActor & { role: Role }, workspaceId: string, userId: string, role: Role, ip?: string) {
    const current = await this.roleIn(userId, workspaceId);
    if (!current) throw new PaiError('MEMBER_NOT_FOUND', `user ${userId} is not a member`);
    if ((current === 'owner' || role === 'owner') && actor.role !== 'owner')
      throw new PaiError('FORBIDDEN', 'only an owner may make or unmake owners');
    if (outranks(current, actor.role))
      throw new PaiError('FORBIDDEN', 'you may not change the role of someone above you');
    if (current === 'owner' && role !== 'owner') {
      const owners = await this.repo.countOwners(workspaceId);
      if (owners <= 1) throw new PaiError('LAST_OWNER', 'a workspace keeps at least one owner', { path: 'role' });
    }
    await this.repo.setRole(workspaceId, userId, role);
    await audit(this.stores.audit, {
      action: 'member.role_changed',
      actor,
      workspaceId,
      target: userId,
      ip,
      data: { from: current, to: role },
    });
  }

  // ── invitations ────────────────────────────────────────────────────────────────────────────────────────────
  async invite(actor: AuditActor & { role: Role }, workspaceId: string, emailInput: string, role: Role, ip?: string) {
    if (role === 'owner' && actor.role !== 'owner')
      throw new PaiError('FORBIDDEN', 'only an owner may invite owners', { path: 'role' });
    const token = newSecret('inv_');
    const email = normalizeEmail(emailInput);
    const inv = await this.repo.createInvitation({
      id: newId('inv'),
      workspaceId,
      email,
      role,
      tokenHash: sha256(token),
      createdBy: actor.id ?? '',
      expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
    });
    await audit(this.stores.audit, { action: 'member.invited', actor, workspaceId, target: email, ip, data: { role } });
    return { id: inv.id, token, email, role, expiresAt: inv.expiresAt.toISOString() };
  }

  /**
   * Accepts an invitation: creates the account for the invited address (or, when it exists, checks its password)
   * and adds the membership. The token works once, until it expires.
   */
  async acceptInvite(input: { token: string; name: string; password: string }, ip?: string) {
    const inv = await this.repo.invitationByTokenHash(sha256(input.token));
    if (!inv || inv.acceptedAt || inv.expiresAt.getTime() <= Date.now())
      throw new PaiError('INVITATION_INVALID', 'this invitation is unknown, used or expired', {
        path: 'token',
      });
    let user = await this.repo.userByEmail(inv.email);
    if (user) {
      // Joining with an existing account checks its password: throttled exactly like a sign-in.
      const attempt = await startAttempt(this.stores.signInAttempts, [`email:${inv.email}`, `ip:${ip ?? 'unknown'}`]);
      const ok = await verifyPassword(input.password, user.passwordHash);
      if (ok) await attempt.succeeded([`email:${inv.email}`]);
      else
        await audit(this.stores.audit, {
          action: 'login.failed',
          actor: { email: inv.email },
          ip,
          data: { via: 'invitation' },
        });
      if (!ok)
        throw new PaiError('INVALID_CREDENTIALS', 'this address has an account: give its password', {
          path: 'password',
        });
    } else {
      user = await this.repo.createUser({
        id: newId('usr'),
        email: inv.email,
        name: input.name.trim(),
        passwordHash: await hashPassword(input.password),
      });
    }
    if (!(await this.repo.claimInvitation(inv.id, new Date())))
      throw new PaiError('INVITATION_INVALID', 'this invitation was used meanwhile', { path: 'token' });
    await this.repo.addMember(inv.workspaceId, user.id, inv.role);
    await audit(this.stores.audit, {
      action: 'member.joined',
      actor: user,
      workspaceId: inv.workspaceId,
      ip,
      data: { role: inv.role },
    });
    return { user: userView(user), workspaceId: inv.workspaceId, token: await this.createSession(user.id) };
  }
}
