/** AccountRepository on Prisma: users, sessions, personal access tokens, workspaces, memberships, invitations. */
import type { AccountRepository, InvitationRecord, TokenRecord, UserRecord } from '../accounts';
import { isUniqueViolation } from './errors';
import type { PrismaClient } from './generated/client';

/** Serialises first-user setups (pg_advisory_xact_lock): of two at once, the second sees the first's user. */
const SETUP_LOCK = 727071015;

const user = (u: UserRecord): UserRecord => ({ id: u.id, email: u.email, name: u.name, passwordHash: u.passwordHash });
const token = (t: TokenRecord): TokenRecord => ({
  id: t.id,
  userId: t.userId,
  workspaceId: t.workspaceId,
  name: t.name,
  prefix: t.prefix,
  createdAt: t.createdAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
});
const invitation = (i: InvitationRecord): InvitationRecord => ({
  id: i.id,
  workspaceId: i.workspaceId,
  email: i.email,
  role: i.role,
  expiresAt: i.expiresAt,
  acceptedAt: i.acceptedAt,
});

export class PrismaAccountRepository implements AccountRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async hasUsers() {
    return (await this.prisma.user.count()) > 0;
  }

  async createOwner(owner: UserRecord, defaultWorkspace: { id: string; name: string }) {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`);
      if ((await tx.user.count()) > 0) return null;
      const u = await tx.user.create({ data: user(owner) });
      await tx.workspace.upsert({ where: { id: defaultWorkspace.id }, create: defaultWorkspace, update: {} });
      // Every workspace without members (from before accounts) becomes the owner's.
      const orphans = await tx.workspace.findMany({ where: { memberships: { none: {} } }, select: { id: true } });
      await tx.membership.createMany({
        data: orphans.map((w) => ({ workspaceId: w.id, userId: u.id, role: 'owner' })),
      });
      return user(u);
    });
  }

  async createUser(u: UserRecord) {
    return user(await this.prisma.user.create({ data: user(u) }));
  }

  async userById(id: string) {
    const u = await this.prisma.user.findUnique({ where: { id } });
    return u ? user(u) : null;
  }

  async userByEmail(email: string) {
    const u = await this.prisma.user.findUnique({ where: { email } });
    return u ? user(u) : null;
  }

  async changePassword(userId: string, passwordHash: string, keepSessionId?: string) {
    const now = new Date();
    const [, , tokens] = await this.prisma.$transaction([
      this.prisma.user.update({ where: { id: userId }, data: { passwordHash, passwordChangedAt: now } }),
      this.prisma.session.updateMany({
        where: { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
        data: { revokedAt: now },
      }),
      this.prisma.personalAccessToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } }),
    ]);
    return { tokensRevoked: tokens.count };
  }

  // ── identities at OpenID Connect issuers ───────────────────────────────────────────────────────────────────
  async userByIdentity(issuer: string, subject: string) {
    const i = await this.prisma.userIdentity.findUnique({
      where: { issuer_subject: { issuer, subject } },
      include: { user: true },
    });
    return i ? user(i.user) : null;
  }

  async createUserWithIdentity(
    u: UserRecord,
    identity: { issuer: string; subject: string },
    membership: { workspaceId: string; role: string },
  ) {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const created = await tx.user.create({ data: user(u) });
        await tx.userIdentity.create({ data: { ...identity, userId: created.id } });
        await tx.membership.create({ data: { ...membership, userId: created.id } });
        return user(created);
      });
    } catch (e) {
      // The identity or the e-mail address was taken meanwhile (two first sign-ins at once): the caller looks again.
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  async linkIdentity(userId: string, identity: { issuer: string; subject: string }) {
    try {
      await this.prisma.userIdentity.create({ data: { ...identity, userId } });
      return true;
    } catch (e) {
      if (isUniqueViolation(e)) return false;
      throw e;
    }
  }

  // ── sessions ───────────────────────────────────────────────────────────────────────────────────────────────
  async createSession(s: { id: string; tokenHash: string; userId: string; expiresAt: Date }) {
    await this.prisma.session.create({ data: s });
  }

  async sessionByTokenHash(tokenHash: string) {
    const s = await this.prisma.session.findUnique({ where: { tokenHash }, include: { user: true } });
    if (!s) return null;
    return {
      id: s.id,
      userId: s.userId,
      workspaceId: s.workspaceId,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.expiresAt,
      revokedAt: s.revokedAt,
      user: user(s.user),
    };
  }

  async touchSession(id: string, at: Date) {
    await this.prisma.session.update({ where: { id }, data: { lastSeenAt: at } });
  }

  async setSessionWorkspace(id: string, workspaceId: string) {
    await this.prisma.session.update({ where: { id }, data: { workspaceId } });
  }

  async revokeSessionByTokenHash(tokenHash: string, at: Date) {
    await this.prisma.session.updateMany({ where: { tokenHash, revokedAt: null }, data: { revokedAt: at } });
  }

  // ── personal access tokens ─────────────────────────────────────────────────────────────────────────────────
  async createToken(t: {
    id: string;
    userId: string;
    workspaceId: string | null;
    name: string;
    prefix: string;
    hash: string;
  }) {
    return token(await this.prisma.personalAccessToken.create({ data: t }));
  }

  async listTokens(userId: string) {
    const rows = await this.prisma.personalAccessToken.findMany({ where: { userId }, orderBy: { createdAt: 'desc' } });
    return rows.map(token);
  }

  async revokeToken(userId: string, id: string, at: Date) {
    const res = await this.prisma.personalAccessToken.updateMany({
      where: { id, userId, revokedAt: null },
      data: { revokedAt: at },
    });
    if (res.count) return 'revoked' as const;
    const exists = await this.prisma.personalAccessToken.findFirst({ where: { id, userId }, select: { id: true } });
    return exists ? ('already' as const) : ('missing' as const);
  }

  async tokenByHash(hash: string) {
    const t = await this.prisma.personalAccessToken.findUnique({ where: { hash }, include: { user: true } });
    return t ? { ...token(t), user: user(t.user) } : null;
  }

  async touchToken(id: string, at: Date) {
    await this.prisma.personalAccessToken.update({ where: { id }, data: { lastUsedAt: at } });
  }

  // ── workspaces and members ─────────────────────────────────────────────────────────────────────────────────
  async membershipsOf(userId: string) {
    const rows = await this.prisma.membership.findMany({
      where: { userId },
      include: { workspace: true },
      orderBy: [{ createdAt: 'asc' }, { workspaceId: 'asc' }],
    });
    return rows.map((m) => ({
      workspaceId: m.workspace.id,
      workspaceName: m.workspace.name,
      userId: m.userId,
      role: m.role,
      createdAt: m.createdAt,
    }));
  }

  async roleIn(userId: string, workspaceId: string) {
    const m = await this.prisma.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    return m?.role ?? null;
  }

  async createWorkspace(w: { id: string; name: string; ownerId: string }) {
    const ws = await this.prisma.workspace.create({
      data: { id: w.id, name: w.name, memberships: { create: { userId: w.ownerId, role: 'owner' } } },
    });
    return { id: ws.id, name: ws.name };
  }

  async listMembers(workspaceId: string) {
    const rows = await this.prisma.membership.findMany({
      where: { workspaceId },
      include: { user: true },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((m) => ({ user: user(m.user), role: m.role, joinedAt: m.createdAt }));
  }

  countOwners(workspaceId: string) {
    return this.prisma.membership.count({ where: { workspaceId, role: 'owner' } });
  }

  async setRole(workspaceId: string, userId: string, role: string) {
    await this.prisma.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role } });
  }

  async addMember(workspaceId: string, userId: string, role: string) {
    await this.prisma.membership.upsert({
      where: { workspaceId_userId: { workspaceId, userId } },
      create: { workspaceId, userId, role },
      update: {},
    });
  }

  // ── invitations ────────────────────────────────────────────────────────────────────────────────────────────
  async createInvitation(inv: {
    id: string;
    workspaceId: string;
    email: string;
    role: string;
    tokenHash: string;
    createdBy: string;
    expiresAt: Date;
  }) {
    return invitation(await this.prisma.invitation.create({ data: inv }));
  }

  async invitationByTokenHash(tokenHash: string) {
    const inv = await this.prisma.invitation.findUnique({ where: { tokenHash } });
    return inv ? invitation(inv) : null;
  }

  async claimInvitation(id: string, at: Date) {
    const claimed = await this.prisma.invitation.updateMany({
      where: { id, acceptedAt: null },
      data: { acceptedAt: at },
    });
    return claimed.count > 0;
  }
}
