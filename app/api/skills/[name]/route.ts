import { guarded } from '@/lib/server/auth/guard';
import { clientIp } from '@/lib/server/auth/request-info';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ name: string }> };

/** The skill's body and file list. */
export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) =>
  Response.json(await app.skills.get(caller.workspaceId, (await params).name)),
);

/** Deletes the workspace's upload (a SKILLS_DIR skill is read-only: 409). */
export const DELETE = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  await app.skills.delete(caller.workspaceId, (await params).name, caller.user, clientIp(req));
  return new Response(null, { status: 204 });
});
