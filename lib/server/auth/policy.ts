/**
 * The one policy function: which role may do which action in a workspace. Routes name an action; they never
 * compare roles themselves.
 */
import { PaiError } from '@/engine/errors';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** The least role each action needs. */
const NEEDS = {
  /** Read workflows, versions, runs and their traces; node types; knowledge bases (read and search). */
  read: 'viewer',
  /** Create, edit, delete, run, resume, cancel, answer and publish workflows; knowledge bases and documents. */
  edit: 'editor',
  /** Members and invitations, credentials, API keys, the audit log. */
  admin: 'admin',
  /**
   * Publish past a workflow's evaluation gate (`force`), or weaken the gate (remove it, lower a bar, drop a scorer,
   * loosen the rule against the published version): both let through a draft the gate would refuse.
   */
  forcePublish: 'owner',
  /** Make or unmake owners. */
  owner: 'owner',
} as const satisfies Record<string, Role>;

export type Action = keyof typeof NEEDS;

export function can(role: Role, action: Action): boolean {
  return RANK[role] >= RANK[NEEDS[action]];
}

export function requireRole(role: Role, action: Action): void {
  if (!can(role, action)) {
    throw new PaiError('FORBIDDEN', `your role (${role}) may not do this; it needs ${NEEDS[action]} or higher`);
  }
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

export function outranks(a: Role, b: Role): boolean {
  return RANK[a] > RANK[b];
}
