/**
 * An in-memory inverted index with Okapi BM25 scoring as Lucene ≥ 8 / Elasticsearch compute it:
 *   idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)),
 *   score(d) = Σ_t qtf(t) · idf(t) · tf / (tf + k1 · (1 − b + b · |d| / avgdl)),  k1 = 1.2, b = 0.75.
 * Documents are slots (dense integers). Postings are growable typed arrays; a removed slot stays in the postings until
 * the owner compacts, but N, df and avgdl are updated at once so scores equal a fresh index's.
 */
import { analyze } from '../analyzer';

class Postings {
  slots = new Int32Array(4);
  tfs = new Int32Array(4);
  n = 0;
  df = 0;

  add(slot: number, tf: number) {
    if (this.n === this.slots.length) {
      const cap = this.n * 2;
      const s = new Int32Array(cap);
      s.set(this.slots);
      this.slots = s;
      const t = new Int32Array(cap);
      t.set(this.tfs);
      this.tfs = t;
    }
    this.slots[this.n] = slot;
    this.tfs[this.n] = tf;
    this.n++;
    this.df++;
  }
}

export interface Bm25Params {
  k1: number;
  b: number;
}

export class Bm25Index {
  private termIds = new Map<string, number>();
  private postings: Postings[] = [];
  /** Per slot: its distinct terms (to update df on removal); undefined = no document. */
  private docTerms: Array<Int32Array | undefined> = [];
  private docLen = new Int32Array(1024);
  private live = 0;
  private totalLen = 0;
  /** Reused score accumulator (one float per slot) and the list of slots it touched. */
  private acc = new Float64Array(1024);
  private touched = new Int32Array(1024);
  /** Reused per-document term counts (by term id) and the ids touched. */
  private tfScratch = new Int32Array(1024);
  private idScratch = new Int32Array(1024);

  /** `analyzer`: text → terms for documents and queries alike (another one only to compare analyzers in tests). */
  constructor(
    private readonly params: Bm25Params = { k1: 1.2, b: 0.75 },
    private readonly analyzer: (text: string) => string[] = analyze,
  ) {}

  get size(): number {
    return this.live;
  }

  private ensureCapacity(slot: number) {
    if (slot < this.docLen.length) return;
    let cap = this.docLen.length;
    while (cap <= slot) cap *= 2;
    const d = new Int32Array(cap);
    d.set(this.docLen);
    this.docLen = d;
    this.acc = new Float64Array(cap);
    this.touched = new Int32Array(cap);
  }

  add(slot: number, text: string): void {
    this.addTerms(slot, this.analyzer(text));
  }

  addTerms(slot: number, terms: string[]): void {
    this.ensureCapacity(slot);
    if (this.idScratch.length < terms.length) this.idScratch = new Int32Array(terms.length * 2);
    let distinct = 0;
    for (const t of terms) {
      let id = this.termIds.get(t);
      if (id === undefined) {
        id = this.postings.length;
        this.termIds.set(t, id);
        this.postings.push(new Postings());
        if (id >= this.tfScratch.length) {
          const g = new Int32Array(this.tfScratch.length * 2);
          g.set(this.tfScratch);
          this.tfScratch = g;
        }
      }
      if (this.tfScratch[id]++ === 0) this.idScratch[distinct++] = id;
    }
    const ids = this.idScratch.slice(0, distinct);
    for (const id of ids) {
      this.postings[id].add(slot, this.tfScratch[id]);
      this.tfScratch[id] = 0;
    }
    this.docTerms[slot] = ids;
    this.docLen[slot] = terms.length;
    this.live++;
    this.totalLen += terms.length;
  }

  remove(slot: number): void {
    const list = this.docTerms[slot];
    if (!list) return;
    for (const id of list) this.postings[id].df--;
    this.docTerms[slot] = undefined;
    this.live--;
    this.totalLen -= this.docLen[slot];
  }

  /**
   * Scores every live slot that contains a query term. `accept(slot)` filters (alive + document filter).
   * The result reads the shared accumulator: use it synchronously and call `release()` before the next query.
   */
  score(query: string, accept: (slot: number) => boolean): Bm25Result {
    const { k1, b } = this.params;
    const qtf = new Map<string, number>();
    for (const t of this.analyzer(query)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const acc = this.acc;
    const touched = this.touched;
    let nTouched = 0;
    const N = this.live;
    const avgdl = N > 0 ? this.totalLen / N : 1;
    for (const [t, qn] of qtf) {
      const id = this.termIds.get(t);
      const p = id === undefined ? undefined : this.postings[id];
      if (!p || p.df <= 0) continue;
      const idf = Math.log(1 + (N - p.df + 0.5) / (p.df + 0.5));
      const w = qn * idf;
      const { slots, tfs, n } = p;
      for (let i = 0; i < n; i++) {
        const s = slots[i];
        if (this.docTerms[s] !== undefined && accept(s)) {
          const tf = tfs[i];
          const norm = k1 * (1 - b + (b * this.docLen[s]) / avgdl);
          if (acc[s] === 0) touched[nTouched++] = s;
          acc[s] += (w * tf) / (tf + norm); // > 0: idf > 0 and tf ≥ 1
        }
      }
    }
    return {
      count: nTouched,
      slotAt: (i) => touched[i],
      scoreOf: (slot) => acc[slot],
      release: () => {
        for (let i = 0; i < nTouched; i++) acc[touched[i]] = 0;
      },
    };
  }
}

export interface Bm25Result {
  /** How many slots matched at least one query term. */
  count: number;
  slotAt(i: number): number;
  /** The slot's BM25 score (0 when it matched nothing). */
  scoreOf(slot: number): number;
  release(): void;
}
