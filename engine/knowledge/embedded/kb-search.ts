/**
 * Search over one knowledge base's in-memory index (kb-index.ts keeps it): BM25, cosine kNN, and their fusion
 * (rescore or RRF, see FusionOptions). Chunks the embedder does not cover (stored with `covered: false`) have no
 * meaningful vector: kNN never returns them, in hybrid search they compete on their BM25 score alone, and their hits
 * say knn: null — a Chinese chunk's USE-lite vector must not lift or sink it.
 */
import { PaiError } from '../../errors';
import type { ChunkMeta, FusionOptions, StoreHit, StoreQuery } from '../types';
import type { FieldedBm25 } from './fielded-bm25';
import { fuseWeighted } from '../fusion';
import { PROXIMITY_WINDOW, withProximity } from '../proximity';
import { TopK } from './top-k';
import { BinaryCodes, dot, EXACT_LIMIT, knnSearch } from './vector-search';

/** A chunk as kept in memory and on disk; `uncovered` only when the embedder does not cover it. */
export type StoredChunk = ChunkMeta & { uncovered?: true };

/** What a search reads of the index: slot-indexed arrays, valid until the next write. */
export interface IndexView {
  dimension: number;
  /** Slots in use (live or removed). */
  rows: number;
  liveCount: number;
  /** How many live chunks are not covered by the embedder. */
  uncovered: number;
  chunks: ReadonlyArray<StoredChunk | undefined>;
  /** 1 = the slot holds a live chunk. */
  alive: Uint8Array;
  /** 1 = the slot holds a live chunk whose vector takes part in kNN (alive and covered). */
  knnAlive: Uint8Array;
  /** Unit vectors, `dimension` floats per slot. */
  vectors: Float32Array;
  docSlots: ReadonlyMap<string, Set<number>>;
  bm25: FieldedBm25;
  codes: BinaryCodes;
}

export function normalise(v: ArrayLike<number>, dim: number): Float32Array {
  const out = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    const x = Number(v[i]);
    out[i] = x;
    n += x * x;
  }
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < dim; i++) out[i] /= n;
  return out;
}

/** kNN (exact up to `limit` rows, else binary-code prefilter + exact re-rank); knnScore = (1 + cos) / 2. */
function knn(
  ix: IndexView,
  q: Float32Array,
  k: number,
  filter: ((slot: number) => boolean) | undefined,
  only: number[] | undefined,
  limit: number,
): Array<{ slot: number; score: number }> {
  return knnSearch({
    q,
    vectors: ix.vectors,
    rows: ix.rows,
    k,
    alive: ix.knnAlive,
    filter,
    only: only?.filter((s) => ix.knnAlive[s] === 1),
    codes: ix.codes,
    exactLimit: ix.liveCount > limit ? limit : Infinity,
  }).map(({ slot, cos }) => ({ slot, score: (1 + cos) / 2 }));
}

function hit(ix: IndexView, slot: number, score: number, bm25: number | null, knnScore: number | null): StoreHit {
  const c = ix.chunks[slot]!;
  return {
    id: c.id,
    documentId: c.documentId,
    title: c.title,
    chunkIndex: c.chunkIndex,
    start: c.start,
    end: c.end,
    page: c.page,
    ...(c.headingPath ? { headingPath: c.headingPath } : {}),
    ...(c.context ? { context: c.context } : {}),
    text: c.text,
    score,
    bm25,
    knn: knnScore,
  };
}

/** The `n` best of a list by score, best first (ties: lower key first). */
function topOf(list: Array<{ key: number; score: number }>, n: number): Array<{ key: number; score: number }> {
  if (list.length <= n) return [...list].sort((a, b) => b.score - a.score || a.key - b.key);
  const top = new TopK(n);
  for (const h of list) top.push(h.score, h.key);
  return top.sorted().map((h) => ({ key: h.slot, score: h.score }));
}

function queryVector(ix: IndexView, q: StoreQuery): Float32Array {
  if (!q.vector) throw new PaiError('QUERY_VECTOR_REQUIRED', `${q.mode} search needs a query vector`);
  if (q.vector.length !== ix.dimension) {
    throw new PaiError(
      'EMBEDDING_DIMENSION_MISMATCH',
      `the query vector is ${q.vector.length}-d; this knowledge base's index is ${ix.dimension}-d`,
    );
  }
  return normalise(q.vector, ix.dimension);
}

/** `exactLimit`: candidate rows up to which kNN scans exactly (KNOWLEDGE_EXACT_KNN_LIMIT, the store's). */
export function searchIndex(
  ix: IndexView,
  q: StoreQuery,
  fusionDefaults: FusionOptions,
  exactLimit: number = EXACT_LIMIT,
): StoreHit[] {
  const topK = Math.max(0, Math.floor(q.topK));
  if (topK === 0 || ix.liveCount === 0) return [];
  const fusion = { ...fusionDefaults, ...q.fusion };
  const { alive, knnAlive } = ix;
  const only = q.documentIds ? new Set(q.documentIds) : null;
  const filter = only ? (s: number) => only.has(ix.chunks[s]!.documentId) : undefined;
  const accept = filter ? (s: number) => alive[s] === 1 && filter(s) : (s: number) => alive[s] === 1;
  // A document filter usually leaves few rows: scan exactly those.
  let onlySlots: number[] | undefined;
  if (only) {
    onlySlots = [];
    for (const d of only) for (const s of ix.docSlots.get(d) ?? []) onlySlots.push(s);
    if (onlySlots.length > exactLimit) onlySlots = undefined;
  }
  const qv = q.mode === 'bm25' ? undefined : queryVector(ix, q);

  if (qv && q.mode === 'vector')
    return knn(ix, qv, topK, filter, onlySlots, exactLimit).map((h) => hit(ix, h.slot, h.score, null, h.score));

  const bm = ix.bm25.score(q.text, accept);
  try {
    const chunkText = (s: number) => `${ix.chunks[s]!.title}\n${ix.chunks[s]!.text}`;
    if (!qv) {
      const matches: Array<{ key: number; score: number }> = [];
      for (let i = 0; i < bm.count; i++) matches.push({ key: bm.slotAt(i), score: bm.scoreOf(bm.slotAt(i)) });
      return topOf(withProximity(q.text, topOf(matches, Math.max(topK, PROXIMITY_WINDOW)), chunkText), topK).map((h) =>
        hit(ix, h.key, h.score, bm.scoreOf(h.key), null),
      );
    }
    const window = topK * fusion.numCandidatesFactor;
    const near = knn(ix, qv, window, filter, onlySlots, exactLimit);
    if (fusion.method === 'weighted') {
      const matches: Array<{ key: number; score: number }> = [];
      for (let i = 0; i < bm.count; i++) {
        const s = bm.slotAt(i);
        matches.push({ key: s, score: bm.scoreOf(s) });
      }
      const fused = fuseWeighted({
        bm25: withProximity(q.text, topOf(matches, window), chunkText),
        knn: near.map((h) => ({ key: h.slot, score: h.score })),
        uncovered: (s) => !knnAlive[s],
        vectorWeight: fusion.vectorWeight,
        size: topK,
      });
      // The exact kNN score of a covered hit outside the window is still known here: report it.
      return fused.map((h) =>
        hit(
          ix,
          h.key,
          h.score,
          bm.scoreOf(h.key),
          knnAlive[h.key] ? (h.knn ?? (1 + dot(qv, ix.vectors, h.key * ix.dimension)) / 2) : null,
        ),
      );
    }
    if (fusion.method === 'rescore') {
      const top = new TopK(topK);
      const byslot = new Map<number, number>();
      for (const h of near) {
        byslot.set(h.slot, h.score);
        top.push(fusion.knnWeight * h.score + fusion.bm25Weight * bm.scoreOf(h.slot), h.slot);
      }
      // Chunks kNN leaves out (not covered by the embedder) are candidates by their BM25 match alone.
      if (ix.uncovered > 0)
        for (let i = 0; i < bm.count; i++) {
          const s = bm.slotAt(i);
          if (!knnAlive[s]) top.push(fusion.bm25Weight * bm.scoreOf(s), s);
        }
      return top.sorted().map((h) => hit(ix, h.slot, h.score, bm.scoreOf(h.slot), byslot.get(h.slot) ?? null));
    }
    // RRF over the top `window` of each list.
    const bmTop = new TopK(window);
    for (let i = 0; i < bm.count; i++) {
      const s = bm.slotAt(i);
      bmTop.push(bm.scoreOf(s), s);
    }
    const fused = new Map<number, number>();
    const add = (list: Array<{ slot: number }>) =>
      list.forEach((h, rank) => fused.set(h.slot, (fused.get(h.slot) ?? 0) + 1 / (fusion.rankConstant + rank + 1)));
    add(bmTop.sorted());
    add(near);
    const top = new TopK(topK);
    for (const [s, score] of fused) top.push(score, s);
    return top
      .sorted()
      .map((h) =>
        hit(
          ix,
          h.slot,
          h.score,
          bm.scoreOf(h.slot),
          knnAlive[h.slot] ? (1 + dot(qv, ix.vectors, h.slot * ix.dimension)) / 2 : null,
        ),
      );
  } finally {
    bm.release();
  }
}
