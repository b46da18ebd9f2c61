/**
 * KnowledgeStore on Elasticsearch (client 9.4, works with ES 8.15+ and 9.x servers).
 *
 * One index per knowledge base (`<prefix><kbId>`), created idempotently with a strict mapping: the chunk fields, a
 * `search_text` field (title + text via copy_to) analysed like the embedded store (standard tokenizer, possessive,
 * lower-case, CJK bigrams, the same English stop words, Porter stemming) and a `dense_vector` (indexed, cosine, dims of the
 * KB). An existing index whose mapping differs (another dimension, not ours) is refused with KNOWLEDGE_INDEX_MISMATCH.
 *
 * Retrieval (the request bodies are built by the pure functions below and asserted exactly in tests):
 * - hybrid/rescore (default): a `knn` query (k = num_candidates = topK × 30, KB filter inside it) rescored by a BM25
 *   `match` on search_text: score = 0.2 × knn + 1.0 × bm25 over the kNN window;
 * - hybrid/rrf: an `rrf` retriever over a BM25 standard retriever and a kNN retriever (same window);
 * - bm25: `match` with the filter in a bool; vector: top-level `knn` (k = topK, num_candidates = topK × 30).
 * The KB (and optional document) filter sits inside every query, so ranking only ever sees that KB's chunks.
 * Named queries with `include_named_queries_score` give back the knn and bm25 parts of each hit's score.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { PaiError } from '../errors';
import { ENGLISH_STOP_LIST } from './analyzer';
import {
  DEFAULT_FUSION,
  type ChunkRecord,
  type FusionOptions,
  type IndexSpec,
  type KnowledgeStore,
  type StoreHit,
  type StoreQuery,
} from './types';

const FORMAT = 1;
const KB_ID_RE = /^[a-z0-9_-]{1,128}$/;
const SOURCE_FIELDS = ['document_id', 'title', 'chunk_index', 'start', 'end', 'page', 'text'];

export interface ElasticsearchStoreOptions {
  client: Client;
  /** Index name prefix; default "paiflow-kb-". */
  indexPrefix?: string;
  fusion?: Partial<FusionOptions>;
  /** Documents per bulk request; default 500. */
  bulkSize?: number;
  /** For /api/health; default the client's first node host. */
  label?: string;
}

export function indexNameFor(prefix: string, kbId: string): string {
  if (!KB_ID_RE.test(kbId))
    throw new PaiError(
      'INVALID_KNOWLEDGE_BASE_ID',
      `invalid knowledge base id "${kbId}" (lower-case letters, digits, _ and - only)`,
      { status: 400 },
    );
  return `${prefix}${kbId}`;
}

/** The index settings + mapping for a KB (exported for the request-shape tests). */
export function indexDefinition(spec: IndexSpec) {
  return {
    settings: {
      analysis: {
        filter: {
          paiflow_possessive: { type: 'stemmer', language: 'possessive_english' },
          paiflow_stop: { type: 'stop', stopwords: [...ENGLISH_STOP_LIST] },
        },
        analyzer: {
          paiflow_text: {
            type: 'custom',
            tokenizer: 'standard',
            filter: ['cjk_width', 'paiflow_possessive', 'lowercase', 'cjk_bigram', 'paiflow_stop', 'porter_stem'],
          },
        },
      },
    },
    mappings: {
      dynamic: 'strict' as const,
      _meta: { paiflow: { format: FORMAT, kbId: spec.kbId, dimension: spec.dimension } },
      properties: {
        kb_id: { type: 'keyword' as const },
        document_id: { type: 'keyword' as const },
        title: {
          type: 'text' as const,
          analyzer: 'paiflow_text',
          copy_to: ['search_text'],
          fields: { keyword: { type: 'keyword' as const, ignore_above: 1024 } },
        },
        text: { type: 'text' as const, analyzer: 'paiflow_text', copy_to: ['search_text'] },
        search_text: { type: 'text' as const, analyzer: 'paiflow_text' },
        chunk_index: { type: 'integer' as const },
        start: { type: 'integer' as const },
        end: { type: 'integer' as const },
        page: { type: 'integer' as const },
        embedding: { type: 'dense_vector' as const, dims: spec.dimension, index: true, similarity: 'cosine' as const },
      },
    },
  };
}

/** The filter every query carries: this KB, optionally these documents. */
export function filterFor(kbId: string, documentIds?: string[]): estypes.QueryDslQueryContainer[] {
  const f: estypes.QueryDslQueryContainer[] = [{ term: { kb_id: kbId } }];
  if (documentIds) f.push({ terms: { document_id: documentIds } });
  return f;
}

/** The body of POST /<index>/_search for a query (exported for the request-shape tests). */
export function searchBody(q: StoreQuery, fusion: FusionOptions): Record<string, unknown> {
  const topK = Math.max(1, Math.floor(q.topK));
  const filter = filterFor(q.kbId, q.documentIds);
  const window = topK * fusion.numCandidatesFactor;
  const vector = q.vector ? Array.from(q.vector, Number) : undefined;
  const match = { match: { search_text: { query: q.text, _name: 'bm25' } } };
  const base = { size: topK, _source: SOURCE_FIELDS, track_total_hits: false };
  if (q.mode === 'bm25') return { ...base, query: { bool: { must: [match], filter } } };
  if (!vector) throw new PaiError('QUERY_VECTOR_REQUIRED', `${q.mode} search needs a query vector`, { status: 400 });
  if (q.mode === 'vector')
    return { ...base, knn: { field: 'embedding', query_vector: vector, k: topK, num_candidates: window, filter } };
  if (fusion.method === 'rrf') {
    return {
      ...base,
      retriever: {
        rrf: {
          retrievers: [
            { standard: { query: { bool: { must: [match], filter } } } },
            { knn: { field: 'embedding', query_vector: vector, k: window, num_candidates: window, filter } },
          ],
          rank_window_size: window,
          rank_constant: fusion.rankConstant,
        },
      },
    };
  }
  const knnQuery = {
    knn: { field: 'embedding', query_vector: vector, k: window, num_candidates: window, filter, _name: 'knn' },
  };
  if (!q.text.trim()) return { ...base, query: knnQuery };
  return {
    ...base,
    query: knnQuery,
    rescore: {
      window_size: window,
      query: {
        rescore_query: match,
        query_weight: fusion.knnWeight,
        rescore_query_weight: fusion.bm25Weight,
        score_mode: 'total',
      },
    },
  };
}

/** The bulk operations that index chunks (exported for the request-shape tests). */
export function bulkOperations(index: string, kbId: string, chunks: ChunkRecord[]): unknown[] {
  const ops: unknown[] = [];
  for (const c of chunks) {
    ops.push({ index: { _index: index, _id: c.id } });
    ops.push({
      kb_id: kbId,
      document_id: c.documentId,
      title: c.title,
      chunk_index: c.chunkIndex,
      start: c.start,
      end: c.end,
      page: c.page ?? null,
      text: c.text,
      embedding: Array.from(c.vector, Number),
    });
  }
  return ops;
}

/**
 * Errors are recognised by name, not instanceof: @elastic/elasticsearch ships CJS and ESM builds, and a client from
 * one build (or a test double) throws error classes the other build's `errors` does not know.
 */
type EsResponseError = Error & { statusCode?: number; body?: any };
const isResponseError = (e: unknown): e is EsResponseError => (e as Error)?.name === 'ResponseError';
const CONNECTION_ERRORS = new Set([
  'ConnectionError',
  'TimeoutError',
  'NoLivingConnectionsError',
  'RequestAbortedError',
]);
const errorType = (e: unknown) => (isResponseError(e) ? (e.body as any)?.error?.type : undefined);

function esError(e: unknown, what: string): PaiError {
  if (e instanceof PaiError) return e;
  if (isResponseError(e)) {
    const reason = (e.body as any)?.error?.root_cause?.[0]?.reason ?? (e.body as any)?.error?.reason ?? e.message;
    return new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch ${what} failed (${e.statusCode}): ${reason}`, {
      status: 502,
      retryable: (e.statusCode ?? 500) >= 500 || e.statusCode === 429,
      cause: e,
    });
  }
  if (CONNECTION_ERRORS.has((e as Error)?.name)) {
    return new PaiError(
      'KNOWLEDGE_STORE_UNAVAILABLE',
      `Elasticsearch is unreachable (${what}): ${(e as Error).message}`,
      { status: 503, retryable: true, cause: e },
    );
  }
  return new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch ${what} failed: ${(e as Error)?.message ?? String(e)}`, {
    status: 502,
    cause: e,
  });
}

export class ElasticsearchKnowledgeStore implements KnowledgeStore {
  readonly kind = 'elasticsearch';
  private readonly client: Client;
  private readonly prefix: string;
  private readonly fusion: FusionOptions;
  private readonly bulkSize: number;
  private readonly label: string;
  /** Indexes verified in this process (skip the mapping check on every write). */
  private verified = new Map<string, number>();

  constructor(opts: ElasticsearchStoreOptions) {
    this.client = opts.client;
    this.prefix = opts.indexPrefix ?? 'paiflow-kb-';
    this.fusion = { ...DEFAULT_FUSION, ...opts.fusion };
    this.bulkSize = opts.bulkSize ?? 500;
    let host = 'elasticsearch';
    try {
      host = new URL(String((this.client as any).connectionPool?.connections?.[0]?.url ?? '')).host || host;
    } catch {
      /* keep default */
    }
    this.label = opts.label ?? host;
  }

  describe(): string {
    return `elasticsearch (${this.label}; kNN + BM25 ${this.fusion.method})`;
  }

  index(kbId: string): string {
    return indexNameFor(this.prefix, kbId);
  }

  /** Checks an existing index's mapping against the spec. */
  private async verify(index: string, spec: IndexSpec): Promise<void> {
    let mapping: any;
    try {
      const res = await this.client.indices.getMapping({ index });
      mapping = (res as any)[index]?.mappings ?? (Object.values(res as any)[0] as any)?.mappings;
    } catch (e) {
      throw esError(e, `reading the mapping of ${index}`);
    }
    const meta = mapping?._meta?.paiflow;
    const emb = mapping?.properties?.embedding;
    const problems: string[] = [];
    if (!meta || meta.format !== FORMAT) problems.push('it was not created by PaiFlow (no _meta.paiflow)');
    if (!emb || emb.type !== 'dense_vector') problems.push('it has no dense_vector field "embedding"');
    else {
      if (emb.dims !== spec.dimension)
        problems.push(`its embedding has ${emb.dims} dimensions, the knowledge base ${spec.dimension}`);
      if (emb.similarity && emb.similarity !== 'cosine')
        problems.push(`its similarity is ${emb.similarity}, not cosine`);
      if (emb.index === false) problems.push('its embedding is not indexed for kNN');
    }
    if (mapping?.properties?.search_text?.type !== 'text') problems.push('it has no search_text field');
    if (problems.length) {
      throw new PaiError(
        'KNOWLEDGE_INDEX_MISMATCH',
        `Elasticsearch index ${index} does not match knowledge base ${spec.kbId}: ${problems.join('; ')}. Delete the index or use another ELASTICSEARCH_INDEX_PREFIX.`,
        { status: 409 },
      );
    }
    this.verified.set(index, spec.dimension);
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    const index = this.index(spec.kbId);
    if (this.verified.get(index) === spec.dimension) return;
    let exists: boolean;
    try {
      exists = await this.client.indices.exists({ index });
    } catch (e) {
      throw esError(e, `checking index ${index}`);
    }
    if (!exists) {
      try {
        await this.client.indices.create({ index, ...indexDefinition(spec) } as any);
        this.verified.set(index, spec.dimension);
        return;
      } catch (e) {
        // Created concurrently by another process: fall through to the mapping check.
        if (errorType(e) !== 'resource_already_exists_exception') throw esError(e, `creating index ${index}`);
      }
    }
    await this.verify(index, spec);
  }

  async dropIndex(kbId: string): Promise<void> {
    const index = this.index(kbId);
    this.verified.delete(index);
    try {
      await this.client.indices.delete({ index, ignore_unavailable: true });
    } catch (e) {
      throw esError(e, `deleting index ${index}`);
    }
  }

  async upsertChunks(kbId: string, chunks: ChunkRecord[]): Promise<void> {
    if (!chunks.length) return;
    const index = this.index(kbId);
    const dim = this.verified.get(index);
    for (const c of chunks) {
      if (dim !== undefined && c.vector.length !== dim) {
        throw new PaiError(
          'EMBEDDING_DIMENSION_MISMATCH',
          `chunk ${c.id} has a ${c.vector.length}-d vector; this knowledge base's index is ${dim}-d`,
          { status: 409 },
        );
      }
    }
    for (let i = 0; i < chunks.length; i += this.bulkSize) {
      const batch = chunks.slice(i, i + this.bulkSize);
      let res: estypes.BulkResponse;
      try {
        res = await this.client.bulk({ operations: bulkOperations(index, kbId, batch) as any, refresh: 'wait_for' });
      } catch (e) {
        throw esError(e, `indexing into ${index}`);
      }
      if (res.errors) {
        const failed = res.items.map((it) => Object.values(it)[0]).filter((r) => r?.error);
        const first = failed[0]?.error;
        throw new PaiError(
          'KNOWLEDGE_STORE_ERROR',
          `Elasticsearch rejected ${failed.length} of ${batch.length} chunks: ${first?.type ?? 'error'}: ${first?.reason ?? ''}`,
          { status: 502 },
        );
      }
    }
  }

  async deleteDocument(kbId: string, documentId: string): Promise<number> {
    const index = this.index(kbId);
    try {
      const res = await this.client.deleteByQuery({
        index,
        query: { bool: { filter: [{ term: { kb_id: kbId } }, { term: { document_id: documentId } }] } },
        refresh: true,
        conflicts: 'proceed',
      });
      return res.deleted ?? 0;
    } catch (e) {
      if (isResponseError(e) && e.statusCode === 404) return 0;
      throw esError(e, `deleting document ${documentId} from ${index}`);
    }
  }

  async count(kbId: string, documentId?: string): Promise<number> {
    const index = this.index(kbId);
    try {
      const res = await this.client.count({
        index,
        query: { bool: { filter: filterFor(kbId, documentId ? [documentId] : undefined) } },
      });
      return res.count;
    } catch (e) {
      throw esError(e, `counting ${index}`);
    }
  }

  async search(q: StoreQuery): Promise<StoreHit[]> {
    const index = this.index(q.kbId);
    const fusion = { ...this.fusion, ...q.fusion };
    const body = searchBody(q, fusion);
    let res: estypes.SearchResponse<any>;
    try {
      res = await this.client.search({ index, ...body, include_named_queries_score: true } as any);
    } catch (e) {
      if (isResponseError(e) && e.statusCode === 404) {
        throw new PaiError('KNOWLEDGE_INDEX_NOT_FOUND', `knowledge base ${q.kbId} has no index; create it first`, {
          status: 404,
        });
      }
      throw esError(e, `searching ${index}`);
    }
    return res.hits.hits.map((h) => {
      const s = h._source ?? {};
      const score = h._score ?? 0;
      const named = (h.matched_queries && !Array.isArray(h.matched_queries) ? h.matched_queries : {}) as Record<
        string,
        number
      >;
      let bm25: number | null = null;
      let knn: number | null = null;
      if (q.mode === 'bm25') bm25 = score;
      else if (q.mode === 'vector') knn = score;
      else if (fusion.method === 'rescore') {
        knn = typeof named.knn === 'number' ? named.knn : null;
        if (knn !== null) bm25 = q.text.trim() ? Math.max(0, (score - fusion.knnWeight * knn) / fusion.bm25Weight) : 0;
      } else {
        bm25 = typeof named.bm25 === 'number' ? named.bm25 : null;
      }
      return {
        id: String(h._id),
        documentId: s.document_id,
        title: s.title,
        chunkIndex: s.chunk_index,
        start: s.start,
        end: s.end,
        page: s.page ?? null,
        text: s.text,
        score,
        bm25,
        knn,
      };
    });
  }

  async close(): Promise<void> {
    /* the client is owned by whoever created it */
  }
}
