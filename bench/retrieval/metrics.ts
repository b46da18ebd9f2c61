/**
 * Ranking metrics of the retrieval bench, over documents: a search answers chunks, and a section (one document) is
 * found at the rank where its first chunk appears among the distinct documents of the answer. Each query has a set
 * of relevant documents (a heading's section and the sections under it); binary relevance.
 */
export interface Scores {
  hitAt1: number;
  hitAt5: number;
  mrr: number;
  ndcgAt10: number;
}

/** Distinct document ids in the order their first chunk appears. */
export function documentRanking(hits: Array<{ documentId: string }>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const h of hits)
    if (!seen.has(h.documentId)) {
      seen.add(h.documentId);
      out.push(h.documentId);
    }
  return out;
}

/** The scores of one ranked answer against its relevant set. */
export function scoreRanking(ranking: string[], relevant: ReadonlySet<string>): Scores {
  const first = ranking.findIndex((d) => relevant.has(d));
  let dcg = 0;
  ranking.slice(0, 10).forEach((d, i) => {
    if (relevant.has(d)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return {
    hitAt1: first === 0 ? 1 : 0,
    hitAt5: first >= 0 && first < 5 ? 1 : 0,
    mrr: first >= 0 ? 1 / (first + 1) : 0,
    ndcgAt10: ideal > 0 ? dcg / ideal : 0,
  };
}

export function mean(all: Scores[]): Scores {
  const n = all.length || 1;
  const sum = (k: keyof Scores) => all.reduce((a, s) => a + s[k], 0) / n;
  return { hitAt1: sum('hitAt1'), hitAt5: sum('hitAt5'), mrr: sum('mrr'), ndcgAt10: sum('ndcgAt10') };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
