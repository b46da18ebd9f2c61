/**
 * The embedded KnowledgeStore: one KbIndex per knowledge base under `<dir>/<kbId>/`, loaded lazily on first use and
 * kept in memory. Writes to a KB are serialised (one promise chain per KB); searches run synchronously on the
 * in-memory index. Single-process, like the embedded database: a lock file refuses a second process.
 */
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { takeLockFile } from '../config/lock-file';
import { PaiError } from '../errors';
import { KbIndex } from './embedded/kb-index';
import {
  DEFAULT_FUSION,
  type ChunkRecord,
  type FusionOptions,
  type IndexSpec,
  type KnowledgeStore,
  type StoreHit,
  type StoreQuery,
} from './types';

const KB_ID_RE = /^[A-Za-z0-9_-]{1,128}$/;

export interface EmbeddedStoreOptions {
  dir: string;
  fusion?: Partial<FusionOptions>;
  /** Candidate rows up to which kNN scans exactly (KNOWLEDGE_EXACT_KNN_LIMIT; unset, its default). */
  exactKnnLimit?: number;
}

export class EmbeddedKnowledgeStore implements KnowledgeStore {
  readonly kind = 'embedded';
  private readonly dir: string;
  private readonly fusion: FusionOptions;
  private readonly exactKnnLimit?: number;
  private indexes = new Map<string, Promise<KbIndex | null>>();
  private chains = new Map<string, Promise<unknown>>();
  private readonly releaseLock: () => void;

  constructor(opts: EmbeddedStoreOptions) {
    this.dir = path.resolve(opts.dir);
    this.fusion = { ...DEFAULT_FUSION, ...opts.fusion };
    this.exactKnnLimit = opts.exactKnnLimit;
    mkdirSync(this.dir, { recursive: true });
    this.releaseLock = takeLockFile(
      path.join(this.dir, 'paiflow-knowledge.lock'),
      (pid) =>
        new PaiError('DATA_DIR_LOCKED', `the embedded knowledge index in ${this.dir} is in use by process ${pid}`),
    );
  }

  describe(): string {
    return `embedded hybrid index (BM25 + cosine kNN, ${this.fusion.method} fusion)`;
  }

  location(): string {
    return this.dir;
  }

  private kbDir(kbId: string): string {
    if (!KB_ID_RE.test(kbId)) throw new PaiError('INVALID_KNOWLEDGE_BASE_ID', `invalid knowledge base id "${kbId}"`);
    return path.join(this.dir, kbId);
  }

  private index(kbId: string): Promise<KbIndex | null> {
    let p = this.indexes.get(kbId);
    if (!p) {
      const dir = this.kbDir(kbId);
      p = KbIndex.exists(dir).then((yes) => (yes ? KbIndex.load(dir) : null));
      p.catch(() => this.indexes.delete(kbId));
      this.indexes.set(kbId, p);
    }
    return p;
  }

  private async required(kbId: string): Promise<KbIndex> {
    const idx = await this.index(kbId);
    if (!idx) throw new PaiError('KNOWLEDGE_INDEX_NOT_FOUND', `knowledge base ${kbId} has no index; create it first`);
    return idx;
  }

  /** Runs write operations of one KB one after another. */
  private serial<T>(kbId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(kbId) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    this.chains.set(
      kbId,
      next.catch(() => {}),
    );
    return next;
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.serial(spec.kbId, async () => {
      const existing = await this.index(spec.kbId);
      if (existing) {
        if (existing.dimension !== spec.dimension) {
          throw new PaiError(
            'KNOWLEDGE_INDEX_MISMATCH',
            `the index of knowledge base ${spec.kbId} holds ${existing.dimension}-d vectors, ` +
              `not ${spec.dimension}-d; drop it or use the embedding model it was built with`,
          );
        }
        return;
      }
      const idx = await KbIndex.create(this.kbDir(spec.kbId), spec.kbId, spec.dimension);
      this.indexes.set(spec.kbId, Promise.resolve(idx));
    });
  }

  dropIndex(kbId: string): Promise<void> {
    return this.serial(kbId, async () => {
      const dir = this.kbDir(kbId);
      this.indexes.delete(kbId);
      await rm(dir, { recursive: true, force: true });
    });
  }

  upsertChunks(kbId: string, chunks: ChunkRecord[]): Promise<void> {
    return this.serial(kbId, async () => (await this.required(kbId)).upsert(chunks));
  }

  deleteDocument(kbId: string, documentId: string): Promise<number> {
    return this.serial(kbId, async () => (await this.required(kbId)).deleteDocument(documentId));
  }

  async count(kbId: string, documentId?: string): Promise<number> {
    return (await this.required(kbId)).count(documentId);
  }

  async listChunks(kbId: string, documentId: string): Promise<ChunkRecord[]> {
    return (await this.required(kbId)).listChunks(documentId);
  }

  async search(q: StoreQuery): Promise<StoreHit[]> {
    return (await this.required(q.kbId)).search(q, this.fusion, this.exactKnnLimit);
  }

  async uncoveredCount(kbId: string): Promise<number> {
    return (await this.required(kbId)).uncoveredCount;
  }

  async close(): Promise<void> {
    await Promise.all([...this.chains.values()]);
    this.indexes.clear();
    this.releaseLock();
  }
}
