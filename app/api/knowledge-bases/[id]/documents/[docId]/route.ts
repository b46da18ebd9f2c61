import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string; docId: string }> };

export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) => {
  const { id, docId } = await params;
  return Response.json(await app.knowledge.inWorkspace(caller.workspaceId).getDocument(id, docId));
});

/** Removes the document and its chunks (stops its indexing if it is still running). */
export const DELETE = guarded('edit', async (_req, { params }: Ctx, { app, caller }) => {
  const { id, docId } = await params;
  await app.knowledge.inWorkspace(caller.workspaceId).deleteDocument(id, docId);
  return new Response(null, { status: 204 });
});
