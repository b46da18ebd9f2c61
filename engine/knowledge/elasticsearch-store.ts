/**
 * KnowledgeStore on Elasticsearch (client 9.4, works with ES 8.15+ and 9.x servers).
 *
 * One index per knowledge base (`<prefix><kbId>`), created idempotently with a strict mapping (see
 * elasticsearch-requests.ts for the mapping and every request body). An existing index whose mapping differs
 * (another dimension, not ours) is refused with KNOWLEDGE_INDEX_MISMATCH; one created with another CJK analyzer is
 * used as it is (its analyzer applies to its documents and queries alike). Named queries with
 * `include_named_queries_score` give back the knn and bm25 parts of each hit's score.
 * A query the embedder cannot read is sent as BM25 by the service; chunks it cannot read (ChunkRecord.covered) are
 * still indexed with their vector here — the mapping has no field for the mark yet.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { settings } from '../config/settings';
import { PaiError } from '../errors';
import { errorType, esError, isResponseError } from './elasticsearch-errors';
import {
  bulkOperations,
  CJK_ANALYZER_PLUGIN,
  filterFor,
  FORMAT,
  indexDefinition,
  indexNameFor,
  searchBody,
  type ChunkSource,
  type CjkAnalyzer,
} from './elasticsearch-requests';
import {
  DEFAULT_FUSION,
  type ChunkRecord,
  type FusionOptions,
  type IndexSpec,
  type KnowledgeStore,
  type StoreHit,
  type StoreQuery,
} from './types';

export {
  bulkOperations,
  CJK_ANALYZERS,
  filterFor,
  indexDefinition,
  indexNameFor,
  searchBody,
} from './elasticsearch-requests';

/** The parts of an index mapping verify() reads; any of them may be missing in an index PaiFlow did not create. */
interface MappingSeen {
  _meta?: { paiflow?: { format?: unknown } };
  properties?: {
    embedding?: { type?: string; dims?: number; similarity?: string; index?: boolean };
    search_text?: { type?: string };
  };
}

export interface ElasticsearchStoreOptions {
  client: Client;
  /** Index name prefix; default "paiflow-kb-". */
  indexPrefix?: string;
  fusion?: Partial<FusionOptions>;
  /** Documents per bulk request; default 500. */
  bulkSize?: number;
  /** For admins' /api/health details; default the client's first node host. */
  label?: string;
  /** How new indexes tokenize CJK text; default KNOWLEDGE_ES_CJK_ANALYZER (`cjk`). */
  cjkAnalyzer?: CjkAnalyzer;
}

export class ElasticsearchKnowledgeStore implements KnowledgeStore {
  readonly kind = 'elasticsearch';
  private readonly client: Client;
  private readonly prefix: string;
  private readonly fusion: FusionOptions;
  private readonly bulkSize: number;
  private readonly label: string;
  private readonly cjkAnalyzer: CjkAnalyzer;
  /** Indexes verified in this process (skip the mapping check on every write). */
  private verified = new Map<string, number>();

  constructor(opts: ElasticsearchStoreOptions) {
    this.client = opts.client;
    this.prefix = opts.indexPrefix ?? 'paiflow-kb-';
    this.fusion = { ...DEFAULT_FUSION, ...opts.fusion };
    this.bulkSize = opts.bulkSize ?? 500;
    this.cjkAnalyzer = opts.cjkAnalyzer ?? settings().KNOWLEDGE_ES_CJK_ANALYZER;
    let host = 'elasticsearch';
    try {
      // A test double may have no connection pool: hence the optional chain on every step.
      host = new URL(String(this.client.connectionPool?.connections?.[0]?.url ?? '')).host || host;
    } catch {
      /* keep default */
    }
    this.label = opts.label ?? host;
  }

  describe(): string {
    return `elasticsearch (kNN + BM25 ${this.fusion.method})`;
  }

  location(): string {
    return this.label;
  }

  index(kbId: string): string {
    return indexNameFor(this.prefix, kbId);
  }

  /** Checks an existing index's mapping against the spec. */
  private async verify(index: string, spec: IndexSpec): Promise<void> {
    let mapping: MappingSeen | undefined;
    try {
      const res: Record<string, { mappings?: unknown } | undefined> = await this.client.indices.getMapping({ index });
      mapping = (res[index]?.mappings ?? Object.values(res)[0]?.mappings) as MappingSeen | undefined;
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
        `Elasticsearch index ${index} does not match knowledge base ${spec.kbId}: ${problems.join('; ')}. ` +
          'Delete the index or use another ELASTICSEARCH_INDEX_PREFIX.',
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
        await this.client.indices.create({ index, ...indexDefinition(spec, this.cjkAnalyzer) });
        this.verified.set(index, spec.dimension);
        return;
      } catch (e) {
        // Created concurrently by another process: fall through to the mapping check.
        if (errorType(e) !== 'resource_already_exists_exception') throw this.creationError(e, index);
      }
    }
    await this.verify(index, spec);
  }

  /** A tokenizer the cluster does not know means its plugin is missing: say which, and the setting that asks for it. */
  private creationError(e: unknown, index: string): PaiError {
    const plugin = CJK_ANALYZER_PLUGIN[this.cjkAnalyzer];
    const err = esError(e, `creating index ${index}`);
    if (plugin && /tokenizer|filter|analyzer/i.test(err.message)) {
      return new PaiError(
        'KNOWLEDGE_ANALYZER_UNAVAILABLE',
        `KNOWLEDGE_ES_CJK_ANALYZER=${this.cjkAnalyzer} needs the ${plugin} plugin on the Elasticsearch cluster ` +
          `(${err.message}); install it, or set KNOWLEDGE_ES_CJK_ANALYZER=cjk`,
        { status: 502, cause: e },
      );
    }
    return err;
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
        res = await this.client.bulk({ operations: bulkOperations(index, kbId, batch), refresh: 'wait_for' });
      } catch (e) {
        throw esError(e, `indexing into ${index}`);
      }
      if (res.errors) {
        const failed = res.items.map((it) => Object.values(it)[0]).filter((r) => r?.error);
        const first = failed[0]?.error;
        throw new PaiError(
          'KNOWLEDGE_STORE_ERROR',
          `Elasticsearch rejected ${failed.length} of ${batch.length} chunks: ` +
            `${first?.type ?? 'error'}: ${first?.reason ?? ''}`,
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
    let res: estypes.SearchResponse<ChunkSource>;
    try {
      res = await this.client.search<ChunkSource>({ index, ...body, include_named_queries_score: true });
    } catch (e) {
      if (isResponseError(e) && e.statusCode === 404) {
        throw new PaiError('KNOWLEDGE_INDEX_NOT_FOUND', `knowledge base ${q.kbId} has no index; create it first`, {
          status: 404,
        });
      }
      throw esError(e, `searching ${index}`);
    }
    return res.hits.hits.map((h) => {
      // Our queries always ask for _source; a hit without one maps to empty fields.
      const s: ChunkSource = h._source ?? ({} as ChunkSource);
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
