import { guarded } from '@/lib/server/auth/guard';
import { inboxOf } from '@/lib/server/runs/inbox';

export const dynamic = 'force-dynamic';

/** The runs waiting for an answer the caller may give, across their workspaces (see lib/server/runs/inbox.ts). */
export const GET = guarded('read', async (req, _ctx: unknown, { app, caller }) =>
  Response.json(await inboxOf(app, caller, req)),
);
