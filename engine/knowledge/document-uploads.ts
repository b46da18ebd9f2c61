/**
 * What the knowledge service does with an upload before it is recorded: the checks every upload passes (a title, a
 * file or text, a readable type, the type the knowledge base's chunking takes), and the preview of the chunks a file
 * would make in a knowledge base, computed exactly as indexing computes them but kept nowhere.
 */
import { PaiError } from '../errors';
import type { KnowledgeBaseRecord } from './catalog';
import type { DocumentUpload } from './indexing-queue';
import { detectMime, type DocumentMime } from './parsers';
import { prepareDocumentInWorker, type DocumentChunks } from './prepare-in-worker';

/**
 * The upload with its title trimmed, and its type. `where(path)`: the error path of a field of this upload
 * (`files[i].file` when it is one of several).
 */
export function checkUpload(
  kb: Pick<KnowledgeBaseRecord, 'chunking'>,
  upload: DocumentUpload,
  where: (path: string) => string,
  several: boolean,
): { upload: DocumentUpload; mime: DocumentMime } {
  const title = upload.title.trim();
  if (!title) throw new PaiError('VALIDATION_ERROR', 'title is required', { path: where('title') });
  if (upload.bytes === undefined && upload.text === undefined)
    throw new PaiError('VALIDATION_ERROR', 'a file or text is required', { path: where('file') });
  let mime: DocumentMime;
  try {
    mime =
      upload.bytes !== undefined
        ? detectMime(upload.filename, upload.mime)
        : ((upload.mime as DocumentMime | undefined) ?? 'text/plain');
  } catch (e) {
    if (!(e instanceof PaiError) || !several) throw e;
    throw new PaiError(e.code, `${upload.filename ?? title}: ${e.message}`, {
      path: where('file'),
      details: e.details,
    });
  }
  if (kb.chunking === 'qa' && mime !== 'text/csv' && mime !== 'application/jsonl')
    throw new PaiError(
      'QA_DOCUMENT_TYPE',
      `${upload.filename ?? title}: a Q&A knowledge base takes .csv or .jsonl files of question–answer pairs`,
      { path: where('file') },
    );
  return { upload: { ...upload, title }, mime };
}

/** Chunks a preview shows at most; `total` says how many the document makes. */
export const PREVIEW_CHUNKS = 100;

export interface ChunkPreview {
  /** Characters of text read from the file. */
  characters: number;
  pages: number | null;
  /** Chunks the document would make. */
  total: number;
  /** The first PREVIEW_CHUNKS of them, each with its context (parent section, answer) where the chunking gives one. */
  chunks: DocumentChunks['chunks'];
}

/** The chunks `upload` would make in `kb`, parsed and cut under the document limits in the documents thread. */
export async function previewChunks(
  kb: KnowledgeBaseRecord,
  upload: DocumentUpload,
  opts: { signal?: AbortSignal } = {},
): Promise<ChunkPreview> {
  const { upload: checked, mime } = checkUpload(kb, upload, (p) => p, false);
  const prepared = await prepareDocumentInWorker(
    {
      ...(checked.bytes !== undefined ? { bytes: checked.bytes } : { text: checked.text ?? '' }),
      mime,
      chunkSize: kb.chunkSize,
      chunkOverlap: kb.chunkOverlap,
      chunking: kb.chunking,
      ...(kb.parentChunkSize ? { parentChunkSize: kb.parentChunkSize } : {}),
    },
    { signal: opts.signal },
  );
  return {
    characters: prepared.text.length,
    pages: prepared.pages,
    total: prepared.chunks.length,
    chunks: prepared.chunks.slice(0, PREVIEW_CHUNKS),
  };
}
