/**
 * Limits on CPU- and memory-heavy work (regexes, rendered templates, documents): their variables and defaults are in
 * engine/config/variables.ts and docs/configuration.md. The CPU pools are one set per process, and so are
 * their limits: the composition root (lib/server/app.ts) gives them with useCpuLimits(), as a function of its
 * settings that is read on each use (a handful of lookups, microseconds), so a test's change applies to the next
 * document or run; the worker pools read theirs when they start a thread. Until it does (a test or bench building
 * engine pieces directly), the limits are the variables' defaults.
 */
import { defaultSettings, type Settings } from '../config/settings';

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
  /** Time reading one dataset file, import or multipart upload may take (UPLOAD_PARSE_TIMEOUT). */
  uploadParseTimeoutMs: number;
  /** Columns of a dataset file (DATASET_TOO_MANY_COLUMNS). */
  datasetMaxColumns: number;
  /** Characters of one value in a dataset file (DATASET_CELL_TOO_LARGE). */
  datasetMaxCellChars: number;
  /** Bytes of a dataset file's rows as JSON (DATASET_TOO_LARGE). */
  datasetMaxBytes: number;
  /** Values of an imported YAML document (YAML_TOO_MANY_NODES). */
  importMaxYamlNodes: number;
  /** Threads for short tasks (regexes); documents have one thread. */
  threads: number;
  /** Threads of the offline embedding model. */
  embedThreads: number;
}

/** Where the limits in force come from: one per process, also across Next.js dev hot reloads (like the pools). */
const g = globalThis as unknown as { __paiflowCpuLimits?: () => CpuLimits };

/** Makes `source` the limits in force in this process (read on each use); `undefined`: the defaults again. */
export function useCpuLimits(source: (() => CpuLimits) | undefined): void {
  g.__paiflowCpuLimits = source;
}

/**
 * The limits of the settings `s`; without `s`, the limits in force (useCpuLimits'), read on each use so the next
 * document or run gets a change.
 */
export function cpuLimits(s?: Settings): CpuLimits {
  if (!s) return g.__paiflowCpuLimits?.() ?? cpuLimits(defaultSettings());
  return {
    regexMaxPatternLength: s.REGEX_MAX_PATTERN_LENGTH,
    regexMaxRepeat: s.REGEX_MAX_REPEAT,
    regexMaxProgramSize: s.REGEX_MAX_PROGRAM_SIZE,
    regexTimeoutMs: s.REGEX_TIMEOUT_MS,
    templateMaxOutputChars: s.TEMPLATE_MAX_OUTPUT_CHARS,
    documentMaxChars: s.DOCUMENT_MAX_CHARS,
    documentMaxInflatedBytes: s.DOCUMENT_MAX_INFLATED_BYTES,
    documentMaxPages: s.DOCUMENT_MAX_PAGES,
    documentMaxChunks: s.DOCUMENT_MAX_CHUNKS,
    documentParseTimeoutMs: s.DOCUMENT_PARSE_TIMEOUT_MS,
    documentWorkerMemoryMb: s.DOCUMENT_WORKER_MEMORY_MB,
    embedBatchTimeoutMs: s.EMBEDDING_BATCH_TIMEOUT_MS,
    uploadParseTimeoutMs: s.UPLOAD_PARSE_TIMEOUT_MS,
    datasetMaxColumns: s.DATASET_MAX_COLUMNS,
    datasetMaxCellChars: s.DATASET_MAX_CELL_CHARS,
    datasetMaxBytes: s.DATASET_MAX_BYTES,
    importMaxYamlNodes: s.IMPORT_MAX_YAML_NODES,
    threads: s.CPU_WORKER_THREADS,
    embedThreads: s.EMBEDDING_THREADS,
  };
}
