/**
 * Parsing and chunking a document on the CPU pools' documents thread (engine/cpu), under the document limits.
 */
import { PaiError } from '../errors';
import { cpuLimits, type CpuLimits } from '../cpu/limits';
import { movableCopy, runInPool } from '../cpu/pool';
import type { Chunk } from './chunker';
import type { ChunkingMode } from './chunking-modes';
import type { DocumentMime } from './parsers';
import type { PreparedDocument } from './prepare-document';
import type { ChunkContext } from './types';

export interface DocumentInput {
  /** Raw file bytes (parsed by mime) … */
  bytes?: Uint8Array;
  /** … or the text itself. */
  text?: string;
  mime: DocumentMime;
  chunkSize: number;
  chunkOverlap: number;
  chunking?: ChunkingMode;
  parentChunkSize?: number;
}

export interface DocumentChunks {
  text: string;
  title: string | null;
  pages: number | null;
  chunks: Array<Chunk & { headingPath?: string[]; context?: ChunkContext }>;
}

/**
 * Parses and chunks a document in the documents pool, under the document limits (each with its own error code, see
 * prepare-document.ts), DOCUMENT_PARSE_TIMEOUT and DOCUMENT_OUT_OF_MEMORY.
 */
export async function prepareDocumentInWorker(
  input: DocumentInput,
  opts: { limits?: CpuLimits; signal?: AbortSignal } = {},
): Promise<DocumentChunks> {
  const limits = opts.limits ?? cpuLimits();
  // A copy of just the bytes, moved to the worker, not cloned.
  const bytes = input.bytes && movableCopy(input.bytes);
  const prepared = await runInPool<PreparedDocument>(
    'documents',
    'document',
    {
      ...input,
      bytes,
      limits: {
        maxChars: limits.documentMaxChars,
        maxInflatedBytes: limits.documentMaxInflatedBytes,
        maxPages: limits.documentMaxPages,
        maxChunks: limits.documentMaxChunks,
      },
    },
    {
      timeoutMs: limits.documentParseTimeoutMs,
      rssGrowthMb: limits.documentWorkerMemoryMb,
      signal: opts.signal,
      transferList: bytes ? [bytes.buffer] : [],
      onTimeout: () =>
        new PaiError(
          'DOCUMENT_PARSE_TIMEOUT',
          `reading the document took longer than ${limits.documentParseTimeoutMs} ms (DOCUMENT_PARSE_TIMEOUT_MS)`,
        ),
      onOutOfMemory: () =>
        new PaiError(
          'DOCUMENT_OUT_OF_MEMORY',
          `reading the document needed more than ${limits.documentWorkerMemoryMb} MB of memory ` +
            '(DOCUMENT_WORKER_MEMORY_MB)',
        ),
    },
  );
  const { text, starts, ends, pageOf, headingPaths, contextKind, contextStarts, contextEnds } = prepared;
  const chunks: DocumentChunks['chunks'] = [];
  for (let i = 0; i < starts.length; i++) {
    const cs = contextStarts?.[i] ?? -1;
    const ce = contextEnds?.[i] ?? -1;
    chunks.push({
      index: i,
      start: starts[i],
      end: ends[i],
      page: pageOf[i] || null,
      text: text.slice(starts[i], ends[i]),
      ...(headingPaths?.[i]?.length ? { headingPath: headingPaths[i] } : {}),
      ...(contextKind && cs >= 0
        ? { context: { kind: contextKind, start: cs, end: ce, text: text.slice(cs, ce) } }
        : {}),
    });
  }
  return { text, title: prepared.title, pages: prepared.pages, chunks };
}
