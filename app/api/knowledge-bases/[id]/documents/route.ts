import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readUpload } from './read-upload';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** The KB's documents with status (queued | parsing | embedding | indexed | failed), progress (0..1) and error. */
export const GET = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  return Response.json(await app.knowledge.listDocuments((await params).id));
});

/**
 * Multipart `file` (.txt .md .html .pdf, optional `title`) or JSON { title, text } → 202; indexing runs in the
 * background.
 */
export const POST = route(async (req, { params }: Ctx) => {
  const app = await getApp();
  const { id } = await params;
  await app.knowledge.getKnowledgeBase(id); // 404 before reading a large body
  const upload = await readUpload(req);
  const doc = await app.knowledge.addDocument(id, upload);
  return Response.json(doc, { status: 202, headers: { location: `/api/knowledge-bases/${id}/documents/${doc.id}` } });
});
