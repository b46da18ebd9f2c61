import { guarded } from '@/lib/server/auth/guard';
import { listWorkspaceRuns } from '@/lib/server/runs/analytics';

export const dynamic = 'force-dynamic';

/** The caller's workspace's runs, newest first: filters, search and cursor pages (see lib/server/runs/analytics.ts). */
export const GET = guarded('read', async (req, _ctx: unknown, { app, caller }) =>
  Response.json(await listWorkspaceRuns(app, caller, req)),
);
