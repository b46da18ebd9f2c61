import { guarded } from '@/lib/server/auth/guard';
import { clientIp } from '@/lib/server/auth/request-info';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

export const GET = guarded('edit', async (_req, { params }: Ctx, { app, caller }) =>
  Response.json(await app.credentials.get(caller.workspaceId, (await params).id)),
);

/** Deletes the credential; nodes that use it fail with CREDENTIAL_NOT_FOUND from then on. */
export const DELETE = guarded('admin', async (req, { params }: Ctx, { app, caller }) => {
  await app.credentials.delete(caller.workspaceId, (await params).id, caller.user, clientIp(req));
  return new Response(null, { status: 204 });
});
