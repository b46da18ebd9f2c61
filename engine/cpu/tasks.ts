/**
 * The typed tasks of the CPU pools (pool.ts, worker.mjs): each says which pool it runs on, under which time and
 * memory limit, and which error code a task over its limit fails with.
 */
import { CODE_HARD_TIMEOUT_GRACE_MS } from '../code/limits';
import type { SandboxOutcome, SandboxTask } from '../code/sandbox';
import type { Chunk } from '../knowledge/chunker';
import type { DocumentMime } from '../knowledge/parsers';
import type { PreparedDocument } from '../knowledge/prepare-document';
import { PaiError } from '../errors';
import { cpuLimits, type CpuLimits } from './limits';
import { runInPool } from './pool';

/** Whether RE2 finds `pattern` in `input`, in the quick pool; REGEX_TIMEOUT after `timeoutMs` of matching. */
export function regexInWorker(
  pattern: string,
  input: string,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<boolean> {
  return runInPool<boolean>(
    'quick',
    'regex',
    { pattern, input },
    {
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      onTimeout: () =>
        new PaiError(
          'REGEX_TIMEOUT',
          `the regular expression did not finish on ${input.length} characters within ${opts.timeoutMs} ms ` +
            '(REGEX_TIMEOUT_MS); simplify it or test a shorter value',
          { status: 422 },
        ),
    },
  );
}

export interface DocumentInput {
  /** Raw file bytes (parsed by mime) … */
  bytes?: Uint8Array;
  /** … or the text itself. */
  text?: string;
  mime: DocumentMime;
  chunkSize: number;
  chunkOverlap: number;
}

export interface DocumentChunks {
  text: string;
  title: string | null;
  pages: number | null;
  chunks: Chunk[];
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
  // A copy of just the bytes (a view may sit on a larger buffer, which a clone would copy whole), moved, not cloned.
  const bytes = input.bytes?.slice();
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
          { status: 422 },
        ),
      onOutOfMemory: () =>
        new PaiError(
          'DOCUMENT_OUT_OF_MEMORY',
          `reading the document needed more than ${limits.documentWorkerMemoryMb} MB of memory ` +
            '(DOCUMENT_WORKER_MEMORY_MB)',
          { status: 413 },
        ),
    },
  );
  const { text, starts, ends, pageOf } = prepared;
  const chunks: Chunk[] = [];
  for (let i = 0; i < starts.length; i++)
    chunks.push({
      index: i,
      start: starts[i],
      end: ends[i],
      page: pageOf[i] || null,
      text: text.slice(starts[i], ends[i]),
    });
  return { text, title: prepared.title, pages: prepared.pages, chunks };
}

/** Batches sent to the embed thread at once: a search's query waits behind at most one of them. */
const EMBED_TASK_TEXTS = 16;

/** Embeds texts with the offline model in the embed pool; EMBEDDING_TIMEOUT for a batch over its time. */
export async function embedInWorker(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
  const { embedBatchTimeoutMs } = cpuLimits();
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += EMBED_TASK_TEXTS) {
    const part = texts.slice(i, i + EMBED_TASK_TEXTS);
    out.push(
      ...(await runInPool<Float32Array[]>(
        'embed',
        'embed',
        { texts: part },
        {
          timeoutMs: embedBatchTimeoutMs,
          signal: opts.signal,
          onTimeout: () =>
            new PaiError(
              'EMBEDDING_TIMEOUT',
              `embedding ${part.length} texts took longer than ${embedBatchTimeoutMs} ms (EMBEDDING_BATCH_TIMEOUT_MS)`,
              { status: 503, retryable: true },
            ),
        },
      )),
    );
  }
  return out;
}

/**
 * Runs a Code node's JavaScript in a sandbox on the code pool (engine/code/sandbox.ts): the sandbox stops the code
 * at `timeoutMs` itself and answers its failure (with the console lines so far); the pool ends the thread only when
 * the sandbox has not answered CODE_HARD_TIMEOUT_GRACE_MS later, or on `signal` (a cancelled run, the node's own
 * timeout) — the thread's replacement takes the next task.
 */
export function codeInWorker(task: SandboxTask, opts: { signal?: AbortSignal } = {}): Promise<SandboxOutcome> {
  return runInPool<SandboxOutcome>(
    'code',
    'code',
    { ...task },
    {
      timeoutMs: task.timeoutMs + CODE_HARD_TIMEOUT_GRACE_MS,
      signal: opts.signal,
      onTimeout: () =>
        new PaiError('CODE_TIMEOUT', `the code did not finish within ${task.timeoutMs} ms of CPU time (timeoutMs)`, {
          status: 422,
        }),
      onOutOfMemory: () =>
        new PaiError(
          'CODE_MEMORY_LIMIT',
          "the code's result or console output needed more memory than its thread has",
          {
            status: 422,
          },
        ),
    },
  );
}

/** Time one piece of offline speech may take (a piece is at most a few thousand characters). */
const SPEECH_TIMEOUT_MS = 120_000;

/** Speaks `text` with the offline synthesizer (engine/media/espeak.ts) on the speech pool: a WAV. */
export function speakInWorker(
  text: string,
  opts: { voice: string; wordsPerMinute: number; signal?: AbortSignal },
): Promise<Uint8Array> {
  return runInPool<Uint8Array>(
    'speech',
    'speech',
    { text, voice: opts.voice, wordsPerMinute: opts.wordsPerMinute },
    {
      timeoutMs: SPEECH_TIMEOUT_MS,
      signal: opts.signal,
      onTimeout: () =>
        new PaiError('TTS_TIMEOUT', `the offline synthesizer took longer than ${SPEECH_TIMEOUT_MS} ms on one piece`, {
          status: 504,
          retryable: true,
        }),
    },
  );
}
