/**
 * The background indexing of a knowledge base service (service.ts): four documents at once (`concurrency`), so that
 * one document's parsing, another's embedding and a third's write overlap, with status and progress written to the
 * catalogue as they advance: queued → parsing → embedding (n of m chunks) → indexed | failed.
 * Parsing and chunking run in a worker thread under the document limits, so a large or hostile upload never holds up
 * the event loop. Embedding calls of all documents share `embedSlots` (default: the offline model's threads), so a
 * search's query embedding waits behind at most one batch per thread. A chunk the embedder cannot read (coverage.ts)
 * is not embedded at all: its vector would take no part in kNN. A re-uploaded title replaces the older document(s)
 * only once the new one is indexed.
 */
import { PaiError, toErrorJson } from '../errors';
import type { DocumentRecord, KnowledgeBaseRecord, KnowledgeCatalog } from './catalog';
import { cpuLimits } from '../cpu/limits';
import { prepareDocumentInWorker } from './prepare-in-worker';
import { embedderCovers } from './embedders/coverage';
import type { DocumentMime } from './parsers';
import type { ChunkRecord, Embedder, KnowledgeStore } from './types';
import type { DocumentMetadata } from './metadata';

/** A document's chunks as made before (an import): indexed as they are, without parsing the document again. */
export interface PreparedChunks {
  charCount: number;
  pages: number | null;
  chunks: Array<Omit<ChunkRecord, 'id' | 'documentId' | 'title' | 'covered'>>;
  /** Whether the chunks' vectors were made by this knowledge base's embedding model (else they are embedded again). */
  keepVectors: boolean;
}

export interface DocumentUpload {
  title: string;
  /** Chunks made before (an import), in place of bytes or text. */
  prepared?: PreparedChunks;
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
  /** Documents indexed at once; default 4. */
  concurrency?: number;
  /** Embedder calls in flight at once, over all documents; default: the offline model's threads (EMBEDDING_THREADS). */
  embedSlots?: number;
}

const DEFAULT_CONCURRENCY = 4;

/** At most `size` holders at once; the others wait in order. */
class Slots {
  private free: number;
  private waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  async hold<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

interface Job {
  doc: DocumentRecord;
  upload: DocumentUpload;
  mime: DocumentMime;
  controller: AbortController;
}

export class IndexingQueue {
  private queue: Job[] = [];
  /** The jobs being indexed, by document id, with the promise of their end. */
  private running = new Map<string, { job: Job; done: Promise<void> }>();
  private idleWaiters: Array<() => void> = [];
  private stopped = false;
  private readonly concurrency: number;
  private readonly embedSlots: Slots;

  constructor(private readonly d: IndexingDeps) {
    this.concurrency = Math.max(1, d.concurrency ?? DEFAULT_CONCURRENCY);
    this.embedSlots = new Slots(d.embedSlots ?? cpuLimits().embedThreads);
  }

  get closed(): boolean {
    return this.stopped;
  }

  /** Indexes the (already recorded, queued) documents in the background, after those queued before them start. */
  enqueue(jobs: Array<{ doc: DocumentRecord; upload: DocumentUpload; mime: DocumentMime }>): void {
    for (const j of jobs) this.queue.push({ ...j, controller: new AbortController() });
    this.pump();
  }

  /** Drops the matching documents that have not started, and stops (and waits for) the running ones that match. */
  async cancel(match: (doc: DocumentRecord) => boolean): Promise<void> {
    this.cancelQueued(match);
    const stopping = [...this.running.values()].filter((r) => match(r.job.doc));
    for (const r of stopping) r.job.controller.abort();
    await Promise.all(stopping.map((r) => r.done));
  }

  /** Whether the document is queued or being indexed here. */
  holds(docId: string): boolean {
    return this.running.has(docId) || this.queue.some((j) => j.doc.id === docId);
  }

  /** Resolves when no document is queued or being indexed. */
  whenIdle(): Promise<void> {
    if (!this.running.size && !this.queue.length) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** Stops: queued documents are dropped, the running ones are aborted and awaited. */
  async close(): Promise<void> {
    this.stopped = true;
    for (const j of this.queue) j.controller.abort();
    this.queue = [];
    const running = [...this.running.values()];
    for (const r of running) r.job.controller.abort();
    await Promise.all(running.map((r) => r.done));
  }

  private cancelQueued(match: (doc: DocumentRecord) => boolean) {
    this.queue = this.queue.filter((j) => {
      const hit = match(j.doc);
      if (hit) j.controller.abort();
      return !hit;
    });
  }

  private pump() {
    while (!this.stopped && this.running.size < this.concurrency && this.queue.length) {
      const job = this.queue.shift()!;
      const done = this.index(job)
        .catch(() => {})
        .finally(() => {
          this.running.delete(job.doc.id);
          this.pump();
          if (!this.running.size && !this.queue.length) for (const w of this.idleWaiters.splice(0)) w();
        });
      this.running.set(job.doc.id, { job, done });
    }
    if (this.stopped && !this.running.size) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Parsing and chunking in a worker thread, under the document limits (engine/cpu/limits.ts). */
  private async parse(job: Job, kb: KnowledgeBaseRecord, signal: AbortSignal): Promise<PreparedChunks> {
    const limits = cpuLimits();
    if (this.d.maxDocumentChars !== undefined) limits.documentMaxChars = this.d.maxDocumentChars;
    const { bytes, text } = job.upload;
    const parsed = await prepareDocumentInWorker(
      {
        ...(bytes !== undefined ? { bytes } : { text: text ?? '' }),
        mime: job.mime,
        chunkSize: kb.chunkSize,
        chunkOverlap: kb.chunkOverlap,
        chunking: kb.chunking,
        ...(kb.parentChunkSize ? { parentChunkSize: kb.parentChunkSize } : {}),
      },
      { limits, signal },
    );
    return {
      charCount: parsed.text.length,
      pages: parsed.pages ?? null,
      chunks: parsed.chunks.map(({ index, ...c }) => ({ ...c, chunkIndex: index })),
      keepVectors: false,
    };
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
      const prepared = job.upload.prepared ?? (await this.parse(job, kb, signal));
      signal.throwIfAborted();
      const { chunks } = prepared;
      const total = chunks.length;
      await progress(
        {
          status: 'embedding',
          progress: 0.05,
          charCount: prepared.charCount,
          pages: prepared.pages,
          totalChunks: total,
          embeddedChunks: 0,
        },
        true,
      );

      const batch = this.d.embedBatch ?? 16;
      const embedder = await this.d.embedderFor(kb);
      // What the embedder reads: a chunk it cannot (Chinese for use-lite) is ranked by BM25 alone, with no vector.
      const texts = chunks.map((c) => `${doc.title}\n${c.text}`);
      const covered = texts.map((t) => embedderCovers(embedder, t));
      // An import whose vectors were made by this knowledge base's model keeps them.
      const vectors: Array<ArrayLike<number> | undefined> = chunks.map((c, i) =>
        covered[i] && prepared.keepVectors ? c.vector : undefined,
      );
      const toEmbed = texts.flatMap((t, i) => (covered[i] && !vectors[i] ? [i] : []));
      let done = total - toEmbed.length;
      for (let i = 0; i < toEmbed.length; i += batch) {
        signal.throwIfAborted();
        const part = toEmbed.slice(i, i + batch);
        const embedded = await this.embedSlots.hold(() => {
          signal.throwIfAborted();
          return this.d.embedChecked(
            kb,
            part.map((k) => texts[k]),
            signal,
            embedder,
          );
        });
        part.forEach((k, j) => (vectors[k] = embedded[j]));
        done += part.length;
        await progress({ progress: 0.05 + 0.9 * (done / total), embeddedChunks: done });
      }
      signal.throwIfAborted();
      const records: ChunkRecord[] = chunks.map((c, i) => ({
        id: `${doc.id}:${c.chunkIndex}`,
        documentId: doc.id,
        title: doc.title,
        chunkIndex: c.chunkIndex,
        start: c.start,
        end: c.end,
        page: c.page,
        text: c.text,
        ...(c.headingPath ? { headingPath: c.headingPath } : {}),
        ...(c.context ? { context: c.context } : {}),
        ...(covered[i] ? { vector: vectors[i] } : { covered: false }),
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
        // Not awaited: an older upload still indexing beside this one stops and takes its own chunks out.
        this.cancelQueued((d) => d.id === old.id);
        this.running.get(old.id)?.job.controller.abort();
        await this.d.store.deleteDocument(kbId, old.id);
        await this.d.catalog.deleteDocument(old.id);
      }
      const indexed = await this.d.catalog.updateDocument(doc.id, {
        status: 'indexed',
        progress: 1,
        chunkCount: records.length,
        embeddedChunks: total,
        error: null,
        indexedAt: new Date().toISOString(),
      });
      if (!indexed) await this.d.store.deleteDocument(kbId, doc.id).catch(() => 0);
    } catch (e) {
      if (signal.aborted) return;
      await this.d.store.deleteDocument(kbId, doc.id).catch(() => 0);
      // A failure nothing named (a bug, not a limit of the document) still says what failed.
      const error = e instanceof PaiError ? toErrorJson(e) : { ...toErrorJson(e), code: 'DOCUMENT_INDEXING_FAILED' };
      await this.d.catalog.updateDocument(doc.id, { status: 'failed', error }).catch(() => null);
    }
  }
}
