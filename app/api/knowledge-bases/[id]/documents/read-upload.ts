/**
 * Reads a document upload: multipart/form-data with a `file` (and optional `title`), or JSON { title, text, mime? }.
 * The body is read with a byte limit before parsing (413 past KNOWLEDGE_MAX_UPLOAD_BYTES, default 20 MiB).
 */
import { settings } from '@/engine/config/settings';
import { PaiError } from '@/engine/errors';
import { CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS } from '@/engine/text/names';
import { textDocumentSchema } from '@/engine/knowledge/schemas';
import type { DocumentUpload } from '@/engine/knowledge/service';
import { readJson } from '@/lib/http/body';
import { readBytesLimited } from '@/engine/net/read-limited';

function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  return readBytesLimited(req, limit, { code: 'PAYLOAD_TOO_LARGE', status: 413, what: 'upload' });
}

export async function readUpload(req: Request): Promise<DocumentUpload> {
  const type = req.headers.get('content-type') ?? '';
  const limit = settings().KNOWLEDGE_MAX_UPLOAD_BYTES;
  if (/^multipart\/form-data/i.test(type)) {
    const bytes = await readLimited(req, limit);
    let form: FormData;
    try {
      form = await new Response(bytes as BodyInit, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new PaiError('INVALID_MULTIPART', 'the multipart body could not be parsed', { status: 400 });
    }
    const file = form.get('file');
    if (!file || typeof file === 'string')
      throw new PaiError('VALIDATION_ERROR', 'a "file" field with the document is required', {
        status: 400,
        path: 'file',
      });
    const rawTitle = form.get('title');
    const filename = (file as File).name || 'document';
    const title =
      (typeof rawTitle === 'string' && rawTitle.trim()) || filename.replace(/\.[A-Za-z0-9]+$/, '') || filename;
    if (CONTROL_CHARACTERS.test(title))
      throw new PaiError('VALIDATION_ERROR', NO_CONTROL_CHARACTERS, { status: 400, path: 'title' });
    if (title.length > 500)
      throw new PaiError('VALIDATION_ERROR', 'title is longer than 500 characters', { status: 400, path: 'title' });
    return {
      title,
      filename,
      mime: (file as File).type || undefined,
      bytes: new Uint8Array(await (file as File).arrayBuffer()),
    };
  }
  const body = await readJson(req, textDocumentSchema, { limit });
  return { title: body.title, text: body.text, mime: body.mime };
}
