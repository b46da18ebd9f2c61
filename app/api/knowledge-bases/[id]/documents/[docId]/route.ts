import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { documentUpdateSchema } from '@/engine/knowledge/schemas';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string; docId: string }> };

export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) => {
  const { id, docId } = await params;
  return Response.json(await app.knowledge.inWorkspace(caller.workspaceId).getDocument(id, docId));
});

/** `{ metadata?, enabled? }`: new metadata (replacing it whole), or the document on / off for searches. */
export const PATCH = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id, docId } = await params;
  const knowledge = app.knowledge.inWorkspace(caller.workspaceId);
  await knowledge.getDocument(id, docId); // 404 before reading the body
  return Response.json(await knowledge.updateDocument(id, docId, await readJson(req, documentUpdateSchema)));
});

/** Removes the document and its chunks (stops its indexing if it is still running). */
export const DELETE = guarded('edit', async (_req, { params }: Ctx, { app, caller }) => {
  const { id, docId } = await params;
  await app.knowledge.inWorkspace(caller.workspaceId).deleteDocument(id, docId);
  return new Response(null, { status: 204 });
});
