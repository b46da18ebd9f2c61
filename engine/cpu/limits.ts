/**
 * Limits on CPU- and memory-heavy work (regexes, rendered templates, documents), from the environment; the README's
 * configuration table lists them. Read on each use (a handful of env lookups, microseconds), so a test or an
 * operator's change applies to the next document or run; the worker pools read theirs when they start a thread.
 */
import { availableParallelism } from 'node:os';

export interface CpuLimits {
  /** Characters in a regex pattern. */
  regexMaxPatternLength: number;
  /** The largest count in `{n}`, `{n,}` or `{n,m}`. */
  regexMaxRepeat: number;
  /** RE2 program size (instructions; about one per literal character, times counted repeats). */
  regexMaxProgramSize: number;
  /** Time a regex may run in a worker before it fails with REGEX_TIMEOUT. */
  regexTimeoutMs: number;
  /** Characters a template may render to (TEMPLATE_OUTPUT_TOO_LARGE). */
  templateMaxOutputChars: number;
  /** Characters of text extracted from one document (DOCUMENT_TOO_LARGE). */
  documentMaxChars: number;
  /** Bytes a PDF's compressed streams may inflate to, all together (DOCUMENT_INFLATED_TOO_LARGE). */
  documentMaxInflatedBytes: number;
  /** Pages of one PDF (DOCUMENT_TOO_MANY_PAGES). */
  documentMaxPages: number;
  /** Chunks of one document (DOCUMENT_TOO_MANY_CHUNKS). */
  documentMaxChunks: number;
  /** Time parsing and chunking one document may take (DOCUMENT_PARSE_TIMEOUT). */
  documentParseTimeoutMs: number;
  /** Memory a document's worker may grow by (JS heap limit, and the process's RSS growth while it parses). */
  documentWorkerMemoryMb: number;
  /** Time one batch of the offline embedder may take (EMBEDDING_TIMEOUT). */
  embedBatchTimeoutMs: number;
  /** Threads for short tasks (regexes); documents and embeddings have one thread each. */
  threads: number;
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min = 1): number {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min ? n : dflt;
}

export function cpuLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): CpuLimits {
  return {
    regexMaxPatternLength: int(env, 'REGEX_MAX_PATTERN_LENGTH', 1000),
    regexMaxRepeat: int(env, 'REGEX_MAX_REPEAT', 100),
    regexMaxProgramSize: int(env, 'REGEX_MAX_PROGRAM_SIZE', 2000),
    regexTimeoutMs: int(env, 'REGEX_TIMEOUT_MS', 1000),
    templateMaxOutputChars: int(env, 'TEMPLATE_MAX_OUTPUT_CHARS', 10_000_000),
    documentMaxChars: int(env, 'DOCUMENT_MAX_CHARS', 5_000_000),
    documentMaxInflatedBytes: int(env, 'DOCUMENT_MAX_INFLATED_BYTES', 128 * 1024 * 1024),
    documentMaxPages: int(env, 'DOCUMENT_MAX_PAGES', 2000),
    documentMaxChunks: int(env, 'DOCUMENT_MAX_CHUNKS', 20_000),
    documentParseTimeoutMs: int(env, 'DOCUMENT_PARSE_TIMEOUT_MS', 120_000),
    documentWorkerMemoryMb: int(env, 'DOCUMENT_WORKER_MEMORY_MB', 512, 32),
    embedBatchTimeoutMs: int(env, 'EMBEDDING_BATCH_TIMEOUT_MS', 60_000),
    // One core stays with the event loop; on one core the worker still gets a thread (the OS shares it).
    threads: int(env, 'CPU_WORKER_THREADS', Math.max(1, availableParallelism() - 1)),
  };
}
