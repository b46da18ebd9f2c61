/**
 * KnowledgeStore on Elasticsearch (servers 8.15+ and 9.x; build the client with createElasticsearchClient, whose
 * transport sends the compatibility headers the server's major accepts — elasticsearch-client.ts).
 *
 * One index per knowledge base (`<prefix><kbId>`), created idempotently with a strict mapping and a write alias
 * (`<index>.write`, added to an existing index on first use) that every bulk goes through with `require_alias`, so
 * a write racing a dropped index fails instead of auto-creating an index with a dynamic mapping (see
 * elasticsearch-requests.ts for the mapping and every request body). An existing index whose mapping differs
 * (another dimension, not ours) is refused with KNOWLEDGE_INDEX_MISMATCH; one created with another CJK analyzer is
 * used as it is (its analyzer applies to its documents and queries alike). Only the BM25 clause is
 * named (`include_named_queries_score` gives back its score); the kNN part is derived from the total.
 * The server's version is read once (`GET /`, or check() at start-up) before the first index check or search: below
 * 8.15 and 10+ are refused; a plugin CJK analyzer (KNOWLEDGE_ES_CJK_ANALYZER) is refused when a node lacks its plugin.
 * RRF runs on the server only where `GET /_license` (read once, on first RRF search) allows it, else client-side
 * (elasticsearch-rrf.ts); describe() names the path in use.
 * A query the embedder cannot read is sent as BM25 by the service; chunks it cannot read (ChunkRecord.covered) are
 * marked `covered: false` and every kNN clause leaves them out, as the embedded store does. Hybrid search's default
 * `weighted` fusion runs the BM25 and kNN searches in one `_msearch` and fuses them here with the embedded store's
 * own function (fusion.ts).
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { defaultSettings } from '../config/settings';
import { PaiError } from '../errors';
import { bulkError, errorType, esError, isResponseError, reasonOf } from './elasticsearch-errors';
import { checkVector } from './chunk-vector';
import {
  bulkOperations,
  CJK_ANALYZER_PLUGIN,
  ADDED_FIELDS,
  filterFor,
  FORMAT,
  indexDefinition,
  indexNameFor,
  indexPrefixProblem,
  SOURCE_FIELDS,
  type ChunkSource,
  type CjkAnalyzer,
  VECTOR_INDEX_OPTIONS,
  writeAliasFor,
} from './elasticsearch-requests';
import { chunkMetaOf, ElasticsearchSearch } from './elasticsearch-search';
import { ElasticsearchServer } from './elasticsearch-server';
import type { FusionPath } from './elasticsearch-rrf';
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
    embedding?: {
      type?: string;
      dims?: number;
      similarity?: string;
      index?: boolean;
      index_options?: { type?: string };
    };
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
  /** How new indexes tokenize CJK text (KNOWLEDGE_ES_CJK_ANALYZER); default `cjk`. */
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
  /** Indexes known to map ADDED_FIELDS (created here, or given them with PUT _mapping). */
  private fieldsMapped = new Set<string>();
  /** The version and licence, read once. */
  private readonly server: ElasticsearchServer;
  private readonly searcher: ElasticsearchSearch;

  constructor(opts: ElasticsearchStoreOptions) {
    this.client = opts.client;
    this.prefix = opts.indexPrefix ?? 'paiflow-kb-';
    const problem = indexPrefixProblem(this.prefix);
    if (problem) {
      throw new PaiError(
        'INVALID_CONFIG',
        `ELASTICSEARCH_INDEX_PREFIX=${JSON.stringify(this.prefix)} ${problem}; ` +
          'expected lower-case letters, digits, - and _ (Elasticsearch index-name rules)',
        { details: { problems: [{ variable: 'ELASTICSEARCH_INDEX_PREFIX', problem }] } },
      );
    }
    this.fusion = { ...DEFAULT_FUSION, ...opts.fusion };
    this.bulkSize = opts.bulkSize ?? 500;
    this.cjkAnalyzer = opts.cjkAnalyzer ?? defaultSettings().KNOWLEDGE_ES_CJK_ANALYZER;
    let host = 'elasticsearch';
    try {
      // A test double may have no connection pool: hence the optional chain on every step.
      host = new URL(String(this.client.connectionPool?.connections?.[0]?.url ?? '')).host || host;
    } catch {
      /* keep default */
    }
    this.label = opts.label ?? host;
    this.server = new ElasticsearchServer(this.client, this.label, this.cjkAnalyzer);
    this.searcher = new ElasticsearchSearch(this.client, this.server);
  }

  /** The start-up check: the server's version (8.15 ≤ v < 10) and the CJK analyzer's plugin on every node. */
  check(): Promise<void> {
    return this.server.checkVersion();
  }

  describe(): string {
    const path = this.fusionPath();
    const named = path === 'rescore' || path === 'weighted' ? path : (path ?? 'rrf, licence not read yet');
    return `elasticsearch (kNN + BM25 ${named})`;
  }

  /** The hybrid path in use for the configured fusion (undefined: RRF configured, licence not read yet). */
  fusionPath(method: FusionOptions['method'] = this.fusion.method): FusionPath | undefined {
    if (method === 'rescore' || method === 'weighted') return method;
    if (this.server.rrfOnServer === undefined) return undefined;
    return this.server.rrfOnServer ? 'rrf-server' : 'rrf-client';
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
      const quant = emb.index_options?.type;
      // Absent in indexes made before the pin: they got the 8.14–9.0 default, which is the pinned one.
      if (quant && quant !== VECTOR_INDEX_OPTIONS.type)
        problems.push(
          `its vectors are indexed as ${quant}, not ${VECTOR_INDEX_OPTIONS.type} (kNN scores would differ)`,
        );
    }
    if (mapping?.properties?.search_text?.type !== 'text') problems.push('it has no search_text field');
    if (problems.length) {
      throw new PaiError(
        'KNOWLEDGE_INDEX_MISMATCH',
        `Elasticsearch index ${index} does not match knowledge base ${spec.kbId}: ${problems.join('; ')}. ` +
          'Delete the index or use another ELASTICSEARCH_INDEX_PREFIX.',
      );
    }
    // Indexes made before the write alias get it now (idempotent: ES answers the same for an alias already there).
    try {
      await this.client.indices.putAlias({ index, name: writeAliasFor(index), is_write_index: true });
    } catch (e) {
      throw esError(e, `adding the write alias ${writeAliasFor(index)} to ${index}`);
    }
    this.verified.set(index, spec.dimension);
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    const index = this.index(spec.kbId);
    if (this.verified.get(index) === spec.dimension) return;
    await this.server.checkVersion();
    let exists: boolean;
    try {
      exists = await this.client.indices.exists({ index });
    } catch (e) {
      throw esError(e, `checking index ${index}`);
    }
    if (!exists) {
      try {
        await this.client.indices.create({
          index,
          aliases: { [writeAliasFor(index)]: { is_write_index: true } },
          ...indexDefinition(spec, this.cjkAnalyzer),
        });
        this.verified.set(index, spec.dimension);
        this.fieldsMapped.add(index);
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
        { cause: e },
      );
    }
    if (err.code === 'KNOWLEDGE_INDEX_MISMATCH') {
      // Our own mapping refused: this server lacks something PaiFlow's indexes use.
      const server = [this.server.versionNumber, this.label].filter(Boolean).join(' at ');
      return new PaiError(
        'KNOWLEDGE_VERSION_UNSUPPORTED',
        `Elasticsearch ${server} refuses PaiFlow's index mapping (${reasonOf(e)}); ` +
          'PaiFlow needs Elasticsearch 8.15 or later, 8.x or 9.x',
        { cause: e },
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
    const alias = writeAliasFor(index);
    const dim = this.verified.get(index);
    for (const c of chunks) checkVector(c, dim);
    if (!this.fieldsMapped.has(index)) {
      try {
        // An index made before these fields: add them (idempotent), so its strict mapping accepts them.
        await this.client.indices.putMapping({ index, properties: ADDED_FIELDS });
      } catch (e) {
        if (!(isResponseError(e) && e.statusCode === 404)) throw esError(e, `adding fields to ${index}`);
      }
      this.fieldsMapped.add(index);
    }
    for (let i = 0; i < chunks.length; i += this.bulkSize) {
      const batch = chunks.slice(i, i + this.bulkSize);
      let res: estypes.BulkResponse;
      try {
        res = await this.client.bulk({
          operations: bulkOperations(alias, kbId, batch),
          refresh: 'wait_for',
          require_alias: true,
        });
      } catch (e) {
        throw esError(e, `indexing into ${index}`);
      }
      if (res.errors) {
        const err = bulkError(res.items, batch.length, index);
        if (err.code === 'KNOWLEDGE_INDEX_NOT_FOUND') this.verified.delete(index);
        throw err;
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

  async listChunks(kbId: string, documentId: string): Promise<ChunkRecord[]> {
    const index = this.index(kbId);
    const out: ChunkRecord[] = [];
    const size = 1000;
    let after: estypes.SortResults | undefined;
    try {
      for (;;) {
        const res = await this.client.search<ChunkSource & { embedding?: number[] }>({
          index,
          size,
          query: { bool: { filter: filterFor(kbId, [documentId]) } },
          sort: [{ chunk_index: 'asc' }],
          ...(after ? { search_after: after } : {}),
          _source: [...SOURCE_FIELDS, 'embedding'],
        });
        for (const h of res.hits.hits) out.push(chunkOf(h._id!, h._source!));
        if (res.hits.hits.length < size) break;
        after = res.hits.hits.at(-1)!.sort;
      }
    } catch (e) {
      throw esError(e, `reading the chunks of ${index}`);
    }
    return out.sort((a, b) => a.chunkIndex - b.chunkIndex);
  }

  async search(q: StoreQuery): Promise<StoreHit[]> {
    const index = this.index(q.kbId);
    await this.server.checkVersion();
    return this.searcher.search(index, q, { ...this.fusion, ...q.fusion });
  }

  async close(): Promise<void> {
    /* the client is owned by whoever created it */
  }
}

/** A stored chunk document as a ChunkRecord: its vector as stored, none on a chunk the embedder did not cover. */
function chunkOf(id: string, s: ChunkSource & { embedding?: number[] }): ChunkRecord {
  return {
    ...chunkMetaOf(id, s),
    ...(s.covered === false ? { covered: false } : {}),
    ...(s.embedding && s.covered !== false ? { vector: Float32Array.from(s.embedding) } : {}),
  };
}
