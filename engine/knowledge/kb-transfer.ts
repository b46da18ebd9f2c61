/**
 * A knowledge base as one file and back (issue 46: "exports and imports whole"): JSON Lines, first its settings, then
 * each indexed document followed by its chunks as stored — text, offsets, heading path, context (parent section or
 * answer), and the vector (little-endian float32, base64) unless the embedder did not cover the chunk. An import makes
 * a new knowledge base with those settings and documents; it keeps the vectors when its embedding model and
 * dimension are the export's, and embeds the chunks again otherwise (the chunks themselves are never cut again).
 */
import { z } from 'zod';
import { PaiError } from '../errors';
import type { DocumentRecord, KnowledgeBaseRecord, KnowledgeCatalog } from './catalog';
import { CHUNKING_MODES } from './chunking-modes';
import type { DocumentUpload } from './indexing-queue';
import { DOCUMENT_MIME, type DocumentMime } from './parsers';
import type { CreateKnowledgeBase } from './schemas';
import { documentMetadataSchema } from './metadata';
import type { ChunkRecord, KnowledgeStore } from './types';

export const EXPORT_FORMAT = 'paiflow-knowledge-base';
export const EXPORT_VERSION = 1;

const headerSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string().max(40),
  knowledgeBase: z.strictObject({
    name: z.string().min(1).max(200),
    description: z.string().max(2000),
    chunkSize: z.number().int().min(100).max(8000),
    chunkOverlap: z.number().int().min(0).max(4000),
    chunking: z.enum(CHUNKING_MODES),
    parentChunkSize: z.number().int().min(100).max(16000).nullable(),
    embeddingModel: z.string().min(1).max(200),
    dimension: z.number().int().min(1).max(8192),
    vectorWeight: z.number().min(0).max(1).nullable(),
  }),
});

const documentSchema = z.strictObject({
  document: z.strictObject({
    id: z.string().min(1).max(200),
    title: z.string().min(1).max(500),
    mime: z.enum(Object.values(DOCUMENT_MIME) as [string, ...string[]]),
    byteSize: z.number().int().min(0),
    charCount: z.number().int().min(0),
    pages: z.number().int().min(1).nullable(),
    metadata: documentMetadataSchema,
    enabled: z.boolean(),
  }),
});

const chunkSchema = z.strictObject({
  chunk: z.strictObject({
    documentId: z.string().min(1).max(200),
    chunkIndex: z.number().int().min(0),
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    page: z.number().int().min(1).nullable(),
    text: z.string().min(1),
    headingPath: z.array(z.string().max(500)).max(12).optional(),
    context: z
      .strictObject({
        kind: z.enum(['parent', 'answer']),
        start: z.number().int().min(0),
        end: z.number().int().min(0),
        text: z.string(),
      })
      .optional(),
    covered: z.literal(false).optional(),
    vector: z.string().max(200_000).optional(),
  }),
});

export type ExportHeader = z.infer<typeof headerSchema>;
export type ExportedDocument = z.infer<typeof documentSchema>['document'];

export interface ParsedExport {
  header: ExportHeader;
  documents: Array<{ document: ExportedDocument; chunks: ChunkRecord[] }>;
}

function encodeVector(v: ArrayLike<number>): string {
  const f = Float32Array.from(v);
  return Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString('base64');
}

function decodeVector(b64: string, dimension: number, path: string): Float32Array {
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.byteLength !== dimension * 4)
    throw new PaiError(
      'KNOWLEDGE_IMPORT_INVALID',
      `the vector holds ${bytes.byteLength / 4} numbers, not ${dimension}`,
      {
        path,
      },
    );
  const out = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** The export of `kb` line by line: its indexed documents only (one still indexing has no chunks to carry). */
export async function* exportLines(
  kb: KnowledgeBaseRecord,
  documents: DocumentRecord[],
  store: KnowledgeStore,
): AsyncGenerator<string> {
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    knowledgeBase: {
      name: kb.name,
      description: kb.description,
      chunkSize: kb.chunkSize,
      chunkOverlap: kb.chunkOverlap,
      chunking: kb.chunking,
      parentChunkSize: kb.parentChunkSize,
      embeddingModel: kb.embeddingModel,
      dimension: kb.dimension,
      vectorWeight: kb.vectorWeight,
    },
  };
  yield `${JSON.stringify(header)}\n`;
  for (const d of documents) {
    if (d.status !== 'indexed') continue;
    const { id, title, mime, byteSize, charCount, pages, metadata, enabled } = d;
    yield `${JSON.stringify({ document: { id, title, mime, byteSize, charCount, pages, metadata, enabled } })}\n`;
    for (const c of await store.listChunks(kb.id, d.id)) {
      const chunk = {
        documentId: d.id,
        chunkIndex: c.chunkIndex,
        start: c.start,
        end: c.end,
        page: c.page ?? null,
        text: c.text,
        ...(c.headingPath?.length ? { headingPath: c.headingPath } : {}),
        ...(c.context ? { context: c.context } : {}),
        ...(c.covered === false ? { covered: false } : {}),
        ...(c.vector && c.covered !== false ? { vector: encodeVector(c.vector) } : {}),
      };
      yield `${JSON.stringify({ chunk })}\n`;
    }
  }
}

const pathOf = (line: number, issuePath: PropertyKey[]) =>
  [`lines[${line}]`, ...issuePath.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('');

function parseLine<T>(schema: z.ZodType<T>, raw: string, line: number): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new PaiError('KNOWLEDGE_IMPORT_INVALID', `line ${line + 1} is not JSON`, { path: `lines[${line}]` });
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    // An unknown key is named in the path itself.
    const where = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
    throw new PaiError('KNOWLEDGE_IMPORT_INVALID', `line ${line + 1}: ${issue.message}`, { path: pathOf(line, where) });
  }
  return r.data;
}

/**
 * Reads an export, checking every line (an unknown key, a chunk of a document not declared before it, a vector of
 * another dimension are KNOWLEDGE_IMPORT_INVALID with the line's path). Yields to the event loop between batches of
 * lines.
 */
export async function parseExport(text: string): Promise<ParsedExport> {
  const lines = text.split('\n');
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  if (!lines.length) throw new PaiError('KNOWLEDGE_IMPORT_INVALID', 'the file is empty', { path: 'file' });
  let header: ExportHeader;
  try {
    header = parseLine(headerSchema, lines[0], 0);
  } catch (e) {
    throw new PaiError(
      'KNOWLEDGE_IMPORT_INVALID',
      `not a PaiFlow knowledge base export (its first line names "${EXPORT_FORMAT}", version ${EXPORT_VERSION}): ` +
        (e as Error).message,
      { path: (e as PaiError).path ?? 'lines[0]' },
    );
  }
  const documents: ParsedExport['documents'] = [];
  const byId = new Map<string, ParsedExport['documents'][number]>();
  for (let i = 1; i < lines.length; i++) {
    if (i % 500 === 0) await new Promise((r) => setImmediate(r));
    if (!lines[i].trim()) continue;
    if (lines[i].startsWith('{"document"')) {
      const { document } = parseLine(documentSchema, lines[i], i);
      if (byId.has(document.id))
        throw new PaiError('KNOWLEDGE_IMPORT_INVALID', `document ${document.id} is declared twice`, {
          path: `lines[${i}].document.id`,
        });
      const entry = { document, chunks: [] as ChunkRecord[] };
      byId.set(document.id, entry);
      documents.push(entry);
      continue;
    }
    const { chunk } = parseLine(chunkSchema, lines[i], i);
    const owner = byId.get(chunk.documentId);
    if (!owner)
      throw new PaiError(
        'KNOWLEDGE_IMPORT_INVALID',
        `chunk of document ${chunk.documentId}, which no line before declares`,
        {
          path: `lines[${i}].chunk.documentId`,
        },
      );
    const { vector, ...rest } = chunk;
    owner.chunks.push({
      ...rest,
      id: `${chunk.documentId}:${chunk.chunkIndex}`,
      title: owner.document.title,
      ...(vector ? { vector: decodeVector(vector, header.knowledgeBase.dimension, `lines[${i}].chunk.vector`) } : {}),
    });
  }
  return { header, documents };
}

export interface ImportOptions {
  /** The new knowledge base's name (default: the export's). */
  name?: string;
  /** A credential of the workspace to embed with, and its model. */
  credentialId?: string;
  embeddingModel?: string;
}

/** What an import needs of the knowledge service. */
export interface ImportDeps {
  catalog: KnowledgeCatalog;
  createKnowledgeBase(input: CreateKnowledgeBase): Promise<KnowledgeBaseRecord>;
  deleteKnowledgeBase(id: string): Promise<void>;
  enqueue(jobs: Array<{ doc: DocumentRecord; upload: DocumentUpload; mime: DocumentMime }>): void;
  newDocumentId(): string;
}

/**
 * A new knowledge base from an export: its settings, its documents (metadata, on or off) and their chunks, indexed
 * in the background without being cut again — with the export's vectors when the new knowledge base embeds with the
 * same model and dimension. A model that needs a credential is not carried over (credentials stay in their
 * workspace): name one, or the default model embeds the chunks again. Nothing is left if it fails.
 */
export async function importExport(
  d: ImportDeps,
  parsed: ParsedExport,
  opts: ImportOptions,
): Promise<{ knowledgeBase: KnowledgeBaseRecord; documents: DocumentRecord[]; vectors: 'kept' | 'embedded' }> {
  const h = parsed.header.knowledgeBase;
  const model = opts.credentialId
    ? { credentialId: opts.credentialId, embeddingModel: opts.embeddingModel ?? h.embeddingModel }
    : opts.embeddingModel
      ? { embeddingModel: opts.embeddingModel }
      : h.embeddingModel.startsWith('openai:')
        ? {}
        : { embeddingModel: h.embeddingModel };
  const kb = await d.createKnowledgeBase({
    name: opts.name ?? h.name,
    description: h.description,
    chunkSize: h.chunkSize,
    chunkOverlap: h.chunkOverlap,
    chunking: h.chunking,
    ...(h.parentChunkSize !== null && h.chunking === 'parent-child' ? { parentChunkSize: h.parentChunkSize } : {}),
    ...(h.vectorWeight !== null ? { vectorWeight: h.vectorWeight } : {}),
    ...model,
  });
  const keepVectors = kb.embeddingModel === h.embeddingModel && kb.dimension === h.dimension;
  try {
    const jobs: Array<{ doc: DocumentRecord; upload: DocumentUpload; mime: DocumentMime }> = [];
    for (const { document: e, chunks } of parsed.documents) {
      let doc = await d.catalog.createDocument({
        id: d.newDocumentId(),
        knowledgeBaseId: kb.id,
        title: e.title,
        mime: e.mime,
        byteSize: e.byteSize,
        metadata: e.metadata,
      });
      if (!e.enabled) doc = (await d.catalog.updateDocument(doc.id, { enabled: false })) ?? doc;
      const prepared = {
        charCount: e.charCount,
        pages: e.pages,
        chunks: chunks.map(({ id: _id, documentId: _doc, title: _title, covered: _covered, ...c }) => c),
        keepVectors,
      };
      jobs.push({ doc, upload: { title: e.title, prepared }, mime: e.mime as DocumentMime });
    }
    d.enqueue(jobs);
    return { knowledgeBase: kb, documents: jobs.map((j) => j.doc), vectors: keepVectors ? 'kept' : 'embedded' };
  } catch (e) {
    await d.deleteKnowledgeBase(kb.id).catch(() => {});
    throw e;
  }
}
