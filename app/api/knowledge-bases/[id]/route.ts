import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { updateKnowledgeBaseSchema } from '@/engine/knowledge/schemas';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) => {
  const { id } = await params;
  const kb = await app.knowledge.inWorkspace(caller.workspaceId).getKnowledgeBase(id);
  const docs = await app.knowledge.inWorkspace(caller.workspaceId).listDocuments(id);
  const embedder = await app.knowledge.inWorkspace(caller.workspaceId).embedderCoverage(id);
  const chunkCount = docs.reduce((n, d) => n + d.chunkCount, 0);
  // `search`: the store and hybrid path its searches take, as /api/health names it (e.g. Basic-licence RRF fused in
  // the app: "elasticsearch (kNN + BM25 rrf-client)").
  const search = app.knowledge.describeStore();
  return Response.json({ ...kb, documentCount: docs.length, chunkCount, embedder, search });
});

/** `{ vectorWeight }` (0..1, null: the default) → the knowledge base; an unknown key is refused. */
export const PATCH = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const body = await readJson(req, updateKnowledgeBaseSchema);
  return Response.json(
    await app.knowledge.inWorkspace(caller.workspaceId).updateKnowledgeBase((await params).id, body),
  );
});

/** Deletes the knowledge base, its documents and its index. */
export const DELETE = guarded('edit', async (_req, { params }: Ctx, { app, caller }) => {
  await app.knowledge.inWorkspace(caller.workspaceId).deleteKnowledgeBase((await params).id);
  return new Response(null, { status: 204 });
});
