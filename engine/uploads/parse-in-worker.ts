/**
 * Users' documents read on the request path — dataset uploads, Dify YAML, multipart forms — in the `uploads` pool of
 * the CPU pools (engine/cpu), so that reading one never holds up the event loop: each under its limits (checked as it
 * is read, see dataset-file.ts and yaml-document.ts), a time budget (UPLOAD_PARSE_TIMEOUT) and the memory limit of a
 * document's worker (UPLOAD_OUT_OF_MEMORY). The main thread only hands over the bytes and takes back a compact answer.
 */
import { cpuLimits, type CpuLimits } from '../cpu/limits';
import { movableCopy, runInPool, type RunOptions } from '../cpu/pool';
import { PaiError } from '../errors';
import type { DatasetFileLimits } from './dataset-file';
import type { DatasetUpload } from './dataset-upload';
import { MAX_VALUE_DEPTH } from './json-depth';
import type { FormLimits, ParsedForm } from './multipart-form';

function budget(limits: CpuLimits, what: string, transfer?: Uint8Array): Omit<RunOptions, 'signal'> {
  return {
    timeoutMs: limits.uploadParseTimeoutMs,
    rssGrowthMb: limits.documentWorkerMemoryMb,
    transferList: transfer ? [transfer.buffer as ArrayBuffer] : [],
    onTimeout: () =>
      new PaiError(
        'UPLOAD_PARSE_TIMEOUT',
        `reading ${what} took longer than ${limits.uploadParseTimeoutMs} ms (UPLOAD_PARSE_TIMEOUT_MS): make it smaller`,
      ),
    onOutOfMemory: () =>
      new PaiError(
        'UPLOAD_OUT_OF_MEMORY',
        `reading ${what} needed more than ${limits.documentWorkerMemoryMb} MB of memory (DOCUMENT_WORKER_MEMORY_MB)`,
      ),
  };
}

export function datasetLimits(limits: CpuLimits, maxRows: number): DatasetFileLimits {
  return {
    maxRows,
    maxColumns: limits.datasetMaxColumns,
    maxCellChars: limits.datasetMaxCellChars,
    maxBytes: limits.datasetMaxBytes,
    maxDepth: MAX_VALUE_DEPTH,
  };
}

/** A dataset upload's fields, file name and rows (the rows as parsed JSON, JSONL rows not yet checked for shape). */
export async function readDatasetUploadInWorker(
  body: Uint8Array,
  contentType: string,
  maxRows: number,
  opts: { limits?: CpuLimits; signal?: AbortSignal } = {},
): Promise<DatasetUpload> {
  const limits = opts.limits ?? cpuLimits();
  const bytes = movableCopy(body);
  return runInPool<DatasetUpload>(
    'uploads',
    'datasetUpload',
    { body: bytes, contentType, limits: datasetLimits(limits, maxRows) },
    { ...budget(limits, 'the dataset file', bytes), signal: opts.signal },
  );
}

/** The plain value of a YAML document (IMPORT_UNREADABLE when it does not parse). */
export function readYamlInWorker(source: string, opts: { limits?: CpuLimits; signal?: AbortSignal } = {}) {
  const limits = opts.limits ?? cpuLimits();
  return runInPool<unknown>(
    'uploads',
    'yamlDocument',
    { source, limits: { maxNodes: limits.importMaxYamlNodes, maxDepth: MAX_VALUE_DEPTH } },
    { ...budget(limits, 'the YAML'), signal: opts.signal },
  );
}

/** A multipart form's text fields and files. */
export function readMultipartFormInWorker(
  body: Uint8Array,
  contentType: string,
  formLimits: FormLimits,
  opts: { limits?: CpuLimits; signal?: AbortSignal } = {},
): Promise<ParsedForm> {
  const limits = opts.limits ?? cpuLimits();
  const bytes = movableCopy(body);
  return runInPool<ParsedForm>(
    'uploads',
    'multipartForm',
    { body: bytes, contentType, limits: formLimits },
    { ...budget(limits, 'the upload', bytes), signal: opts.signal },
  );
}
