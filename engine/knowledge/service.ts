/**
 * KnowledgeBaseService: knowledge bases, documents and search, over a KnowledgeCatalog (status, in the database), a
 * KnowledgeStore (chunks + vectors) and Embedders. Uploads are checked and recorded here, then indexed in the
 * background by indexing-queue.ts, four documents at once, with status and progress on the catalogue: queued →
 * parsing → embedding → indexed | failed (each document limit with its own error code on the failed document).
 *
 * A document becomes searchable all at once when it is indexed. Uploading a title that already exists replaces the
 * older document(s) when — and only when — the new one is indexed, so a failed re-upload leaves the old one in place.
 * Each KB records its embedding model and dimension; an embedder that produces another dimension is refused.
 * Text the KB's embedder cannot read (embedders/coverage.ts: Chinese for the offline model) takes no part in kNN —
 * such a chunk is stored `covered: false`, such a query is answered by BM25 alone with a notice — so that a vector
 * that says nothing never reorders the hits.
 */
import { randomBytes } from 'node:crypto';
import { PaiError } from '../errors';
import { DEFAULT_WORKSPACE_ID } from '../config/default-workspace';
import type { DocumentRecord, KnowledgeBaseRecord, KnowledgeBaseSummary, KnowledgeCatalog } from './catalog';
import { IndexingQueue, type DocumentUpload } from './indexing-queue';
import { describeCoverage, type EmbedderCoverage } from './embedders/coverage';
import type { EmbedderResolver } from './embedders/resolve-embedder';
import { checkUpload, previewChunks } from './document-uploads';
import { exportLines, importExport, type ImportOptions, type ParsedExport } from './kb-transfer';
import type { DocumentMime } from './parsers';
import { searchIn } from './search-knowledge-base';
import type { Reranker } from './rerank';
import {
  createKnowledgeBaseSchema,
  documentUpdateSchema,
  searchSchema,
  updateKnowledgeBaseSchema,
  type CreateKnowledgeBase,
  type DocumentUpdate,
  type UpdateKnowledgeBase,
} from './schemas';
import {
  type Embedder,
  type KnowledgeSearchRequest,
  type KnowledgeSearchResult,
  type KnowledgeService,
  type KnowledgeStore,
} from './types';

export interface KnowledgeBaseServiceOptions {
  catalog: KnowledgeCatalog;
  store: KnowledgeStore;
  embedders: EmbedderResolver;
  /** The embedding model of new knowledge bases that do not name one. */
  defaultEmbeddingModel: string;
  /**
   * Extracted text longer than this fails the document (default DOCUMENT_MAX_CHARS, 5,000,000 characters). The other
   * document limits come from the environment (engine/cpu/limits.ts).
   */
  maxDocumentChars?: number;
  /** Texts per embedder call (progress is reported between calls); default 16. */
  embedBatch?: number;
  /** Documents indexed at once; default 4. */
  indexingConcurrency?: number;
  /** Embedder calls in flight at once over all documents; default: the offline model's threads. */
  embedSlots?: number;
  /**
   * The embedder of a knowledge base that names a credential: `model` ("openai:<name>") through that credential of
   * the knowledge base's workspace. Absent → such knowledge bases cannot be created (CREDENTIALS_UNAVAILABLE).
   */
  credentialEmbedder?: (kb: { workspaceId: string; credentialId: string; model: string }) => Promise<Embedder>;
  /** A rerank model through a credential of the knowledge base's workspace. Absent → reranking is refused. */
  credentialReranker?: (r: { workspaceId: string; credentialId: string; model: string }) => Promise<Reranker>;
  /** Set where no knowledge base can be created here (queue mode on the embedded index): the error to answer. */
  refuseNew?: () => PaiError;
}

export type { DocumentUpload } from './indexing-queue';

const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

const DEFAULT_CREDENTIAL_MODEL = 'openai:text-embedding-3-small';

export class KnowledgeBaseService implements KnowledgeService {
  private readonly indexing: IndexingQueue;
  private recovering: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly o: KnowledgeBaseServiceOptions) {
    this.indexing = new IndexingQueue({
      catalog: o.catalog,
      store: o.store,
      getKnowledgeBase: (id) => this.getKnowledgeBase(id),
      embedderFor: (kb) => this.embedderFor(kb),
      embedChecked: (kb, texts, signal, embedder) => this.embedChecked(kb, texts, signal, embedder),
      maxDocumentChars: o.maxDocumentChars,
      embedBatch: o.embedBatch,
      concurrency: o.indexingConcurrency,
      embedSlots: o.embedSlots,
    });
  }

  get store(): KnowledgeStore {
    return this.o.store;
  }

  describeStore(): string {
    return this.o.store.describe();
  }

  storeLocation(): string {
    return this.o.store.location();
  }

  /** The embedder of a KB: its credential's (resolved each time, so a deleted credential stops it), else by model. */
  private async embedderFor(kb: Pick<KnowledgeBaseRecord, 'workspaceId' | 'credentialId' | 'embeddingModel'>) {
    if (!kb.credentialId) return this.o.embedders(kb.embeddingModel);
    if (!this.o.credentialEmbedder) throw new PaiError('CREDENTIALS_UNAVAILABLE', 'credentials are not available here');
    return this.o.credentialEmbedder({
      workspaceId: kb.workspaceId,
      credentialId: kb.credentialId,
      model: kb.embeddingModel,
    });
  }

  private async embedChecked(
    kb: KnowledgeBaseRecord,
    texts: string[],
    signal?: AbortSignal,
    embedder?: Embedder,
  ): Promise<Float32Array[]> {
    const vecs = await (embedder ?? (await this.embedderFor(kb))).embed(texts, { signal });
    for (const v of vecs) {
      if (v.length !== kb.dimension) {
        throw new PaiError(
          'EMBEDDING_DIMENSION_MISMATCH',
          `knowledge base ${kb.id} holds ${kb.dimension}-d vectors (${kb.embeddingModel}) ` +
            `but the embedder returned ${v.length}-d vectors; vectors of different ` +
            'dimensions cannot be mixed — create a new knowledge base for the new model',
        );
      }
    }
    return vecs;
  }

  /** The embedder knowledge bases get by default (the offline model, or EMBEDDING_MODEL): similarity scoring. */
  defaultEmbedder(): Embedder {
    return this.o.embedders(this.o.defaultEmbeddingModel);
  }

  // ── knowledge bases ──────────────────────────────────────────────────────────────────────────────────────────

  /**
   * The service as one workspace sees it: a knowledge base of another workspace is "not found" for every call.
   * Route handlers use only this view.
   */
  inWorkspace(workspaceId: string) {
    const own = (id: string) => this.getKnowledgeBase(id, workspaceId);
    return {
      createKnowledgeBase: (input: CreateKnowledgeBase) => this.createKnowledgeBase(input, workspaceId),
      listKnowledgeBases: () => this.listKnowledgeBases(workspaceId),
      getKnowledgeBase: own,
      updateKnowledgeBase: async (id: string, patch: UpdateKnowledgeBase) =>
        this.updateKnowledgeBase((await own(id)).id, patch),
      deleteKnowledgeBase: async (id: string) => this.deleteKnowledgeBase((await own(id)).id),
      addDocument: async (id: string, upload: DocumentUpload) => this.addDocument((await own(id)).id, upload),
      addDocuments: async (id: string, uploads: DocumentUpload[]) => this.addDocuments((await own(id)).id, uploads),
      previewChunks: async (id: string, upload: DocumentUpload, opts: { signal?: AbortSignal } = {}) =>
        this.previewChunks((await own(id)).id, upload, opts),
      exportKnowledgeBase: async (id: string) => this.exportKnowledgeBase((await own(id)).id),
      importKnowledgeBase: (parsed: ParsedExport, opts?: ImportOptions) =>
        this.importKnowledgeBase(parsed, opts, workspaceId),
      listDocuments: async (id: string) => this.listDocuments((await own(id)).id),
      getDocument: async (id: string, docId: string) => this.getDocument((await own(id)).id, docId),
      deleteDocument: async (id: string, docId: string) => this.deleteDocument((await own(id)).id, docId),
      updateDocument: async (id: string, docId: string, patch: DocumentUpdate) =>
        this.updateDocument((await own(id)).id, docId, patch),
      search: async (id: string, req: KnowledgeSearchRequest, opts: { signal?: AbortSignal } = {}) =>
        this.search((await own(id)).id, req, opts),
      embedderCoverage: async (id: string) => this.embedderCoverage(await own(id)),
    };
  }

  async createKnowledgeBase(
    input: CreateKnowledgeBase,
    workspaceId = DEFAULT_WORKSPACE_ID,
  ): Promise<KnowledgeBaseRecord> {
    if (this.o.refuseNew) throw this.o.refuseNew();
    const v = createKnowledgeBaseSchema.parse(input);
    const credentialId = v.credentialId ?? null;
    const embeddingModel = v.embeddingModel ?? (credentialId ? DEFAULT_CREDENTIAL_MODEL : this.o.defaultEmbeddingModel);
    if (credentialId && !embeddingModel.startsWith('openai:'))
      throw new PaiError('VALIDATION_ERROR', 'a credential embeds with an "openai:<model>" embedding model', {
        path: 'embeddingModel',
      });
    const embedder = await this.embedderFor({ workspaceId, credentialId, embeddingModel });
    const dimension = await embedder.dimension();
    const id = newId('kb');
    await this.o.store.ensureIndex({ kbId: id, dimension });
    try {
      return await this.o.catalog.createKnowledgeBase({
        id,
        workspaceId,
        name: v.name,
        description: v.description,
        chunkSize: v.chunkSize,
        chunkOverlap: v.chunkOverlap,
        chunking: v.chunking,
        parentChunkSize: v.parentChunkSize ?? null,
        embeddingModel,
        credentialId,
        dimension,
        vectorWeight: v.vectorWeight ?? null,
      });
    } catch (e) {
      await this.o.store.dropIndex(id).catch(() => {});
      throw e;
    }
  }

  listKnowledgeBases(workspaceId?: string): Promise<KnowledgeBaseSummary[]> {
    return this.o.catalog.listKnowledgeBases(workspaceId);
  }

  /** `workspaceId`: a knowledge base of another workspace is 404, as if it did not exist. */
  async getKnowledgeBase(id: string, workspaceId?: string): Promise<KnowledgeBaseRecord> {
    const kb = await this.o.catalog.getKnowledgeBase(id, workspaceId);
    if (!kb) throw new PaiError('KNOWLEDGE_BASE_NOT_FOUND', `knowledge base ${id} not found`);
    return kb;
  }

  /**
   * Which languages the KB's embedder reads and how many of its chunks it cannot (for the knowledge base page). An
   * embedder that cannot be reached now (a deleted credential, no API key) is described by its model name alone.
   */
  async embedderCoverage(kb: KnowledgeBaseRecord): Promise<EmbedderCoverage> {
    const embedder = await this.embedderFor(kb).catch(() => null);
    if (!embedder) return describeCoverage({ model: kb.embeddingModel, label: kb.embeddingModel }, null);
    let uncovered: number | null = null;
    if (embedder.coverage && this.o.store.uncoveredCount)
      uncovered = await this.o.store.uncoveredCount(kb.id).catch(() => null);
    return describeCoverage(embedder, uncovered);
  }

  /** Changes what can change after creation (the vector share of hybrid search). */
  async updateKnowledgeBase(id: string, patch: UpdateKnowledgeBase): Promise<KnowledgeBaseRecord> {
    const v = updateKnowledgeBaseSchema.parse(patch);
    const kb = Object.keys(v).length
      ? await this.o.catalog.updateKnowledgeBase(id, v)
      : await this.o.catalog.getKnowledgeBase(id);
    if (!kb) throw new PaiError('KNOWLEDGE_BASE_NOT_FOUND', `knowledge base ${id} not found`);
    return kb;
  }

  async deleteKnowledgeBase(id: string): Promise<void> {
    await this.getKnowledgeBase(id);
    await this.indexing.cancel((doc) => doc.knowledgeBaseId === id);
    await this.o.catalog.deleteKnowledgeBase(id);
    await this.o.store.dropIndex(id);
  }

  // ── documents ────────────────────────────────────────────────────────────────────────────────────────────────

  /** Records the document as queued and indexes it in the background; returns at once. */
  async addDocument(kbId: string, upload: DocumentUpload): Promise<DocumentRecord> {
    return (await this.addDocuments(kbId, [upload]))[0];
  }

  /**
   * Several uploads at once (a multipart body with several files): every one is checked before any is recorded, so
   * a refused file leaves nothing half-uploaded. `files[i]` in an error's path names the refused one.
   */
  async addDocuments(kbId: string, uploads: DocumentUpload[]): Promise<DocumentRecord[]> {
    if (this.indexing.closed) throw new PaiError('SHUTTING_DOWN', 'the server is shutting down');
    const kb = await this.getKnowledgeBase(kbId);
    const checked = uploads.map((upload, i) =>
      checkUpload(kb, upload, (path) => (uploads.length > 1 ? `files[${i}].${path}` : path), uploads.length > 1),
    );
    const jobs: Array<{ doc: DocumentRecord; upload: DocumentUpload; mime: DocumentMime }> = [];
    for (const { upload, mime } of checked) {
      const byteSize = upload.bytes?.byteLength ?? Buffer.byteLength(upload.text ?? '');
      const doc = await this.o.catalog.createDocument({
        id: newId('doc'),
        knowledgeBaseId: kbId,
        title: upload.title,
        mime,
        byteSize,
        ...(upload.metadata ? { metadata: upload.metadata } : {}),
      });
      jobs.push({ doc, upload, mime });
    }
    this.indexing.enqueue(jobs);
    return jobs.map((j) => j.doc);
  }

  /** The chunks a file would make in the knowledge base, before it is uploaded (nothing is kept). */
  async previewChunks(kbId: string, upload: DocumentUpload, opts: { signal?: AbortSignal } = {}) {
    return previewChunks(await this.getKnowledgeBase(kbId), upload, opts);
  }

  /** The knowledge base as the lines of one export file (kb-transfer.ts). */
  async exportKnowledgeBase(id: string): Promise<{ kb: KnowledgeBaseRecord; lines: AsyncGenerator<string> }> {
    const kb = await this.getKnowledgeBase(id);
    return { kb, lines: exportLines(kb, await this.o.catalog.listDocuments(id), this.o.store) };
  }

  /** A new knowledge base from an export (kb-transfer.ts importExport). */
  importKnowledgeBase(parsed: ParsedExport, opts: ImportOptions = {}, workspaceId = DEFAULT_WORKSPACE_ID) {
    return importExport(
      {
        catalog: this.o.catalog,
        createKnowledgeBase: (input) => this.createKnowledgeBase(input, workspaceId),
        deleteKnowledgeBase: (id) => this.deleteKnowledgeBase(id),
        enqueue: (jobs) => this.indexing.enqueue(jobs),
        newDocumentId: () => newId('doc'),
      },
      parsed,
      opts,
    );
  }

  listDocuments(kbId: string): Promise<DocumentRecord[]> {
    return this.getKnowledgeBase(kbId).then(() => this.o.catalog.listDocuments(kbId));
  }

  async getDocument(kbId: string, docId: string): Promise<DocumentRecord> {
    const d = await this.o.catalog.getDocument(kbId, docId);
    if (!d) throw new PaiError('DOCUMENT_NOT_FOUND', `document ${docId} not found in knowledge base ${kbId}`);
    return d;
  }

  /** Changes a document's metadata (replacing it whole) or switches it off or on for searches. */
  async updateDocument(kbId: string, docId: string, patch: DocumentUpdate): Promise<DocumentRecord> {
    const v = documentUpdateSchema.parse(patch);
    await this.getDocument(kbId, docId);
    const d = Object.keys(v).length ? await this.o.catalog.updateDocument(docId, v) : null;
    return d ?? this.getDocument(kbId, docId);
  }

  /** Removes the document and its chunks (stopping its indexing if it is in progress). */
  async deleteDocument(kbId: string, docId: string): Promise<void> {
    await this.getDocument(kbId, docId);
    await this.indexing.cancel((doc) => doc.id === docId);
    await this.o.catalog.deleteDocument(docId);
    await this.o.store.deleteDocument(kbId, docId);
  }

  /**
   * Marks documents whose indexing was cut short (process stopped) as failed; returns them. `before`: a document
   * whose record changed since is left alone (its indexing may be alive elsewhere); one indexed here always is.
   */
  async recover(before = new Date()): Promise<Array<Pick<DocumentRecord, 'id' | 'knowledgeBaseId'>>> {
    const stale = (await this.o.catalog.listStaleDocuments(before)).filter((d) => !this.indexing.holds(d.id));
    for (const d of stale) {
      await this.o.catalog.updateDocument(d.id, {
        status: 'failed',
        error: {
          code: 'INDEXING_INTERRUPTED',
          message: 'indexing was interrupted by a server restart; upload the document again',
        },
      });
      await this.o.store.deleteDocument(d.knowledgeBaseId, d.id).catch(() => 0);
    }
    return stale;
  }

  /**
   * Shared PostgreSQL: every `everyMs`, marks failed the documents silent for `silentMs` (`recover`). At start-up a
   * quick restart finds the dead process's documents still fresh; without this, they would stay unfinished for good.
   */
  recoverEvery(everyMs: number, silentMs: number): void {
    if (this.recovering) return;
    this.recovering = setInterval(() => void this.recover(new Date(Date.now() - silentMs)).catch(() => {}), everyMs);
    this.recovering.unref?.();
  }

  /** Resolves when no document is queued or being indexed. */
  whenIdle(): Promise<void> {
    return this.indexing.whenIdle();
  }

  // ── search ───────────────────────────────────────────────────────────────────────────────────────────────────

  /** `opts.workspaceId`: only a knowledge base of that workspace is searched (a run searches its own workspace's). */
  async search(
    knowledgeBaseId: string,
    req: KnowledgeSearchRequest,
    opts: { signal?: AbortSignal; workspaceId?: string } = {},
  ): Promise<KnowledgeSearchResult> {
    const r = searchSchema.parse(req);
    const kb = await this.getKnowledgeBase(knowledgeBaseId, opts.workspaceId);
    try {
      return await searchIn(
        {
          catalog: this.o.catalog,
          store: this.o.store,
          embedderFor: (k) => this.embedderFor(k),
          embedChecked: (k, texts, signal, embedder) => this.embedChecked(k, texts, signal, embedder),
          credentialReranker: this.o.credentialReranker,
        },
        kb,
        r,
        opts.signal,
      );
    } catch (e) {
      // A store or embedder that fails in a way it did not name (a bug, a broken index file) is still the search
      // failing, with a code, never an internal error without one.
      if (e instanceof PaiError || (e as Error)?.name === 'AbortError') throw e;
      throw new PaiError('KNOWLEDGE_SEARCH_FAILED', `searching ${kb.name} failed: ${(e as Error)?.message ?? e}`, {
        retryable: true,
        cause: e,
      });
    }
  }

  async close(): Promise<void> {
    if (this.recovering) clearInterval(this.recovering);
    await this.indexing.close();
    await this.o.store.close();
  }
}
