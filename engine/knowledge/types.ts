/**
 * Knowledge bases: the contracts. A KnowledgeStore holds the chunks of every knowledge base (one index per KB) and
 * answers BM25, vector (cosine kNN) and hybrid queries; two implementations (embedded, Elasticsearch) are held to one
 * conformance suite (test/knowledge/knowledge-store.conformance.test.ts). An Embedder turns text into vectors.
 * A KnowledgeService is what nodes and tools see: search by knowledge-base id, nothing else.
 */
import type { MetadataFilter } from './metadata';

/** A chunk's text and where it came from. `id` is `${documentId}:${chunkIndex}`. */
export interface ChunkMeta {
  id: string;
  documentId: string;
  title: string;
  chunkIndex: number;
  /** Character offsets of the chunk in the document's extracted text (end exclusive). */
  start: number;
  end: number;
  /** 1-based page for PDFs, else null. */
  page: number | null;
  text: string;
  /**
   * Markdown: the headings in force where the chunk starts, then those inside it (markdown-headings.ts). Indexed
   * with the title as the weighted headings field; absent for other formats.
   */
  headingPath?: string[];
  /**
   * What a hit returns in place of the matched text (chunking.ts): the parent section a small chunk belongs to
   * (parent–child chunking: match small, read whole), or the answer to the question the chunk is (Q&A). Kept beside
   * the chunk, never searched; `start`/`end` are its offsets in the document's text (the key of a parent, whose
   * children share it).
   */
  context?: ChunkContext;
}

export interface ChunkContext {
  kind: 'parent' | 'answer';
  start: number;
  end: number;
  text: string;
}

/** One chunk as stored; upserting the same id replaces the chunk. */
export interface ChunkRecord extends ChunkMeta {
  /**
   * The chunk's embedding; its length must equal the index's dimension. Absent only on a chunk the embedder does not
   * cover (`covered: false`): such a vector would say nothing, so indexing does not compute it.
   */
  vector?: ArrayLike<number>;
  /**
   * false: the embedder does not cover the chunk's language (Embedder.coverage). Both stores leave such a chunk out
   * of kNN — it is ranked by BM25 alone and its hits say knn: null. Absent: covered.
   */
  covered?: boolean;
}

export interface IndexSpec {
  kbId: string;
  dimension: number;
}

export const SEARCH_MODES = ['hybrid', 'bm25', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/**
 * How hybrid scores are fused.
 * - `weighted` (default): each side on a 0..1 scale within the query, then (1 − vectorWeight) · bm25′ +
 *   vectorWeight · knn′ over the union of the BM25 matches and the kNN window, by each side's coverage: no vector or
 *   an uncovered chunk → BM25 alone, no BM25 match → kNN alone (fusion.ts). Both stores compute it the same way.
 * - `rescore`: take the kNN candidates (num_candidates = topK × numCandidatesFactor), then score each as
 *   knnWeight × knn + bm25Weight × bm25 (Elasticsearch's kNN + query rescore; a chunk outside the kNN candidates
 *   cannot be returned).
 * - `rrf`: reciprocal rank fusion of the BM25 and kNN result lists, Σ 1 / (rankConstant + rank), over the top
 *   `topK × numCandidatesFactor` of each list (a keyword-only match can be returned even when its vector is far).
 */
export interface FusionOptions {
  method: 'weighted' | 'rescore' | 'rrf';
  /** `weighted`: the vector side's share, 0..1 (a knowledge base's `vectorWeight`). */
  vectorWeight: number;
  knnWeight: number;
  bm25Weight: number;
  numCandidatesFactor: number;
  rankConstant: number;
}

/** A knowledge base's vector share in `weighted` fusion when it sets none (measured: docs/knowledge.md). */
export const DEFAULT_VECTOR_WEIGHT = 0.3;

export const DEFAULT_FUSION: FusionOptions = {
  method: 'weighted',
  vectorWeight: DEFAULT_VECTOR_WEIGHT,
  knnWeight: 0.2,
  bm25Weight: 1.0,
  numCandidatesFactor: 30,
  rankConstant: 60,
};

export interface StoreQuery {
  kbId: string;
  /** The query text (BM25); may be empty in `vector` mode. */
  text: string;
  /** The query embedding (required for `hybrid` and `vector`). */
  vector?: ArrayLike<number>;
  topK: number;
  mode: SearchMode;
  /** Only chunks of these documents (tenant-style filter applied inside the query, before ranking). */
  documentIds?: string[];
  /** Per-query override of the store's fusion settings. */
  fusion?: Partial<FusionOptions>;
}

/**
 * A hit. `knn` is the cosine similarity mapped to [0, 1] as (1 + cos) / 2 — Elasticsearch's score for a cosine
 * dense_vector — or null when no query vector was used or the embedder does not cover the chunk (ChunkRecord.covered).
 * `bm25` is the raw BM25 score (0 when no query term matches), or null when it is not known (Elasticsearch RRF does
 * not report it). `score` is what the hits are ranked by:
 * bm25 in `bm25` mode, knn in `vector` mode, the fused score in `hybrid` mode.
 */
export interface StoreHit extends ChunkMeta {
  score: number;
  bm25: number | null;
  knn: number | null;
}

export interface KnowledgeStore {
  /** 'embedded' | 'elasticsearch' */
  readonly kind: string;
  /** For /api/health: which implementation, never a path or a host (e.g. "elasticsearch (kNN + BM25 rrf)"). */
  describe(): string;
  /** Where it keeps its data (a folder, a cluster's host), shown to admins only. */
  location(): string;
  /**
   * Creates the KB's index if missing (idempotent). An existing index with another dimension →
   * KNOWLEDGE_INDEX_MISMATCH.
   */
  ensureIndex(spec: IndexSpec): Promise<void>;
  /** Removes the KB's index and every chunk in it (no error when missing). */
  dropIndex(kbId: string): Promise<void>;
  /** Adds or replaces chunks (by id). Searchable when the promise resolves. */
  upsertChunks(kbId: string, chunks: ChunkRecord[]): Promise<void>;
  /** Removes every chunk of a document; resolves to how many were removed. */
  deleteDocument(kbId: string, documentId: string): Promise<number>;
  /** How many chunks the KB (or one of its documents) holds. */
  count(kbId: string, documentId?: string): Promise<number>;
  /**
   * Every chunk of one document as stored, in chunk order, with its vector (unit length; none on an uncovered chunk):
   * what an export of the knowledge base carries.
   */
  listChunks(kbId: string, documentId: string): Promise<ChunkRecord[]>;
  search(q: StoreQuery): Promise<StoreHit[]>;
  /** How many chunks of the KB were stored with `covered: false`; absent where the store does not keep it. */
  uncoveredCount?(kbId: string): Promise<number>;
  close(): Promise<void>;
}

/** Embeds text. Implementations batch internally; the vectors come back in input order. */
export interface Embedder {
  /** The model id recorded on a knowledge base, e.g. "use-lite" or "openai:text-embedding-3-small". */
  readonly model: string;
  /** Human-readable, for health and the UI. */
  readonly label: string;
  /** The vector length (may need one call to the model the first time). */
  dimension(): Promise<number>;
  embed(texts: string[], opts?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  /**
   * The share (0..1) of the text's letters and digits the model can read (for a subword model: those not mapped to
   * its unknown token). Below MIN_COVERAGE (embedders/coverage.ts) the vector says nothing about the text and kNN
   * leaves it out. Absent: the model reads every language (a remote multilingual model, as far as we can know).
   */
  coverage?(text: string): number;
  /** What the model covers, in words, for the knowledge base page (with coverage()), e.g. "English …". */
  readonly covers?: string;
}

/** One search answer as the API, the knowledge node and the agent tool return it. */
export interface KnowledgeHit {
  /** "[1]", "[2]", … in rank order; the same numbers formatContext() prints. */
  citation: string;
  documentId: string;
  title: string;
  chunkIndex: number;
  page: number | null;
  start: number;
  end: number;
  /** Markdown: the chunk's heading path (ChunkMeta.headingPath); absent for other formats. */
  headingPath?: string[];
  /** What the hit gives to read: the chunk, or its parent section (parent–child), or its answer (Q&A). */
  text: string;
  /** parent–child: the small chunk that matched, inside `text`. */
  matched?: string;
  /** Q&A: the question that matched; `text` is its answer. */
  question?: string;
  /** The rank's score: the rerank model's when the search was reranked, else the retrieval's (see StoreHit). */
  score: number;
  bm25: number | null;
  knn: number | null;
  /** Reranked searches: the rerank model's relevance score (the same as `score`)… */
  rerank?: number;
  /** …and the retrieval's score it replaced. */
  retrievalScore?: number;
}

export interface KnowledgeSearchRequest {
  query: string;
  topK?: number;
  /** Hits whose `score` is below this are dropped (the scale depends on the mode; see StoreHit). */
  threshold?: number;
  mode?: SearchMode;
  documentIds?: string[];
  /** Only documents whose metadata matches (metadata.ts). */
  filter?: MetadataFilter;
  /** Rerank the candidates with a rerank model through a credential of the workspace (rerank.ts). */
  rerank?: { credentialId: string; model: string; topN?: number };
}

export interface KnowledgeSearchResult {
  query: string;
  mode: SearchMode;
  hits: KnowledgeHit[];
  /**
   * Set when the answer is not what the mode alone suggests: EMBEDDER_DOES_NOT_COVER_QUERY — the knowledge base's
   * embedder cannot read the query's language, so no vector was used (hybrid ranked by BM25 alone, every knn null;
   * vector mode answers no hits rather than noise).
   */
  notice?: { code: string; message: string };
  /** Set when the hits were reranked: the model and how many candidates it scored. */
  reranked?: { model: string; candidates: number };
}

/**
 * What nodes (ctx.knowledge) and the agent's knowledge_search tool may call. `runId`: the run that searches; only
 * knowledge bases of its workspace are found.
 */
export interface KnowledgeService {
  search(
    knowledgeBaseId: string,
    req: KnowledgeSearchRequest,
    opts?: { signal?: AbortSignal; runId?: string },
  ): Promise<KnowledgeSearchResult>;
}
