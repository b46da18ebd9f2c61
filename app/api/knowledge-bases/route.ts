import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { createKnowledgeBaseSchema } from '@/engine/knowledge/schemas';

export const dynamic = 'force-dynamic';

export const GET = guarded('read', async (_req, _ctx: unknown, { app, caller }) => {
  return Response.json(await app.knowledge.inWorkspace(caller.workspaceId).listKnowledgeBases());
});

/** { name, description?, chunkSize? (512), chunkOverlap? (100), embeddingModel? } → 201 knowledge base */
export const POST = guarded('edit', async (req, _ctx: unknown, { app, caller }) => {
  const body = await readJson(req, createKnowledgeBaseSchema);
  const kb = await app.knowledge.inWorkspace(caller.workspaceId).createKnowledgeBase(body);
  return Response.json(kb, { status: 201, headers: { location: `/api/knowledge-bases/${kb.id}` } });
});
