/**
 * Cosine kNN over unit vectors stored row by row in one Float32Array.
 *
 * Up to `exactLimit` candidate rows (KNOWLEDGE_EXACT_KNN_LIMIT, which the store is given) the scan is exact (a dot
 * product per row). Beyond that, plain JS does about half a GFLOP/s, so a full 512-d scan of 100k rows costs ~100 ms;
 * instead each row also gets a 1-bit-per-dimension code (the sign of the row minus the mean vector, the idea behind
 * binary quantization in Lucene/Elasticsearch BBQ), the Hamming distance to the query's code picks
 * `max(2000, 10·k)` candidates, and only those are scored exactly. On the bench's structured vectors the recall@5
 * against the exact scan and the latency are printed by bench/knowledge.bench.ts. Codes are built lazily, on the
 * first approximate query, and rebuilt when the index has doubled since the mean was taken.
 */
import { DEFAULT_KNOWLEDGE_EXACT_KNN_LIMIT } from '../../config/settings';
import { TopK } from './top-k';

/**
 * The default of KNOWLEDGE_EXACT_KNN_LIMIT (bench/knowledge.bench.ts reads it); the limit in force is the embedded
 * store's `exactKnnLimit`, which the app gives it from its settings.
 */
export const EXACT_LIMIT = DEFAULT_KNOWLEDGE_EXACT_KNN_LIMIT;

/** Rows re-ranked exactly after the binary-code prefilter: max(CANDIDATES_MIN, 10 × k). */
const CANDIDATES_MIN = 2000;

const POPCOUNT16 = (() => {
  const t = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) t[i] = t[i >> 1] + (i & 1);
  return t;
})();

export function dot(q: Float32Array, v: Float32Array, o: number): number {
  const dim = q.length;
  let a0 = 0,
    a1 = 0,
    a2 = 0,
    a3 = 0;
  let j = 0;
  for (; j + 3 < dim; j += 4) {
    a0 += q[j] * v[o + j];
    a1 += q[j + 1] * v[o + j + 1];
    a2 += q[j + 2] * v[o + j + 2];
    a3 += q[j + 3] * v[o + j + 3];
  }
  for (; j < dim; j++) a0 += q[j] * v[o + j];
  return a0 + a1 + a2 + a3;
}

export class BinaryCodes {
  private codes = new Uint32Array(0);
  private mean: Float32Array | null = null;
  private coded = 0;
  private meanAt = 0;
  private ham = new Uint16Array(0);
  private readonly words: number;

  constructor(private readonly dim: number) {
    this.words = Math.ceil(dim / 32);
  }

  /** Forget everything (after compaction renumbers rows). */
  reset() {
    this.codes = new Uint32Array(0);
    this.mean = null;
    this.coded = 0;
    this.meanAt = 0;
  }

  private encode(v: Float32Array, o: number, out: Uint32Array, at: number) {
    const mean = this.mean!;
    for (let w = 0; w < this.words; w++) {
      let x = 0;
      const base = w * 32;
      const end = Math.min(32, this.dim - base);
      for (let b = 0; b < end; b++) if (v[o + base + b] > mean[base + b]) x |= 1 << b;
      out[at + w] = x >>> 0;
    }
  }

  /** Brings codes up to `rows` (rebuilding all when the mean is stale). */
  ensure(vectors: Float32Array, rows: number, alive: Uint8Array) {
    if (!this.mean || rows > 2 * this.meanAt) {
      const mean = new Float64Array(this.dim);
      let n = 0;
      for (let s = 0; s < rows; s++) {
        if (!alive[s]) continue;
        n++;
        const o = s * this.dim;
        for (let i = 0; i < this.dim; i++) mean[i] += vectors[o + i];
      }
      this.mean = Float32Array.from(mean, (x) => x / Math.max(1, n));
      this.meanAt = rows;
      this.coded = 0;
    }
    if (this.codes.length < rows * this.words) {
      const c = new Uint32Array(Math.max(rows, 1024) * this.words * (rows > this.coded ? 2 : 1));
      c.set(this.codes.subarray(0, this.coded * this.words));
      this.codes = c;
    }
    for (let s = this.coded; s < rows; s++) this.encode(vectors, s * this.dim, this.codes, s * this.words);
    this.coded = rows;
  }

  /** Rows (accepted by `accept`) with the `r` smallest Hamming distances to q (ties at the cut-off included). */
  candidates(q: Float32Array, rows: number, r: number, alive: Uint8Array, filter?: (s: number) => boolean): number[] {
    const qc = new Uint32Array(this.words);
    this.encode(q, 0, qc, 0);
    if (this.ham.length < rows) this.ham = new Uint16Array(Math.max(rows, 1024) * 2);
    const ham = this.ham;
    const hist = new Uint32Array(this.dim + 2);
    const codes = this.codes;
    const W = this.words;
    const SKIP = this.dim + 1;
    for (let s = 0; s < rows; s++) {
      if (!alive[s] || (filter && !filter(s))) {
        ham[s] = SKIP;
        continue;
      }
      let h = 0;
      const o = s * W;
      for (let w = 0; w < W; w++) {
        const x = (codes[o + w] ^ qc[w]) >>> 0;
        h += POPCOUNT16[x & 0xffff] + POPCOUNT16[x >>> 16];
      }
      ham[s] = h;
      hist[h]++;
    }
    let cut = 0;
    for (let acc = 0; cut <= this.dim; cut++) {
      acc += hist[cut];
      if (acc >= r) break;
    }
    const out: number[] = [];
    for (let s = 0; s < rows; s++) if (ham[s] <= cut) out.push(s);
    return out;
  }
}

/**
 * Top-k rows by cosine. `count` = rows that pass `accept` (to choose exact vs approximate); `only` lists the candidate
 * rows when a filter already narrowed them down (then the scan is over those rows only).
 */
export function knnSearch(args: {
  q: Float32Array;
  vectors: Float32Array;
  rows: number;
  k: number;
  alive: Uint8Array;
  /** Extra row filter (document filter); rows must also be alive. */
  filter?: (s: number) => boolean;
  only?: number[];
  codes: BinaryCodes;
  exactLimit?: number;
}): Array<{ slot: number; cos: number }> {
  const { q, vectors, rows, k, alive, filter } = args;
  const dim = q.length;
  const top = new TopK(k);
  let scan: number[] | null = args.only ?? null;
  const limit = args.exactLimit ?? EXACT_LIMIT;
  if (!scan && rows > limit) {
    args.codes.ensure(vectors, rows, args.alive);
    scan = args.codes.candidates(q, rows, Math.max(CANDIDATES_MIN, 10 * k), alive, filter);
  }
  if (scan) {
    for (const s of scan) top.push(dot(q, vectors, s * dim), s);
  } else {
    for (let s = 0; s < rows; s++) if (alive[s] && (!filter || filter(s))) top.push(dot(q, vectors, s * dim), s);
  }
  return top.sorted().map(({ slot, score }) => ({ slot, cos: score }));
}
