import { guarded } from '@/lib/server/auth/guard';
import { readUploads } from './read-upload';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** The KB's documents with status (queued | parsing | embedding | indexed | failed), progress (0..1) and error. */
export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) => {
  return Response.json(await app.knowledge.inWorkspace(caller.workspaceId).listDocuments((await params).id));
});

/**
 * Multipart `file` (.txt .md .html .pdf .docx .csv, optional `title`) or JSON { title, text, mime? } → 202 with the
 * document; several `file` fields → 202 { documents: [...] }, every file checked before any is recorded. Indexing
 * runs in the background.
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id } = await params;
  const knowledge = app.knowledge.inWorkspace(caller.workspaceId);
  await knowledge.getKnowledgeBase(id); // 404 before reading a large body
  const uploads = await readUploads(req);
  const docs = await knowledge.addDocuments(id, uploads);
  if (uploads.length > 1) return Response.json({ documents: docs }, { status: 202 });
  const [doc] = docs;
  return Response.json(doc, { status: 202, headers: { location: `/api/knowledge-bases/${id}/documents/${doc.id}` } });
});
