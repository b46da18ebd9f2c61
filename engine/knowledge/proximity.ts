/**
 * The proximity boost of keyword search, shared by both stores: among the best BM25 matches, a chunk in which the
 * query's words stand next to each other as they do in the query (a heading, a name, a phrase: "route prefixing",
 * "上传 文件") is about the query more surely than one where they are scattered. Each BM25 score in the window gains
 *   PROXIMITY_BOOST × (the best BM25 score of the window) × (share of the query's adjacent term pairs that occur in
 *   the chunk in that order, at most PROXIMITY_GAP terms apart),
 * computed on the chunk's title and text with the embedded analyzer, in the app — so the embedded index and
 * Elasticsearch (whose BM25 list is fused in the app) boost alike. A one-term query is left as it is.
 */
import { analyze } from './analyzer';

/** Measured on the retrieval bench (docs/knowledge.md). */
export const PROXIMITY_BOOST = 0.15;
/** How far apart (in terms, stop words already gone) two query terms may stand and still count as adjacent. */
export const PROXIMITY_GAP = 2;
/** How many of the best BM25 matches are looked at (their text is analysed again per query). */
export const PROXIMITY_WINDOW = 50;

/**
 * A chunk's terms by its text, for the most recently boosted chunks: segmenting Chinese again for every query costs
 * ~1 ms per chunk, and the same chunks come back for related queries.
 */
const TERMS_CACHE_MAX = 4096;
const termsCache = new Map<string, string[]>();

function termsOf(text: string): string[] {
  let t = termsCache.get(text);
  if (t) {
    termsCache.delete(text);
    termsCache.set(text, t);
    return t;
  }
  t = analyze(text);
  termsCache.set(text, t);
  if (termsCache.size > TERMS_CACHE_MAX) termsCache.delete(termsCache.keys().next().value!);
  return t;
}

/** Share (0..1) of the adjacent pairs of `query` found in `doc` in order, at most `gap` positions apart. */
export function adjacentPairShare(query: readonly string[], doc: readonly string[], gap = PROXIMITY_GAP): number {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < query.length; i++) if (query[i] !== query[i + 1]) pairs.push([query[i], query[i + 1]]);
  if (!pairs.length) return 0;
  const where = new Map<string, number[]>();
  doc.forEach((t, i) => {
    let l = where.get(t);
    if (!l) where.set(t, (l = []));
    l.push(i);
  });
  let found = 0;
  for (const [a, b] of pairs) {
    const pa = where.get(a);
    const pb = where.get(b);
    if (!pa || !pb) continue;
    if (pa.some((i) => pb.some((j) => j > i && j - i <= gap))) found++;
  }
  return found / pairs.length;
}

/**
 * BM25 matches with the proximity boost: the `window` best get it, the rest keep their score. `text(key)` is the
 * indexed text of a chunk (title and text).
 */
export function withProximity<K>(
  query: string,
  matches: Array<{ key: K; score: number }>,
  text: (key: K) => string,
  boost = PROXIMITY_BOOST,
  window = PROXIMITY_WINDOW,
): Array<{ key: K; score: number }> {
  const q = analyze(query);
  if (boost <= 0 || q.length < 2 || !matches.length) return matches;
  const sorted = [...matches].sort((a, b) => b.score - a.score);
  const best = sorted[0].score;
  return sorted.map((m, i) =>
    i < window ? { key: m.key, score: m.score + boost * best * adjacentPairShare(q, termsOf(text(m.key))) } : m,
  );
}
