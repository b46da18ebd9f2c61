import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readJson } from '@/lib/http/body';
import { createKnowledgeBaseSchema } from '@/engine/knowledge/schemas';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  const app = await getApp();
  return Response.json(await app.knowledge.listKnowledgeBases());
});

/** { name, description?, chunkSize? (512), chunkOverlap? (100), embeddingModel? } → 201 knowledge base */
export const POST = route(async (req) => {
  const app = await getApp();
  const body = await readJson(req, createKnowledgeBaseSchema);
  const kb = await app.knowledge.createKnowledgeBase(body);
  return Response.json(kb, { status: 201, headers: { location: `/api/knowledge-bases/${kb.id}` } });
});
