/** The audit log of security-relevant actions (sign-ins, keys, tokens, credentials, roles, publishing, deletion). */
import { clientIp } from './request-info';
import type { AuditLog } from '@/engine/store/audit';

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
export async function audit(log: AuditLog, e: AuditInput): Promise<void> {
  try {
    await log.record({
      action: e.action,
      actorId: e.actor?.id ?? null,
      actorEmail: e.actor?.email ?? null,
      workspaceId: e.workspaceId ?? null,
      target: e.target ?? null,
      ip: e.ip ?? null,
      data: e.data ?? null,
    });
  } catch (err) {
    console.error('[paiflow] audit entry not recorded:', e.action, (err as Error).message);
  }
}

export async function listAudit(log: AuditLog, workspaceId: string, limit = 200, withGlobal = false) {
  const rows = await log.list(workspaceId, { limit: Math.min(Math.max(limit, 1), 1000), withGlobal });
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    action: r.action,
    actor: r.actorId || r.actorEmail ? { id: r.actorId, email: r.actorEmail } : null,
    target: r.target,
    ip: r.ip,
    data: r.data ?? null,
  }));
}

/** An audit entry for an action of a signed-in caller in their workspace. */
export function auditAction(
  log: AuditLog,
  caller: { user: AuditActor; workspaceId: string },
  req: Request,
  action: string,
  target?: string,
  data?: Record<string, unknown>,
): Promise<void> {
  return audit(log, {
    action,
    actor: caller.user,
    workspaceId: caller.workspaceId,
    target,
    ip: clientIp(req),
    data,
  });
}
