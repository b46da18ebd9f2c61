import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

export const GET = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  const { id } = await params;
  const kb = await app.knowledge.getKnowledgeBase(id);
  const docs = await app.knowledge.listDocuments(id);
  return Response.json({ ...kb, documentCount: docs.length, chunkCount: docs.reduce((n, d) => n + d.chunkCount, 0) });
});

/** Deletes the knowledge base, its documents and its index. */
export const DELETE = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  await app.knowledge.deleteKnowledgeBase((await params).id);
  return new Response(null, { status: 204 });
});
