import { settings } from '@/engine/config/settings';
import { PaiError } from '@/engine/errors';
import { parseExport } from '@/engine/knowledge/kb-transfer';
import { readBytesLimited } from '@/engine/net/read-limited';
import { readMultipartFormInWorker } from '@/engine/uploads/parse-in-worker';
import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';

const FIELDS = ['file', 'name', 'credentialId', 'embeddingModel'];

/**
 * A new knowledge base from an export (GET /api/knowledge-bases/:id/export): multipart `file`, and optionally `name`,
 * `credentialId` and `embeddingModel` → 202 `{ knowledgeBase, documents, vectors: "kept" | "embedded" }`; the
 * documents index in the background. A file that is not an export, or has a wrong line, is 400
 * KNOWLEDGE_IMPORT_INVALID with the line's path, and nothing is made.
 */
export const POST = guarded('edit', async (req, _ctx, { app, caller }) => {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type))
    throw new PaiError('VALIDATION_ERROR', 'send the export as a multipart form with a "file" field', {
      path: 'file',
    });
  const bytes = await readBytesLimited(req, settings().KNOWLEDGE_MAX_UPLOAD_BYTES, {
    code: 'PAYLOAD_TOO_LARGE',
    what: 'knowledge base export',
  });
  const form = await readMultipartFormInWorker(bytes, type, { maxParts: 8 });
  for (const key of [...form.fields.map(([k]) => k), ...form.files.map((f) => f.field)])
    if (!FIELDS.includes(key))
      throw new PaiError('UNKNOWN_KEY', `unknown form field "${key}"; send ${FIELDS.join(', ')}`, { path: key });
  const file = form.files.find((f) => f.field === 'file');
  if (!file) throw new PaiError('VALIDATION_ERROR', 'a "file" field with the export is required', { path: 'file' });
  const field = (k: string) => {
    const v = form.fields.find(([name]) => name === k)?.[1];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    throw new PaiError('KNOWLEDGE_IMPORT_INVALID', 'the file is not UTF-8 text', { path: 'file' });
  }
  const parsed = await parseExport(text);
  const name = field('name');
  const credentialId = field('credentialId');
  const embeddingModel = field('embeddingModel');
  const made = await app.knowledge.inWorkspace(caller.workspaceId).importKnowledgeBase(parsed, {
    ...(name ? { name } : {}),
    ...(credentialId ? { credentialId } : {}),
    ...(embeddingModel ? { embeddingModel } : {}),
  });
  return Response.json(made, {
    status: 202,
    headers: { location: `/api/knowledge-bases/${made.knowledgeBase.id}` },
  });
});
