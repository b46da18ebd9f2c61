import { PaiError } from '@/engine/errors';
import { guarded } from '@/lib/server/auth/guard';
import { readUploads } from '../documents/read-upload';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * The chunks one file would make in this knowledge base, before it is uploaded: the same body as a document upload
 * (multipart `file`, or JSON { title, text, mime? }) → `{ characters, pages, total, chunks }` (the first 100 chunks,
 * each with its parent section or answer where the knowledge base's chunking gives one). Nothing is kept.
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id } = await params;
  const knowledge = app.knowledge.inWorkspace(caller.workspaceId);
  await knowledge.getKnowledgeBase(id); // 404 before reading a large body
  const uploads = await readUploads(req);
  if (uploads.length !== 1) throw new PaiError('VALIDATION_ERROR', 'preview one file at a time', { path: 'file' });
  return Response.json(await knowledge.previewChunks(id, uploads[0], { signal: req.signal }));
});
