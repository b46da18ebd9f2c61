import { guarded } from '@/lib/server/auth/guard';
import { listAudit } from '@/lib/server/auth/audit';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';

export const dynamic = 'force-dynamic';

/**
 * The workspace's audit log, newest first (`?limit=`, default 200). Sign-in events belong to no workspace; the
 * owners of the first workspace (who set the server up) see them too.
 */
export const GET = guarded('admin', async (req, _ctx: unknown, { app, caller }) => {
  const limit = Number(new URL(req.url).searchParams.get('limit') ?? 200) || 200;
  const instanceOwner = caller.workspaceId === DEFAULT_WORKSPACE_ID && caller.role === 'owner';
  return Response.json(await listAudit(app.stores.audit, caller.workspaceId, limit, instanceOwner));
});
