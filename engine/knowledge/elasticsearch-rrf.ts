/**
 * Reciprocal rank fusion where the cluster's licence has it, and in the app where it does not.
 *
 * Elasticsearch's `rrf` retriever needs an Enterprise (or trial) licence from 8.14 through 9.x; a default
 * self-managed cluster runs Basic and answers the retriever with 403 "current license is non-compliant". So when
 * KNOWLEDGE_FUSION=rrf the store reads `GET /_license` once and picks a path:
 * - `rrf-server`: an active enterprise/trial licence — the `rrf` retriever (one search);
 * - `rrf-client`: anything else (basic, gold, platinum, expired, or a key that may not read the licence) — one
 *   `_msearch` with the BM25 search and the kNN search, fused here with the same formula and constants the retriever
 *   uses: score = Σ over the lists 1 / (rank_constant + rank), rank counted from 1, each list cut to
 *   rank_window_size (= topK × numCandidatesFactor), rank_constant = FusionOptions.rankConstant (60, ES's default).
 * Both paths give each document the same fused score (ties may order differently); client-side also keeps each
 * hit's bm25 and knn score.
 */
import type { estypes } from '@elastic/elasticsearch';
import { PaiError } from '../errors';
import { bm25Clause, filterFor, knnClause, MAX_WINDOW, SOURCE_FIELDS } from './elasticsearch-requests';
import type { FusionOptions, StoreQuery } from './types';

/** Which path hybrid retrieval takes; reported in /api/health and with each knowledge base answer. */
export type FusionPath = 'weighted' | 'rescore' | 'rrf-server' | 'rrf-client';

/** Licence types that include RRF (Elasticsearch's licensing matrix, 8.14–9.x). */
const RRF_LICENCES = new Set(['enterprise', 'trial']);

/** Whether a `GET /_license` answer allows the server-side `rrf` retriever. */
export function licenceAllowsRrf(licence: { type?: string; status?: string } | undefined): boolean {
  return !!licence && RRF_LICENCES.has(String(licence.type).toLowerCase()) && licence.status === 'active';
}

/**
 * The two searches of client-side fusion (RRF without the licence, and `weighted`), in `_msearch` order: BM25 first,
 * kNN second.
 */
export function clientRrfSearches(index: string, q: StoreQuery, fusion: FusionOptions): estypes.MsearchRequestItem[] {
  const topK = Math.min(MAX_WINDOW, Math.max(1, Math.floor(q.topK)));
  const window = Math.min(MAX_WINDOW, topK * fusion.numCandidatesFactor);
  const filter = filterFor(q.kbId, q.documentIds);
  const vector = Array.from(q.vector ?? [], Number);
  const source = [...SOURCE_FIELDS];
  return [
    { index },
    {
      size: window,
      _source: source,
      track_total_hits: false,
      query: { bool: { must: [bm25Clause(q.text)], filter } },
    },
    { index },
    {
      size: window,
      _source: source,
      track_total_hits: false,
      knn: knnClause(vector, window, window, filter),
    },
  ];
}

export interface FusedHit<S> {
  id: string;
  source: S;
  score: number;
  bm25: number | null;
  knn: number | null;
}

/** Reciprocal rank fusion of the BM25 and kNN hit lists (best first), top `size` returned. */
export function fuseRrf<S>(
  bm25: Array<estypes.SearchHit<S>>,
  knn: Array<estypes.SearchHit<S>>,
  rankConstant: number,
  size: number,
): Array<FusedHit<S>> {
  const fused = new Map<string, FusedHit<S>>();
  const add = (hits: Array<estypes.SearchHit<S>>, part: 'bm25' | 'knn') =>
    hits.forEach((h, i) => {
      const id = String(h._id);
      const cur = fused.get(id) ?? { id, source: h._source as S, score: 0, bm25: null, knn: null };
      cur.score += 1 / (rankConstant + i + 1);
      cur[part] = h._score ?? 0;
      fused.set(id, cur);
    });
  add(bm25, 'bm25');
  add(knn, 'knn');
  // Equal fused scores keep a stable order by id, so both paths and reruns agree.
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, size);
}

/** An `_msearch` item that failed, as the error the single search would have thrown. */
export function msearchItemError(item: unknown, what: string): PaiError | null {
  const err = (item as { error?: { type?: string; reason?: string }; status?: number })?.error;
  if (!err) return null;
  const status = (item as { status?: number }).status ?? 500;
  if (status === 404) return new PaiError('KNOWLEDGE_INDEX_NOT_FOUND', `${what}: no index; create it first`);
  return new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch ${what} failed (${status}): ${err.type}: ${err.reason}`, {
    retryable: status >= 500 || status === 429,
  });
}
