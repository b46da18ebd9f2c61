/**
 * GET /api/inbox: the runs waiting for a person (a human-input node, a tool call to approve, a breakpoint) that the
 * caller may answer — in every workspace where their role may `edit` (answering is an edit; a viewer's inbox is
 * empty) — newest first, with the total count for the header's badge. `workflowId` narrows it to one workflow (the
 * editor's notice). The store's query (RunAnalyticsStore.waitingRuns) always names the caller's workspaces.
 */
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { can } from '../auth/policy';

export const INBOX_DEFAULT = 20;
export const INBOX_MAX = 100;

const querySchema = z.object({
  workflowId: z.string().min(1).max(100).optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= INBOX_MAX, `must be between 1 and ${INBOX_MAX}`)
    .optional(),
});

function parseQuery(req: Request) {
  const given: Record<string, string> = {};
  for (const [k, v] of new URL(req.url).searchParams) if (v !== '') given[k] = v;
  const r = querySchema.safeParse(given);
  if (r.success) return r.data;
  const i = r.error.issues[0];
  const name = String(i.path[0] ?? '');
  throw new PaiError('VALIDATION_ERROR', `${name} ${i.message}`.trim(), { path: `query.${name}` });
}

export async function inboxOf(app: App, caller: Pick<Caller, 'user'>, req: Request) {
  const q = parseQuery(req);
  const spaces = (await app.accounts.workspacesOf(caller.user.id)).filter((w) => can(w.role, 'edit'));
  const { rows, total } = await app.stores.analytics.waitingRuns({
    workspaceIds: spaces.map((w) => w.id),
    workflowId: q.workflowId,
    limit: q.limit ?? INBOX_DEFAULT,
  });
  const names = new Map(spaces.map((w) => [w.id, w.name]));
  return { count: total, runs: rows.map((r) => ({ ...r, workspaceName: names.get(r.workspaceId) ?? null })) };
}
