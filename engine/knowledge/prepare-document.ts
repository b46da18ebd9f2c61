/**
 * Everything CPU-heavy about a new document — parsing, the document limits, chunking — in one function, which the
 * knowledge service runs in a worker thread (engine/cpu/tasks.ts prepareDocumentInWorker). Each limit fails the
 * document with its own code: DOCUMENT_INFLATED_TOO_LARGE, DOCUMENT_TOO_MANY_PAGES, DOCUMENT_TOO_LARGE,
 * DOCUMENT_TOO_MANY_CHUNKS; a file that cannot be read at all fails with DOCUMENT_PARSE_FAILED. The answer is
 * compact (the text and three offset arrays) because it is copied back to the main thread: thousands of chunk
 * objects would cost the event loop their deserialisation.
 */
import { PaiError } from '../errors';
import { chunkText, packRecords, type Chunk } from './chunker';
import type { ChunkingMode } from './chunking-modes';
import { headingPaths, markdownHeadings } from './markdown-headings';
import { parentChildChunks } from './parent-child';
import { parseDocument, tooLarge, type DocumentMime, type ParsedDocument, type ParseLimits } from './parsers';
import { qaPairs } from './qa-pairs';

export interface DocumentLimits extends ParseLimits {
  /** Chunks of one document (DOCUMENT_TOO_MANY_CHUNKS). */
  maxChunks: number;
}

export interface PrepareInput {
  bytes?: Uint8Array;
  text?: string;
  mime: DocumentMime;
  chunkSize: number;
  chunkOverlap: number;
  /** Default `size`. */
  chunking?: ChunkingMode;
  /** parent-child: the largest parent section. */
  parentChunkSize?: number;
  limits: DocumentLimits;
}

export interface PreparedDocument {
  text: string;
  title: string | null;
  pages: number | null;
  /** Chunk i is text.slice(starts[i], ends[i]), on page pageOf[i] (0: no page). */
  starts: Int32Array;
  ends: Int32Array;
  pageOf: Int32Array;
  /** Markdown: each chunk's heading path (markdown-headings.ts); absent for other formats. */
  headingPaths?: string[][];
  /**
   * parent-child and qa: chunk i's context (its parent section, its answer) is text.slice(contextStarts[i],
   * contextEnds[i]); -1: none.
   */
  contextKind?: 'parent' | 'answer';
  contextStarts?: Int32Array;
  contextEnds?: Int32Array;
}

type Chunked = Array<Chunk & { context?: { start: number; end: number } }>;

export async function prepareDocument(input: PrepareInput): Promise<PreparedDocument> {
  const { limits } = input;
  const chunking = input.chunking ?? 'size';
  let parsed: ParsedDocument;
  let chunks: Chunked;
  if (chunking === 'qa') {
    // Question–answer pairs: each question is a chunk, its answer the context a hit returns.
    const pairs = await qaPairs(input.bytes ?? input.text ?? '', input.mime, limits.maxChars);
    parsed = { text: pairs.text };
    chunks = pairs.questions.map((q, index) => ({
      index,
      start: q.start,
      end: q.end,
      page: null,
      text: pairs.text.slice(q.start, q.end),
      context: pairs.answers[index],
    }));
  } else {
    if (input.bytes !== undefined) parsed = await parseDocument(input.bytes, input.mime, limits);
    else if (input.mime === 'text/html' || input.mime === 'text/csv' || input.mime === 'application/jsonl')
      parsed = await parseDocument(new TextEncoder().encode(input.text ?? ''), input.mime, limits);
    else parsed = { text: (input.text ?? '').replace(/\r\n?/g, '\n') };
    if (parsed.text.length > limits.maxChars) throw tooLarge(parsed.text.length, limits.maxChars);
    // CSV rows: chunks of whole rows (a row longer than a chunk is cut like any text).
    const segments = parsed.records ? packRecords(parsed.records, input.chunkSize) : parsed.segments;
    const opts = { size: input.chunkSize, overlap: input.chunkOverlap };
    if (chunking === 'parent-child') {
      const headings =
        input.mime === 'text/markdown'
          ? markdownHeadings(parsed.text)
              .filter((h) => h.level <= 3)
              .map((h) => h.start)
          : [];
      chunks = parentChildChunks(
        parsed.text,
        { ...opts, parentSize: input.parentChunkSize ?? opts.size * 4 },
        segments,
        headings,
      ).map(({ parent, ...c }) => (parent ? { ...c, context: parent } : c));
    } else chunks = chunkText(parsed.text, opts, segments);
  }
  if (!chunks.length) throw new PaiError('EMPTY_DOCUMENT', 'no text could be extracted from the document');
  if (chunks.length > limits.maxChunks)
    throw new PaiError(
      'DOCUMENT_TOO_MANY_CHUNKS',
      `the document makes ${chunks.length} chunks of at most ${input.chunkSize} characters; the limit is ` +
        `${limits.maxChunks} (DOCUMENT_MAX_CHUNKS): split it, or use a knowledge base with larger chunks`,
    );
  const starts = Int32Array.from(chunks, (c) => c.start);
  const ends = Int32Array.from(chunks, (c) => c.end);
  const withContext = chunks.some((c) => c.context);
  return {
    text: parsed.text,
    title: parsed.title ?? null,
    pages: parsed.pages ?? null,
    starts,
    ends,
    pageOf: Int32Array.from(chunks, (c) => c.page ?? 0),
    ...(input.mime === 'text/markdown'
      ? { headingPaths: headingPaths(markdownHeadings(parsed.text), starts, ends) }
      : {}),
    ...(withContext
      ? {
          contextKind: chunking === 'qa' ? ('answer' as const) : ('parent' as const),
          contextStarts: Int32Array.from(chunks, (c) => c.context?.start ?? -1),
          contextEnds: Int32Array.from(chunks, (c) => c.context?.end ?? -1),
        }
      : {}),
  };
}
