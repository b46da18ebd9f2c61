/**
 * Reads a document upload: multipart/form-data with one or more `file` fields (and, with one file, an optional
 * `title`; an optional `metadata`, a JSON object given to every file), or JSON { title, text, mime?, metadata? }.
 * The body is read with a byte limit before parsing (413 past KNOWLEDGE_MAX_UPLOAD_BYTES, default 20 MiB).
 */
import { settings } from '@/engine/config/settings';
import { PaiError } from '@/engine/errors';
import { CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS } from '@/engine/text/names';
import { documentMetadataSchema } from '@/engine/knowledge/metadata';
import { textDocumentSchema } from '@/engine/knowledge/schemas';
import type { DocumentUpload } from '@/engine/knowledge/service';
import { readJson } from '@/lib/http/body';
import { readBytesLimited } from '@/engine/net/read-limited';
import { readMultipartFormInWorker } from '@/engine/uploads/parse-in-worker';

function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  return readBytesLimited(req, limit, { code: 'PAYLOAD_TOO_LARGE', what: 'upload' });
}

/** At most this many files in one multipart upload (each is a document of its own). */
export const MAX_FILES_PER_UPLOAD = 50;
/** Parts of an upload's form: its files, a title, and room for unknown fields to be named in the error. */
const MAX_FORM_PARTS = MAX_FILES_PER_UPLOAD + 16;

export async function readUploads(req: Request): Promise<DocumentUpload[]> {
  const type = req.headers.get('content-type') ?? '';
  const limit = settings().KNOWLEDGE_MAX_UPLOAD_BYTES;
  if (/^multipart\/form-data/i.test(type)) {
    // The form is split into fields and files in a worker thread: undici's parser takes the whole body in one go.
    const form = await readMultipartFormInWorker(await readLimited(req, limit), type, { maxParts: MAX_FORM_PARTS });
    for (const key of new Set([...form.fields.map(([k]) => k), ...form.files.map((f) => f.field)]))
      if (key !== 'file' && key !== 'title' && key !== 'metadata')
        throw new PaiError(
          'UNKNOWN_KEY',
          `unknown form field "${key}"; send "file" (one or more), "title" and "metadata"`,
          { path: key },
        );
    const metadata = metadataField(form.fields.find(([k]) => k === 'metadata')?.[1]);
    const files = form.files.filter((f) => f.field === 'file');
    if (!files.length || form.fields.some(([k]) => k === 'file'))
      throw new PaiError('VALIDATION_ERROR', 'a "file" field with the document is required', {
        path: 'file',
      });
    if (files.length > MAX_FILES_PER_UPLOAD)
      throw new PaiError('TOO_MANY_FILES', `at most ${MAX_FILES_PER_UPLOAD} files per upload`, {
        path: 'file',
      });
    const rawTitle = form.fields.find(([k]) => k === 'title')?.[1];
    if (typeof rawTitle === 'string' && rawTitle.trim() && files.length > 1)
      throw new PaiError('VALIDATION_ERROR', 'a title names one file; with several files each is titled by its name', {
        path: 'title',
      });
    return files.map((file, i) => {
      const filename = file.name || 'document';
      const title =
        (typeof rawTitle === 'string' && rawTitle.trim()) || filename.replace(/\.[A-Za-z0-9]+$/, '') || filename;
      const path = files.length > 1 ? `files[${i}].title` : 'title';
      if (CONTROL_CHARACTERS.test(title)) throw new PaiError('VALIDATION_ERROR', NO_CONTROL_CHARACTERS, { path });
      if (title.length > 500) throw new PaiError('VALIDATION_ERROR', 'title is longer than 500 characters', { path });
      return { title, filename, mime: file.type || undefined, bytes: file.bytes, ...(metadata ? { metadata } : {}) };
    });
  }
  const body = await readJson(req, textDocumentSchema, { limit });
  return [
    { title: body.title, text: body.text, mime: body.mime, ...(body.metadata ? { metadata: body.metadata } : {}) },
  ];
}

/** A form's `metadata` field: a JSON object of strings, numbers and booleans, or nothing. */
function metadataField(raw: unknown) {
  if (typeof raw !== 'string' || !raw.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new PaiError('VALIDATION_ERROR', 'metadata is not JSON: send an object such as {"lang": "zh"}', {
      path: 'metadata',
    });
  }
  const r = documentMetadataSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new PaiError('VALIDATION_ERROR', `metadata: ${issue.message}`, {
      path: ['metadata', ...issue.path].join('.'),
    });
  }
  return r.data;
}
