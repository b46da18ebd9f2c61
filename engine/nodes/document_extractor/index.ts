import { z } from 'zod';
import { defineNode } from '../../node-kit/define';
import { PaiError } from '../../errors';
import { prepareDocumentInWorker } from '../../knowledge/prepare-in-worker';
import { cpuLimits } from '../../cpu/limits';
import { detectMime } from '../../knowledge/parsers';
import { readFileValue, type FileSource } from './file-values';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Files one node reads at most. */
export const MAX_FILES = 20;

export const documentExtractorConfigSchema = z.strictObject({
  files: z
    .string()
    .max(100_000)
    .describe(
      'The file or list of files: a {{ref}} to a Start input (object: one file, array: several) or an upstream output',
    ),
  maxFileBytes: z
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .default(MAX_FILE_BYTES)
    .describe('Size limit of each file, in bytes'),
});
export type DocumentExtractorConfig = z.infer<typeof documentExtractorConfigSchema>;

/** The text of one file, parsed by the knowledge parsers on the CPU pool's documents thread. */
async function textOf(src: FileSource, value: unknown, path: string, max: number): Promise<string> {
  const file = await readFileValue(src, value, path, max);
  let mime;
  try {
    mime = detectMime(file.name, file.contentType);
  } catch (e) {
    throw e instanceof PaiError ? new PaiError(e.code, e.message, { path }) : e;
  }
  try {
    // One chunk as large as a document may be: only the text is wanted here.
    const size = cpuLimits().documentMaxChars + 1;
    const doc = await prepareDocumentInWorker(
      { bytes: file.bytes, mime, chunkSize: size, chunkOverlap: 0 },
      { signal: src.signal },
    );
    return doc.text;
  } catch (e) {
    if (e instanceof PaiError && e.code === 'EMPTY_DOCUMENT') return '';
    throw e instanceof PaiError && !e.path ? new PaiError(e.code, e.message, { path, retryable: e.retryable }) : e;
  }
}

/**
 * Document extractor (Dify's document-extractor): the text of uploaded files (PDF, Word .docx, HTML, Markdown, text,
 * CSV), read with the knowledge base's parsers under the same document limits. One file gives `{ text }`, a list
 * of files `{ text: [...] }` in their order.
 */
export const documentExtractorNode = defineNode<DocumentExtractorConfig>({
  type: 'document_extractor',
  version: 1,
  label: 'Document extractor',
  category: 'data',
  description: 'Extracts the text of uploaded files: PDF, Word (.docx), HTML, Markdown, text and CSV.',
  configSchema: documentExtractorConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [{ path: 'text', description: "The file's text; for a list of files, a list of texts" }],
  async execute(ctx) {
    const value = ctx.config.files as unknown;
    const max = ctx.config.maxFileBytes;
    if (value === undefined || value === null || value === '')
      throw new PaiError('FILE_INPUT_INVALID', 'no file was given: "files" resolved to nothing', {
        path: 'config.files',
      });
    if (!Array.isArray(value)) return { output: { text: await textOf(ctx, value, 'config.files', max) } };
    if (value.length > MAX_FILES)
      throw new PaiError('FILE_INPUT_INVALID', `at most ${MAX_FILES} files, not ${value.length}`, {
        path: 'config.files',
      });
    const texts: string[] = [];
    for (let i = 0; i < value.length; i++) texts.push(await textOf(ctx, value[i], `config.files[${i}]`, max));
    return { output: { text: texts } };
  },
});
