/**
 * Weighted hybrid fusion, the default (FusionOptions.method `weighted`), shared by both stores so they rank alike:
 * the embedded index calls it over its own BM25 and kNN lists, Elasticsearch over the two lists of one `_msearch`.
 *
 * Each side is first put on one scale, 0..1, within the query: BM25 divided by the best BM25 score of the candidates
 * (BM25 has no upper bound, and its range differs from query to query), kNN min–max over the kNN window (cosine
 * scores of one model crowd into a narrow band, 0.55–0.75 for USE-lite, so only their spread says anything). Then
 *   score = (1 − w) · bm25′ + w · knn′,   w = vectorWeight,
 * with these rules, so that a side without a signal never pulls the other's ranking down:
 * - no vector (the embedder does not read the query, or bm25 mode) or no kNN candidate: w = 0 — BM25's order;
 * - no BM25 match at all: w = 1 — kNN's order;
 * - a chunk the embedder does not read (`covered: false`) has no kNN score: it is scored on BM25 alone
 *   (knn′ := bm25′), neither lifted nor sunk by a vector that says nothing;
 * - a chunk outside the kNN window (further than every kNN candidate) gets knn′ = 0, as its cosine is at most the
 *   window's lowest.
 * Candidates are the union of both lists (a keyword-only match can be returned even when its vector is far). Ties
 * keep the order of the key so both stores and reruns agree.
 */

export interface FusionInput<K> {
  /** BM25 matches, any order: key and raw score (> 0). */
  bm25: ReadonlyArray<{ key: K; score: number }>;
  /** kNN window, any order: key and (1 + cos) / 2. Empty when no vector was used. */
  knn: ReadonlyArray<{ key: K; score: number }>;
  /** Keys of chunks the embedder does not read (scored on BM25 alone). */
  uncovered?: (key: K) => boolean;
  vectorWeight: number;
  size: number;
}

export interface FusedHit<K> {
  key: K;
  score: number;
  /** Raw BM25 (0: no match). */
  bm25: number;
  /** Raw kNN score, or null when the chunk was not in the kNN window or is not covered. */
  knn: number | null;
}

const compareKeys = <K>(a: K, b: K) => (a < b ? -1 : a > b ? 1 : 0);

export function fuseWeighted<K extends string | number>(input: FusionInput<K>): FusedHit<K>[] {
  const { bm25, knn, uncovered } = input;
  const size = Math.max(0, Math.floor(input.size));
  let maxB = 0;
  for (const h of bm25) if (h.score > maxB) maxB = h.score;
  let maxK = -Infinity;
  let minK = Infinity;
  for (const h of knn) {
    if (h.score > maxK) maxK = h.score;
    if (h.score < minK) minK = h.score;
  }
  const clamp = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
  let w = clamp(Number.isFinite(input.vectorWeight) ? input.vectorWeight : 0);
  if (!knn.length) w = 0;
  else if (maxB <= 0) w = 1;
  const spread = maxK - minK;
  const byKey = new Map<K, FusedHit<K>>();
  for (const h of bm25) byKey.set(h.key, { key: h.key, score: 0, bm25: h.score, knn: null });
  if (w > 0)
    for (const h of knn) {
      const cur = byKey.get(h.key);
      if (cur) cur.knn = h.score;
      else byKey.set(h.key, { key: h.key, score: 0, bm25: 0, knn: h.score });
    }
  for (const hit of byKey.values()) {
    const b = maxB > 0 ? hit.bm25 / maxB : 0;
    let k: number;
    if (uncovered?.(hit.key)) {
      k = b;
      hit.knn = null;
    } else if (hit.knn === null) k = 0;
    else k = spread > 0 ? (hit.knn - minK) / spread : 1;
    hit.score = (1 - w) * b + w * k;
  }
  return [...byKey.values()]
    .filter((h) => h.score > 0 || w === 1)
    .sort((a, b) => b.score - a.score || compareKeys(a.key, b.key))
    .slice(0, size);
}
