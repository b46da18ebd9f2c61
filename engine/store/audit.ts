/** The audit log's rows (table audit_log): security-relevant actions, newest first. */

export interface NewAuditEntry {
  action: string;
  actorId: string | null;
  actorEmail: string | null;
  /** null: an instance-wide entry (a sign-in, the owner's setup). */
  workspaceId: string | null;
  target: string | null;
  ip: string | null;
  data: Record<string, unknown> | null;
}

export interface AuditEntryRecord extends Omit<NewAuditEntry, 'data'> {
  /** Increasing with time. */
  id: string;
  at: string;
  data: unknown;
}

export interface AuditLog {
  record(entry: NewAuditEntry): Promise<void>;
  /** The workspace's latest entries (with `withGlobal`, the instance-wide ones too), newest first. */
  list(workspaceId: string, opts: { limit: number; withGlobal: boolean }): Promise<AuditEntryRecord[]>;
}
