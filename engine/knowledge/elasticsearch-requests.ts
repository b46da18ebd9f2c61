/**
 * The requests the Elasticsearch knowledge store sends, as pure functions so that tests can assert them exactly.
 *
 * One index per knowledge base (`<prefix><kbId>`) with a strict mapping: the chunk fields, a `search_text` field
 * (title + text via copy_to) analysed like the embedded store for English (possessive, lower-case, the same English
 * stop words, Porter stemming) and a `dense_vector` (indexed, cosine, dims of the KB, index_options pinned).
 * Chinese, Japanese and Korean are tokenized as KNOWLEDGE_ES_CJK_ANALYZER says (see CJK_ANALYZERS): `cjk` bigrams by
 * default (no plugin needed), or a word segmenter where the cluster has its plugin. The choice is recorded in
 * `_meta.paiflow.cjkAnalyzer`; an index keeps the analyzer it was created with (Elasticsearch cannot re-analyse a field
 * in place), so changing the setting applies to knowledge bases created afterwards.
 * Whatever the choice, `search_text.unigram` also indexes each Chinese/Japanese character (and each kana or Hangul
 * word) on its own (standard tokenizer, keep_types on the CJK token types; built in): the BM25 clause queries both
 * fields (multi_match most_fields, the unigram field at UNIGRAM_BOOST), so a one-character query such as 猫 matches
 * text whose bigrams are 小猫 / 猫很. Indexes made before the sub-field simply do not match on it.
 *
 * Writes go through the KB's write alias (`<index>.write`, created with the index) with `require_alias=true`, so a
 * bulk that races a dropped index fails (index_not_found) instead of auto-creating an index with a dynamic mapping.
 *
 * Retrieval:
 * - hybrid/rescore (default): a `knn` query (k = topK × 30, num_candidates = 4 × k, KB filter inside it) rescored
 *   by the BM25 clause (bm25Clause: search_text + its unigram sub-field): score = 0.2 × knn + 1.0 × bm25 over the
 *   kNN window;
 * - hybrid/rrf: an `rrf` retriever over a BM25 standard retriever and a kNN retriever (same window) where the
 *   licence has RRF, else client-side fusion (elasticsearch-rrf.ts);
 * - bm25: the BM25 clause with the filter in a bool;
 * - vector: top-level `knn` (k = topK, num_candidates = max(topK × 30, 50)).
 * Every window (size, k, num_candidates, rank_window_size) is clamped to Elasticsearch's 10,000 limit.
 * The KB (and optional document) filter sits inside every query, so ranking only ever sees that KB's chunks.
 * Only the BM25 clause is named (`_name: bm25`); the store derives the kNN part of each hit's score from it.
 */
import type { estypes } from '@elastic/elasticsearch';
import { PaiError } from '../errors';
import { ENGLISH_STOP_LIST } from './analyzer';
import { HEADINGS_BOOST, headingsText } from './headings-field';
import type { ChunkMeta, ChunkRecord, FusionOptions, IndexSpec, StoreQuery } from './types';

/**
 * The pinned vector index: int8-quantized HNSW with Lucene's defaults (m 16, ef_construction 100). Both 8.15+ and
 * 9.x accept it, and it is what 8.14–9.0 pick by default, so scores match existing indexes; left to the server, 9.1+
 * would pick bbq_hnsw (1-bit) for ≥ 384 dims and kNN scores would change with the server version.
 */
export const VECTOR_INDEX_OPTIONS = { type: 'int8_hnsw', m: 16, ef_construction: 100 } as const;

/** The mapping's `_meta.paiflow.format`; an index with another one was not made by this code. */
export const FORMAT = 1;

/**
 * How `search_text` tokenizes CJK text:
 * - `cjk`: the standard tokenizer + cjk_bigram (overlapping character pairs), built in — what indexes created before
 *   this setting have (their `_meta` has no cjkAnalyzer);
 * - `smartcn`: the analysis-smartcn plugin's Chinese word segmenter (smartcn_tokenizer + smartcn_stop);
 * - `ik_smart`: the IK plugin's (elasticsearch-analysis-ik) coarse-grained segmenter;
 * - `icu`: the analysis-icu plugin's dictionary-based icu_tokenizer (Chinese, Japanese, Thai, …).
 */
export const CJK_ANALYZERS = ['cjk', 'smartcn', 'ik_smart', 'icu'] as const;
export type CjkAnalyzer = (typeof CJK_ANALYZERS)[number];

/** The plugin a CJK analyzer needs on the cluster (for the error when index creation fails without it). */
export const CJK_ANALYZER_PLUGIN: Record<CjkAnalyzer, string | null> = {
  cjk: null,
  smartcn: 'analysis-smartcn',
  ik_smart: 'analysis-ik',
  icu: 'analysis-icu',
};

/** The `paiflow_text` analyzer for a CJK choice; the English filters are the same in each. */
function textAnalyzer(cjk: CjkAnalyzer): { type: 'custom'; tokenizer: string; filter: string[] } {
  const english = ['paiflow_possessive', 'lowercase', 'paiflow_stop', 'porter_stem'];
  switch (cjk) {
    case 'cjk':
      return {
        type: 'custom',
        tokenizer: 'standard',
        filter: ['cjk_width', 'paiflow_possessive', 'lowercase', 'cjk_bigram', 'paiflow_stop', 'porter_stem'],
      };
    case 'smartcn':
      return { type: 'custom', tokenizer: 'smartcn_tokenizer', filter: ['cjk_width', 'smartcn_stop', ...english] };
    case 'ik_smart':
      return { type: 'custom', tokenizer: 'ik_smart', filter: ['cjk_width', ...english] };
    case 'icu':
      return { type: 'custom', tokenizer: 'icu_tokenizer', filter: ['cjk_width', ...english] };
  }
}
const KB_ID_RE = /^[a-z0-9_-]{1,128}$/;
/** The write alias's suffix after the index name (a KB id has no `.`, so no alias can be another KB's index). */
const WRITE_ALIAS_SUFFIX = '.write';
/** The CJK unigram sub-field of search_text, and its weight in the BM25 clause (the bigram field has 1). */
export const UNIGRAM_FIELD = 'search_text.unigram';
export const UNIGRAM_BOOST = 0.5;
/** The fields the BM25 clause queries, as multi_match `fields`: the body, its CJK unigrams and the headings field. */
export const BM25_FIELDS = [
  'search_text',
  `${UNIGRAM_FIELD}^${UNIGRAM_BOOST}`,
  ...(HEADINGS_BOOST > 0 ? [`headings^${HEADINGS_BOOST}`] : []),
];
/** Elasticsearch's ceiling for `size` (index.max_result_window), kNN `k` and `num_candidates`: 10,000 each. */
export const MAX_WINDOW = 10_000;
export const SOURCE_FIELDS = [
  'document_id',
  'title',
  'chunk_index',
  'start',
  'end',
  'page',
  'text',
  'heading_path',
  'covered',
  'context',
];

/** The `_source` of a chunk document, as bulkOperations() writes it (without kb_id and the embedding). */
export interface ChunkSource {
  document_id: string;
  title: string;
  chunk_index: number;
  start: number;
  end: number;
  page?: number | null;
  text: string;
  /** Markdown: ChunkMeta.headingPath. */
  heading_path?: string[];
  /** ChunkMeta.context: kept in the source, never indexed. */
  context?: ChunkMeta['context'];
  /** false: the embedder does not read the chunk (ChunkRecord.covered); absent: covered. */
  covered?: boolean;
}

/**
 * Why a prefix cannot start Elasticsearch index names (lower-case; none of \ / * ? " < > | , # : or space; not
 * starting with - _ + or . (hidden/system); ≤ 255 bytes with the longest KB id), or null when it can.
 */
export function indexPrefixProblem(prefix: string): string | null {
  if (!prefix) return 'is empty';
  if (prefix !== prefix.toLowerCase()) return 'has upper-case letters';
  const bad = /[\\/*?"<>|,#: ]/.exec(prefix);
  if (bad) return `contains "${bad[0]}"`;
  if (/^[-_+.]/.test(prefix)) return `starts with "${prefix[0]}"`;
  if (Buffer.byteLength(prefix) > 255 - 128 - WRITE_ALIAS_SUFFIX.length)
    return 'is longer than 121 bytes (names end with a KB id of ≤ 128 and the write alias adds ".write")';
  return null;
}

export function indexNameFor(prefix: string, kbId: string): string {
  if (!KB_ID_RE.test(kbId))
    throw new PaiError(
      'INVALID_KNOWLEDGE_BASE_ID',
      `invalid knowledge base id "${kbId}" (lower-case letters, digits, _ and - only)`,
    );
  return `${prefix}${kbId}`;
}

/** The alias every write to a KB's index goes through (bulk with require_alias). */
export function writeAliasFor(index: string): string {
  return `${index}${WRITE_ALIAS_SUFFIX}`;
}

/** The BM25 clause: the analysed field and its CJK unigram sub-field, scores summed (most_fields). */
export function bm25Clause(text: string, name?: string): estypes.QueryDslQueryContainer {
  return {
    multi_match: { query: text, fields: [...BM25_FIELDS], type: 'most_fields', ...(name ? { _name: name } : {}) },
  };
}

/** The index settings + mapping for a KB (exported for the request-shape tests). */
export function indexDefinition(spec: IndexSpec, cjkAnalyzer: CjkAnalyzer = 'cjk') {
  return {
    settings: {
      analysis: {
        filter: {
          paiflow_possessive: { type: 'stemmer', language: 'possessive_english' },
          paiflow_stop: { type: 'stop', stopwords: [...ENGLISH_STOP_LIST] },
          paiflow_cjk_only: { type: 'keep_types', types: ['<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>', '<HANGUL>'] },
        },
        analyzer: {
          paiflow_text: textAnalyzer(cjkAnalyzer),
          paiflow_cjk_unigram: {
            type: 'custom' as const,
            tokenizer: 'standard',
            filter: ['cjk_width', 'lowercase', 'paiflow_cjk_only'],
          },
        },
      },
    } satisfies estypes.IndicesIndexSettings,
    mappings: {
      dynamic: 'strict' as const,
      _meta: { paiflow: { format: FORMAT, kbId: spec.kbId, dimension: spec.dimension, cjkAnalyzer } },
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
        search_text: {
          type: 'text' as const,
          analyzer: 'paiflow_text',
          fields: { unigram: { type: 'text' as const, analyzer: 'paiflow_cjk_unigram' } },
        },
        chunk_index: { type: 'integer' as const },
        start: { type: 'integer' as const },
        end: { type: 'integer' as const },
        page: { type: 'integer' as const },
        ...ADDED_FIELDS,
        embedding: {
          type: 'dense_vector' as const,
          dims: spec.dimension,
          index: true,
          similarity: 'cosine' as const,
          index_options: { ...VECTOR_INDEX_OPTIONS },
        },
      },
    },
  };
}

/**
 * Fields added after the first indexes were made (issue 46); an older index gets them (PUT _mapping, idempotent)
 * before this process first writes to it. `covered`: false when the embedder does not read the chunk
 * (ChunkRecord.covered), written only then — where it is missing a chunk counts as covered. `headings`: the weighted
 * headings field (headings-field.ts); `heading_path`: the chunk's heading path, kept to answer it.
 */
export const ADDED_FIELDS = {
  covered: { type: 'boolean' as const },
  headings: { type: 'text' as const, analyzer: 'paiflow_text' },
  heading_path: { type: 'keyword' as const, index: false, doc_values: false },
  context: { type: 'object' as const, enabled: false },
};

/** Chunks the embedder does not read take no part in kNN, as in the embedded store. */
const COVERED_ONLY: estypes.QueryDslQueryContainer = { bool: { must_not: [{ term: { covered: false } }] } };

/** The filter every query carries: this KB, optionally these documents. */
export function filterFor(kbId: string, documentIds?: string[]): estypes.QueryDslQueryContainer[] {
  const f: estypes.QueryDslQueryContainer[] = [{ term: { kb_id: kbId } }];
  if (documentIds) f.push({ terms: { document_id: documentIds } });
  return f;
}

/**
 * kNN candidates per shard: above k for search headroom (4 × k, at least the window and 50), never past 10,000
 * (ES refuses more, and num_candidates may equal but not be below k, so k ≤ 10,000 always fits).
 */
export function numCandidates(k: number, window: number): number {
  return Math.min(MAX_WINDOW, Math.max(window, k * 4, 50));
}

/** The kNN search over the chunk vectors: k nearest of the knowledge base's (filtered) chunks, with headroom. */
export function knnClause(
  vector: number[],
  k: number,
  window: number,
  filter: estypes.QueryDslQueryContainer[],
): estypes.KnnSearch {
  return {
    field: 'embedding',
    query_vector: vector,
    k,
    num_candidates: numCandidates(k, window),
    filter: [...filter, COVERED_ONLY],
  };
}

/** The body of POST /<index>/_search for a query (exported for the request-shape tests). */
export function searchBody(q: StoreQuery, fusion: FusionOptions): Record<string, unknown> {
  const topK = Math.min(MAX_WINDOW, Math.max(1, Math.floor(q.topK)));
  const filter = filterFor(q.kbId, q.documentIds);
  const window = Math.min(MAX_WINDOW, topK * fusion.numCandidatesFactor);
  const vector = q.vector ? Array.from(q.vector, Number) : undefined;
  const match = bm25Clause(q.text, 'bm25');
  const base = { size: topK, _source: SOURCE_FIELDS, track_total_hits: false };
  if (q.mode === 'bm25') return { ...base, query: { bool: { must: [match], filter } } };
  if (!vector) throw new PaiError('QUERY_VECTOR_REQUIRED', `${q.mode} search needs a query vector`);
  if (q.mode === 'vector')
    return {
      ...base,
      knn: knnClause(vector, topK, window, filter),
    };
  if (fusion.method === 'rrf') {
    return {
      ...base,
      retriever: {
        rrf: {
          retrievers: [
            { standard: { query: { bool: { must: [match], filter } } } },
            { knn: knnClause(vector, window, window, filter) },
          ],
          rank_window_size: window,
          rank_constant: fusion.rankConstant,
        },
      },
    };
  }
  // Unnamed: a named kNN query would run the approximate search again in the fetch phase; the store derives the
  // kNN part from the score and the named (cheap) BM25 clause of the rescore.
  const knnQuery = { knn: knnClause(vector, window, window, filter) };
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
      ...(c.headingPath?.length ? { headings: headingsText(c), heading_path: c.headingPath } : {}),
      ...(c.covered === false ? { covered: false } : {}),
      ...(c.context ? { context: c.context } : {}),
      // A chunk the embedder does not cover has no vector: kNN never finds it (and skips it by `covered` too).
      ...(c.vector ? { embedding: Array.from(c.vector, Number) } : {}),
    });
  }
  return ops;
}
