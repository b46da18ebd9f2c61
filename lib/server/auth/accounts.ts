/**
 * Users, sessions, personal access tokens, workspaces, memberships and invitations, on the app database.
 * Secrets (session tokens, PATs, invitation tokens) are stored as sha256 only; passwords as scrypt hashes.
 */
import { PaiError } from '@/engine/errors';
import type { PrismaClient } from '@/engine/store/prisma/generated/client';
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

export class Accounts {
  constructor(
    private readonly prisma: PrismaClient,
    readonly sessions: SessionSettings,
  ) {}

  async hasUsers(): Promise<boolean> {
    return (await this.prisma.user.count()) > 0;
  }

  /**
   * Creates the first user as owner of the workspace that holds the data from before accounts (and the seeded
   * example). Only while no user exists: afterwards 409 SETUP_DONE, even for two setups racing.
   */
  async setup(input: { email: string; password: string; name: string }, ip?: string): Promise<UserView> {
    const email = normalizeEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    const user = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(727071015)');
      if ((await tx.user.count()) > 0)
        throw new PaiError('SETUP_DONE', 'the owner account exists already', { status: 409 });
      const u = await tx.user.create({ data: { id: newId('usr'), email, name: input.name.trim(), passwordHash } });
      await tx.workspace.upsert({
        where: { id: DEFAULT_WORKSPACE_ID },
        create: { id: DEFAULT_WORKSPACE_ID, name: 'My workspace' },
        update: {},
      });
      // Every workspace without members (from before accounts) becomes the owner's.
      const orphans = await tx.workspace.findMany({ where: { memberships: { none: {} } }, select: { id: true } });
      await tx.membership.createMany({
        data: orphans.map((w) => ({ workspaceId: w.id, userId: u.id, role: 'owner' })),
      });
      return u;
    });
    await audit(this.prisma, { action: 'setup.owner_created', actor: { id: user.id, email }, ip });
    return userView(user);
  }

  /** Signs in, throttled per account and per client address (10 failures in 15 min → 429 with Retry-After). */
  async login(emailInput: string, password: string, ip: string): Promise<{ user: UserView; token: string }> {
    const email = normalizeEmail(emailInput);
    const attempt = await startAttempt(this.prisma, [`email:${email}`, `ip:${ip}`]);
    const user = await this.prisma.user.findUnique({ where: { email } });
    const ok = await verifyPassword(password, user?.passwordHash ?? UNUSABLE_HASH);
    if (!user || !ok) {
      await audit(this.prisma, { action: 'login.failed', actor: { email }, ip });
      throw new PaiError('INVALID_CREDENTIALS', 'wrong e-mail address or password', { status: 401 });
    }
    await attempt.succeeded([`email:${email}`]);
    const token = await this.createSession(user.id);
    await audit(this.prisma, { action: 'login.succeeded', actor: user, ip });
    return { user: userView(user), token };
  }

  async createSession(userId: string): Promise<string> {
    const token = newSecret();
    await this.prisma.session.create({
      data: {
        id: newId('ses'),
        tokenHash: sha256(token),
        userId,
        expiresAt: new Date(Date.now() + this.sessions.maxAgeSeconds * 1000),
      },
    });
    return token;
  }

  /** The session's user, or null when the token is unknown, revoked, idle too long or past its absolute expiry. */
  async resolveSession(token: string) {
    const s = await this.prisma.session.findUnique({ where: { tokenHash: sha256(token) }, include: { user: true } });
    const now = Date.now();
    if (!s || s.revokedAt || s.expiresAt.getTime() <= now) return null;
    if (s.lastSeenAt.getTime() + this.sessions.idleSeconds * 1000 <= now) return null;
    if (now - s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await this.prisma.session.update({ where: { id: s.id }, data: { lastSeenAt: new Date(now) } });
    }
    return { sessionId: s.id, workspaceId: s.workspaceId, user: userView(s.user) };
  }

  async setSessionWorkspace(sessionId: string, workspaceId: string): Promise<void> {
    await this.prisma.session.update({ where: { id: sessionId }, data: { workspaceId } });
  }

  async logout(token: string): Promise<void> {
    await this.prisma.session.updateMany({
      where: { tokenHash: sha256(token), revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }

  /**
   * Changes the password, signs out every other session of the user and revokes all their personal access tokens,
   * in one transaction: whatever was taken with the old password stops working with it. Checking the current one is
   * throttled exactly like a sign-in (same account and address counters), so a stolen session cannot be used to
   * guess the password.
   */
  async changePassword(user: UserView, current: string, next: string, keepSessionId?: string, ip?: string) {
    const row = await this.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    const accountKey = `email:${row.email}`;
    const attempt = await startAttempt(this.prisma, [accountKey, ...(ip ? [`ip:${ip}`] : [])]);
    if (!(await verifyPassword(current, row.passwordHash))) {
      await audit(this.prisma, { action: 'password.change_failed', actor: user, ip });
      throw new PaiError('INVALID_CREDENTIALS', 'the current password is wrong', {
        status: 400,
        path: 'currentPassword',
      });
    }
    await attempt.succeeded([accountKey]);
    const passwordHash = await hashPassword(next);
    const now = new Date();
    const [, , tokens] = await this.prisma.$transaction([
      this.prisma.user.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: now } }),
      this.prisma.session.updateMany({
        where: { userId: user.id, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
        data: { revokedAt: now },
      }),
      this.prisma.personalAccessToken.updateMany({
        where: { userId: user.id, revokedAt: null },
        data: { revokedAt: now },
      }),
    ]);
    await audit(this.prisma, { action: 'password.changed', actor: user, ip, data: { tokensRevoked: tokens.count } });
  }

  // ── personal access tokens ─────────────────────────────────────────────────────────────────────────────────
  async createToken(user: UserView, name: string, workspaceId: string | undefined, ip?: string) {
    if (workspaceId) await this.requireMembership(user.id, workspaceId);
    const token = newSecret(PAT_PREFIX);
    const row = await this.prisma.personalAccessToken.create({
      data: {
        id: newId('tok'),
        userId: user.id,
        workspaceId: workspaceId ?? null,
        name,
        prefix: token.slice(0, 12),
        hash: sha256(token),
      },
    });
    await audit(this.prisma, { action: 'token.created', actor: user, target: row.id, ip, workspaceId });
    return { id: row.id, token, name: row.name, prefix: row.prefix, workspaceId: row.workspaceId };
  }

  async listTokens(userId: string) {
    const rows = await this.prisma.personalAccessToken.findMany({ where: { userId }, orderBy: { createdAt: 'desc' } });
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
    if (typeof id !== 'string' || !id) throw new PaiError('TOKEN_NOT_FOUND', 'token not found', { status: 404 });
    const res = await this.prisma.personalAccessToken.updateMany({
      where: { id, userId: user.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (!res.count) {
      const exists = await this.prisma.personalAccessToken.findFirst({ where: { id, userId: user.id } });
      if (!exists) throw new PaiError('TOKEN_NOT_FOUND', `token ${id} not found`, { status: 404 });
      return;
    }
    await audit(this.prisma, { action: 'token.revoked', actor: user, target: id, ip });
  }

  async resolveToken(token: string) {
    const t = await this.prisma.personalAccessToken.findUnique({
      where: { hash: sha256(token) },
      include: { user: true },
    });
    if (!t || t.revokedAt) return null;
    if (!t.lastUsedAt || Date.now() - t.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
      await this.prisma.personalAccessToken.update({ where: { id: t.id }, data: { lastUsedAt: new Date() } });
    }
    return { tokenId: t.id, workspaceId: t.workspaceId, user: userView(t.user) };
  }

  // ── workspaces and members ─────────────────────────────────────────────────────────────────────────────────
  async workspacesOf(userId: string) {
    const rows = await this.prisma.membership.findMany({
      where: { userId },
      include: { workspace: true },
      orderBy: [{ createdAt: 'asc' }, { workspaceId: 'asc' }],
    });
    return rows.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role as Role }));
  }

  async roleIn(userId: string, workspaceId: string): Promise<Role | null> {
    const m = await this.prisma.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    return m && isRole(m.role) ? m.role : null;
  }

  private async requireMembership(userId: string, workspaceId: string): Promise<Role> {
    const role = await this.roleIn(userId, workspaceId);
    if (!role)
      throw new PaiError('WORKSPACE_NOT_FOUND', `workspace ${workspaceId} not found`, {
        status: 404,
        path: 'workspaceId',
      });
    return role;
  }

  async createWorkspace(user: UserView, name: string) {
    const ws = await this.prisma.workspace.create({
      data: { id: newId('ws'), name, memberships: { create: { userId: user.id, role: 'owner' } } },
    });
    return { id: ws.id, name: ws.name, role: 'owner' as Role };
  }

  async listMembers(workspaceId: string) {
    const rows = await this.prisma.membership.findMany({
      where: { workspaceId },
      include: { user: true },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((m) => ({
      ...userView(m.user),
      userId: m.userId,
      role: m.role,
      joinedAt: m.createdAt.toISOString(),
    }));
  }

  /** Changes a member's role. Only an owner makes or unmakes owners; the last owner stays an owner. */
  async setRole(actor: AuditActor & { role: Role }, workspaceId: string, userId: string, role: Role, ip?: string) {
    const current = await this.roleIn(userId, workspaceId);
    if (!current) throw new PaiError('MEMBER_NOT_FOUND', `user ${userId} is not a member`, { status: 404 });
    if ((current === 'owner' || role === 'owner') && actor.role !== 'owner')
      throw new PaiError('FORBIDDEN', 'only an owner may make or unmake owners', { status: 403 });
    if (outranks(current, actor.role))
      throw new PaiError('FORBIDDEN', 'you may not change the role of someone above you', { status: 403 });
    if (current === 'owner' && role !== 'owner') {
      const owners = await this.prisma.membership.count({ where: { workspaceId, role: 'owner' } });
      if (owners <= 1)
        throw new PaiError('LAST_OWNER', 'a workspace keeps at least one owner', { status: 409, path: 'role' });
    }
    await this.prisma.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role } });
    await audit(this.prisma, {
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
      throw new PaiError('FORBIDDEN', 'only an owner may invite owners', { status: 403, path: 'role' });
    const token = newSecret('inv_');
    const email = normalizeEmail(emailInput);
    const inv = await this.prisma.invitation.create({
      data: {
        id: newId('inv'),
        workspaceId,
        email,
        role,
        tokenHash: sha256(token),
        createdBy: actor.id ?? '',
        expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
      },
    });
    await audit(this.prisma, { action: 'member.invited', actor, workspaceId, target: email, ip, data: { role } });
    return { id: inv.id, token, email, role, expiresAt: inv.expiresAt.toISOString() };
  }

  /**
   * Accepts an invitation: creates the account for the invited address (or, when it exists, checks its password)
   * and adds the membership. The token works once, until it expires.
   */
  async acceptInvite(input: { token: string; name: string; password: string }, ip?: string) {
    const inv = await this.prisma.invitation.findUnique({ where: { tokenHash: sha256(input.token) } });
    if (!inv || inv.acceptedAt || inv.expiresAt.getTime() <= Date.now())
      throw new PaiError('INVITATION_INVALID', 'this invitation is unknown, used or expired', {
        status: 404,
        path: 'token',
      });
    let user = await this.prisma.user.findUnique({ where: { email: inv.email } });
    if (user) {
      // Joining with an existing account checks its password: throttled exactly like a sign-in.
      const attempt = await startAttempt(this.prisma, [`email:${inv.email}`, `ip:${ip ?? 'unknown'}`]);
      const ok = await verifyPassword(input.password, user.passwordHash);
      if (ok) await attempt.succeeded([`email:${inv.email}`]);
      else
        await audit(this.prisma, {
          action: 'login.failed',
          actor: { email: inv.email },
          ip,
          data: { via: 'invitation' },
        });
      if (!ok)
        throw new PaiError('INVALID_CREDENTIALS', 'this address has an account: give its password', {
          status: 401,
          path: 'password',
        });
    } else {
      user = await this.prisma.user.create({
        data: {
          id: newId('usr'),
          email: inv.email,
          name: input.name.trim(),
          passwordHash: await hashPassword(input.password),
        },
      });
    }
    const claimed = await this.prisma.invitation.updateMany({
      where: { id: inv.id, acceptedAt: null },
      data: { acceptedAt: new Date() },
    });
    if (!claimed.count)
      throw new PaiError('INVITATION_INVALID', 'this invitation was used meanwhile', { status: 404, path: 'token' });
    await this.prisma.membership.upsert({
      where: { workspaceId_userId: { workspaceId: inv.workspaceId, userId: user.id } },
      create: { workspaceId: inv.workspaceId, userId: user.id, role: inv.role },
      update: {},
    });
    await audit(this.prisma, {
      action: 'member.joined',
      actor: user,
      workspaceId: inv.workspaceId,
      ip,
      data: { role: inv.role },
    });
    return { user: userView(user), workspaceId: inv.workspaceId, token: await this.createSession(user.id) };
  }
}
