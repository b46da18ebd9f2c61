import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string; docId: string }> };

export const GET = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  const { id, docId } = await params;
  return Response.json(await app.knowledge.getDocument(id, docId));
});

/** Removes the document and its chunks (stops its indexing if it is still running). */
export const DELETE = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  const { id, docId } = await params;
  await app.knowledge.deleteDocument(id, docId);
  return new Response(null, { status: 204 });
});
