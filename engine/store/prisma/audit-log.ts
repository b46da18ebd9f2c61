/** The audit log and the sign-in attempts (tables audit_log and auth_failures) on Prisma. */
import type { SignInAttempts } from '../accounts';
import type { AuditLog, NewAuditEntry } from '../audit';
import type { PrismaClient } from './generated/client';

export class PrismaAuditLog implements AuditLog {
  constructor(private readonly prisma: PrismaClient) {}

  async record(e: NewAuditEntry) {
    await this.prisma.auditEntry.create({ data: { ...e, data: (e.data ?? undefined) as object | undefined } });
  }

  async list(workspaceId: string, opts: { limit: number; withGlobal: boolean }) {
    const rows = await this.prisma.auditEntry.findMany({
      where: opts.withGlobal ? { OR: [{ workspaceId }, { workspaceId: null }] } : { workspaceId },
      orderBy: { id: 'desc' },
      take: opts.limit,
    });
    return rows.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      action: r.action,
      actorId: r.actorId,
      actorEmail: r.actorEmail,
      workspaceId: r.workspaceId,
      target: r.target,
      ip: r.ip,
      data: r.data ?? null,
    }));
  }
}

export class PrismaSignInAttempts implements SignInAttempts {
  constructor(private readonly prisma: PrismaClient) {}

  async record(keys: string[]) {
    const rows = await this.prisma.authFailure.createManyAndReturn({
      data: keys.map((key) => ({ key })),
      select: { id: true },
    });
    return rows.map((r) => String(r.id));
  }

  async recent(key: string, since: Date, exceptIds: string[], limit: number) {
    const rows = await this.prisma.authFailure.findMany({
      where: { key, at: { gt: since }, id: { notIn: exceptIds.map(BigInt) } },
      orderBy: { at: 'desc' },
      take: limit,
      select: { at: true },
    });
    return rows.map((r) => r.at);
  }

  async forget(ids: string[], keys: string[]) {
    await this.prisma.authFailure.deleteMany({
      where: { OR: [{ id: { in: ids.map(BigInt) } }, { key: { in: keys } }] },
    });
  }

  async deleteOlderThan(before: Date) {
    await this.prisma.authFailure.deleteMany({ where: { at: { lt: before } } });
  }
}
