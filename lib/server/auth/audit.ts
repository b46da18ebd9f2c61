/** The audit log of security-relevant actions (sign-ins, keys, tokens, credentials, roles, publishing, deletion). */
import { clientIp } from './request-info';
import type { PrismaClient } from '@/engine/store/prisma/generated/client';

export interface AuditActor {
  id?: string;
  email?: string;
}

export interface AuditInput {
  action: string;
  actor?: AuditActor;
  workspaceId?: string | null;
  target?: string;
  ip?: string;
  data?: Record<string, unknown>;
}

/** Records an entry; a failure to record is logged, never turned into a failed request. */
export async function audit(prisma: PrismaClient, e: AuditInput): Promise<void> {
  try {
    await prisma.auditEntry.create({
      data: {
        action: e.action,
        actorId: e.actor?.id ?? null,
        actorEmail: e.actor?.email ?? null,
        workspaceId: e.workspaceId ?? null,
        target: e.target ?? null,
        ip: e.ip ?? null,
        data: (e.data ?? undefined) as object | undefined,
      },
    });
  } catch (err) {
    console.error('[paiflow] audit entry not recorded:', e.action, (err as Error).message);
  }
}

export async function listAudit(prisma: PrismaClient, workspaceId: string, limit = 200, withGlobal = false) {
  const rows = await prisma.auditEntry.findMany({
    where: withGlobal ? { OR: [{ workspaceId }, { workspaceId: null }] } : { workspaceId },
    orderBy: { id: 'desc' },
    take: Math.min(Math.max(limit, 1), 1000),
  });
  return rows.map((r) => ({
    id: String(r.id),
    at: r.at.toISOString(),
    action: r.action,
    actor: r.actorId || r.actorEmail ? { id: r.actorId, email: r.actorEmail } : null,
    target: r.target,
    ip: r.ip,
    data: r.data ?? null,
  }));
}

/** An audit entry for an action of a signed-in caller in their workspace. */
export function auditAction(
  prisma: PrismaClient,
  caller: { user: AuditActor; workspaceId: string },
  req: Request,
  action: string,
  target?: string,
  data?: Record<string, unknown>,
): Promise<void> {
  return audit(prisma, {
    action,
    actor: caller.user,
    workspaceId: caller.workspaceId,
    target,
    ip: clientIp(req),
    data,
  });
}
