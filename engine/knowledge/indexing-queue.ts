/**
 * The background indexing of a knowledge base service (service.ts): one document at a time (embedding is CPU- or
 * rate-bound; parallel jobs would only interleave), with status and progress written to the catalogue as they
 * advance: queued → parsing → embedding → indexed | failed. Parsing and chunking run in a worker thread under the
 * document limits, so a large or hostile upload never holds up the event loop. A re-uploaded title replaces the older
 * document(s) only once the new one is indexed.
 */
import { PaiError, toErrorJson } from '../errors';
import type { DocumentRecord, KnowledgeBaseRecord, KnowledgeCatalog } from './catalog';
import { cpuLimits } from '../cpu/limits';
import { prepareDocumentInWorker } from './prepare-in-worker';
import { embedderCovers } from './embedders/coverage';
import type { DocumentMime } from './parsers';
import type { ChunkRecord, Embedder, KnowledgeStore } from './types';
import type { DocumentMetadata } from './metadata';

export interface DocumentUpload {
  title: string;
  /** Raw file bytes (parsed by mime) … */
  bytes?: Uint8Array;
  /** … or the text itself. */
  text?: string;
  filename?: string;
  mime?: string;
  /** Key–value metadata searches may filter on (metadata.ts); checked by the caller. */
  metadata?: DocumentMetadata;
}

/** What indexing needs of its service: where documents and chunks are kept, and the knowledge base's embedder. */
export interface IndexingDeps {
  catalog: KnowledgeCatalog;
  store: KnowledgeStore;
  getKnowledgeBase(id: string): Promise<KnowledgeBaseRecord>;
  embedderFor(kb: KnowledgeBaseRecord): Promise<Embedder>;
  /** The embedder's vectors for `texts`, refused when their dimension is not the knowledge base's. */
  embedChecked(
    kb: KnowledgeBaseRecord,
    texts: string[],
    signal: AbortSignal,
    embedder: Embedder,
  ): Promise<Float32Array[]>;
  /** Extracted text longer than this fails the document (default: the DOCUMENT_MAX_CHARS limit). */
  maxDocumentChars?: number;
  /** Texts per embedder call (progress is reported between calls); default 16. */
  embedBatch?: number;
}

interface Job {
  doc: DocumentRecord;
  upload: DocumentUpload;
  mime: DocumentMime;
  controller: AbortController;
}

export class IndexingQueue {
  private queue: Job[] = [];
  private current?: Job;
  private currentDone?: Promise<void>;
  private running?: Promise<void>;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(private readonly d: IndexingDeps) {}

  get closed(): boolean {
    return this.stopped;
  }

  /** Indexes the (already recorded, queued) documents in the background, after those queued before them. */
  enqueue(jobs: Array<{ doc: DocumentRecord; upload: DocumentUpload; mime: DocumentMime }>): void {
    for (const j of jobs) this.queue.push({ ...j, controller: new AbortController() });
    this.pump();
  }

  /** Drops the matching documents that have not started, and stops (and waits for) the running one if it matches. */
  async cancel(match: (doc: DocumentRecord) => boolean): Promise<void> {
    this.cancelQueued(match);
    const cur = this.current;
    if (cur && match(cur.doc)) {
      cur.controller.abort();
      await this.currentDone;
    }
  }

  /** Whether the document is queued or being indexed here. */
  holds(docId: string): boolean {
    return this.current?.doc.id === docId || this.queue.some((j) => j.doc.id === docId);
  }

  /** Resolves when no document is queued or being indexed. */
  whenIdle(): Promise<void> {
    if (!this.running && !this.queue.length) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** Stops: queued documents are dropped, the running one is aborted and awaited. */
  async close(): Promise<void> {
    this.stopped = true;
    for (const j of this.queue) j.controller.abort();
    this.queue = [];
    this.current?.controller.abort();
    await this.running?.catch(() => {});
  }

  private cancelQueued(match: (doc: DocumentRecord) => boolean) {
    this.queue = this.queue.filter((j) => {
      const hit = match(j.doc);
      if (hit) j.controller.abort();
      return !hit;
    });
  }

  private pump() {
    if (this.running || this.stopped) return;
    this.running = (async () => {
      for (let job = this.queue.shift(); job; job = this.queue.shift()) {
        this.current = job;
        this.currentDone = this.index(job).catch(() => {});
        await this.currentDone;
        this.current = undefined;
        this.currentDone = undefined;
      }
    })().finally(() => {
      this.running = undefined;
      if (this.queue.length && !this.stopped) this.pump();
      else for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  private async index(job: Job): Promise<void> {
    const { doc, controller } = job;
    const signal = controller.signal;
    const kbId = doc.knowledgeBaseId;
    let lastWrite = 0;
    const progress = async (patch: Parameters<KnowledgeCatalog['updateDocument']>[1], force = false) => {
      if (!force && Date.now() - lastWrite < 250) return;
      lastWrite = Date.now();
      if (signal.aborted) return;
      await this.d.catalog.updateDocument(doc.id, patch);
    };
    try {
      const kb = await this.d.getKnowledgeBase(kbId);
      await progress({ status: 'parsing', progress: 0.02 }, true);
      // Parsing and chunking run in a worker thread, under the document limits (engine/cpu/limits.ts).
      const limits = cpuLimits();
      if (this.d.maxDocumentChars !== undefined) limits.documentMaxChars = this.d.maxDocumentChars;
      const { bytes, text } = job.upload;
      const prepared = await prepareDocumentInWorker(
        {
          ...(bytes !== undefined ? { bytes } : { text: text ?? '' }),
          mime: job.mime,
          chunkSize: kb.chunkSize,
          chunkOverlap: kb.chunkOverlap,
        },
        { limits, signal },
      );
      signal.throwIfAborted();
      const { chunks } = prepared;
      await progress(
        { status: 'embedding', progress: 0.05, charCount: prepared.text.length, pages: prepared.pages ?? null },
        true,
      );

      const batch = this.d.embedBatch ?? 16;
      const embedder = await this.d.embedderFor(kb);
      const vectors: Float32Array[] = [];
      for (let i = 0; i < chunks.length; i += batch) {
        signal.throwIfAborted();
        const part = chunks.slice(i, i + batch);
        vectors.push(
          ...(await this.d.embedChecked(
            kb,
            part.map((c) => `${doc.title}\n${c.text}`),
            signal,
            embedder,
          )),
        );
        await progress({ progress: 0.05 + 0.9 * (vectors.length / chunks.length) });
      }
      signal.throwIfAborted();
      const records: ChunkRecord[] = chunks.map((c, i) => ({
        id: `${doc.id}:${c.index}`,
        documentId: doc.id,
        title: doc.title,
        chunkIndex: c.index,
        start: c.start,
        end: c.end,
        page: c.page,
        text: c.text,
        ...(c.headingPath ? { headingPath: c.headingPath } : {}),
        vector: vectors[i],
        // What the embedder read: a chunk it cannot (Chinese for use-lite) is ranked by BM25 alone.
        ...(embedderCovers(embedder, `${doc.title}\n${c.text}`) ? {} : { covered: false }),
      }));
      await this.d.store.upsertChunks(kbId, records);
      if (signal.aborted || !(await this.d.catalog.getDocument(kbId, doc.id))) {
        // Deleted (or its KB deleted) while we indexed: take the chunks back out.
        await this.d.store.deleteDocument(kbId, doc.id).catch(() => 0);
        return;
      }
      // Re-upload of a title: the older versions go now that this one is searchable, before it reports "indexed".
      for (const old of await this.d.catalog.findDocumentsByTitle(kbId, doc.title)) {
        if (old.id === doc.id || old.createdAt > doc.createdAt) continue;
        this.cancelQueued((d) => d.id === old.id);
        await this.d.store.deleteDocument(kbId, old.id);
        await this.d.catalog.deleteDocument(old.id);
      }
      const done = await this.d.catalog.updateDocument(doc.id, {
        status: 'indexed',
        progress: 1,
        chunkCount: records.length,
        error: null,
        indexedAt: new Date().toISOString(),
      });
      if (!done) await this.d.store.deleteDocument(kbId, doc.id).catch(() => 0);
    } catch (e) {
      if (signal.aborted) return;
      await this.d.store.deleteDocument(kbId, doc.id).catch(() => 0);
      // A failure nothing named (a bug, not a limit of the document) still says what failed.
      const error = e instanceof PaiError ? toErrorJson(e) : { ...toErrorJson(e), code: 'DOCUMENT_INDEXING_FAILED' };
      await this.d.catalog.updateDocument(doc.id, { status: 'failed', error }).catch(() => null);
    }
  }
}
