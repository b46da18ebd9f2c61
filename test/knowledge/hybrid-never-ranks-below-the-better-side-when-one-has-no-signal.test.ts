// Guarantee: weighted hybrid fusion (fusion.ts, both stores) never lets a side without a signal reorder the other's
// ranking — no vector or no kNN candidate: BM25's order; no BM25 match: kNN's order; a chunk the embedder cannot read
// competes on BM25 alone; a keyword-only match outside the kNN window still comes back — and a knowledge base's
// vectorWeight moves between the two.
import { describe, expect, it } from 'vitest';
import { fuseWeighted } from '@/engine/knowledge/fusion';

const keys = (hits: Array<{ key: string }>) => hits.map((h) => h.key);
const BM25 = [
  { key: 'a', score: 9 },
  { key: 'b', score: 6 },
  { key: 'c', score: 3 },
];
const KNN = [
  { key: 'c', score: 0.8 },
  { key: 'b', score: 0.7 },
  { key: 'd', score: 0.6 },
];

describe('weighted hybrid fusion', () => {
  it('ranks by BM25 alone when no vector was used', () => {
    expect(keys(fuseWeighted({ bm25: BM25, knn: [], vectorWeight: 0.3, size: 5 }))).toEqual(['a', 'b', 'c']);
  });

  it('ranks by kNN alone when no chunk matched a keyword', () => {
    const hits = fuseWeighted({ bm25: [], knn: KNN, vectorWeight: 0.3, size: 5 });
    expect(keys(hits)).toEqual(['c', 'b', 'd']);
    expect(hits.every((h) => h.bm25 === 0 && h.knn !== null)).toBe(true);
  });

  it('scores a chunk the embedder cannot read on BM25 alone, so its vector neither lifts nor sinks it', () => {
    // "a" is uncovered and has the best BM25: no vector, however close, puts a covered chunk above it.
    const hits = fuseWeighted({
      bm25: BM25,
      knn: [{ key: 'a', score: 0.55 }, ...KNN],
      uncovered: (k) => k === 'a',
      vectorWeight: 0.3,
      size: 5,
    });
    expect(hits[0]).toMatchObject({ key: 'a', score: 1, knn: null });
    // When every chunk is uncovered (a Chinese corpus with the offline model), the order is BM25's.
    const all = fuseWeighted({ bm25: BM25, knn: KNN, uncovered: () => true, vectorWeight: 0.9, size: 5 });
    expect(keys(all)).toEqual(['a', 'b', 'c']);
  });

  it('returns a keyword-only match that lies outside the kNN window', () => {
    const hits = fuseWeighted({ bm25: BM25, knn: KNN, vectorWeight: 0.3, size: 5 });
    expect(keys(hits)).toContain('a');
    expect(hits.find((h) => h.key === 'a')!.knn).toBeNull();
  });

  it('puts both sides on one scale: (1 − w) · bm25 / best + w · (knn − lowest) / spread', () => {
    const hits = fuseWeighted({ bm25: BM25, knn: KNN, vectorWeight: 0.3, size: 5 });
    const by = new Map(hits.map((h) => [h.key, h.score]));
    expect(by.get('a')).toBeCloseTo(0.7 * 1 + 0.3 * 0, 9);
    expect(by.get('b')).toBeCloseTo(0.7 * (6 / 9) + 0.3 * 0.5, 9);
    expect(by.get('c')).toBeCloseTo(0.7 * (3 / 9) + 0.3 * 1, 9);
    // The farthest of the kNN window with no keyword has nothing on either scale: not returned.
    expect(by.has('d')).toBe(false);
  });

  it('follows vectorWeight: 0 is BM25 order, 1 is kNN order', () => {
    expect(keys(fuseWeighted({ bm25: BM25, knn: KNN, vectorWeight: 0, size: 3 }))).toEqual(['a', 'b', 'c']);
    expect(keys(fuseWeighted({ bm25: BM25, knn: KNN, vectorWeight: 1, size: 2 }))).toEqual(['c', 'b']);
  });
});
