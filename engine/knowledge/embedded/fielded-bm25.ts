/**
 * BM25 over two fields of a chunk, summed with a boost, as Elasticsearch's multi_match `most_fields` scores them:
 * the body (title + text, ES's `search_text`) and the headings (title + heading path, ES's `headings`, boosted by
 * HEADINGS_BOOST). A heading or title names what a passage is about in a few words, so a query that matches them is
 * about that passage more surely than one that matches a word somewhere in its text. Each field keeps its own
 * statistics (N, df, average length), as each Lucene field does.
 */
import { HEADINGS_BOOST } from '../headings-field';
import { Bm25Index, type Bm25Result } from './bm25-index';

export class FieldedBm25 {
  private body = new Bm25Index();
  private heads = new Bm25Index();
  private union = new Int32Array(1024);

  constructor(private readonly headingsBoost: number = HEADINGS_BOOST) {}

  get size(): number {
    return this.body.size;
  }

  add(slot: number, body: string, headings: string): void {
    this.body.add(slot, body);
    if (this.headingsBoost > 0) this.heads.add(slot, headings);
  }

  remove(slot: number): void {
    this.body.remove(slot);
    this.heads.remove(slot);
  }

  /** The summed scores; same contract as Bm25Index.score (use synchronously, then release()). */
  score(query: string, accept: (slot: number) => boolean): Bm25Result {
    const a = this.body.score(query, accept);
    if (this.headingsBoost <= 0) return a;
    const b = this.heads.score(query, accept);
    const w = this.headingsBoost;
    if (this.union.length < a.count + b.count) this.union = new Int32Array((a.count + b.count) * 2);
    const union = this.union;
    let n = 0;
    for (let i = 0; i < a.count; i++) union[n++] = a.slotAt(i);
    for (let i = 0; i < b.count; i++) {
      const s = b.slotAt(i);
      if (a.scoreOf(s) === 0) union[n++] = s;
    }
    return {
      count: n,
      slotAt: (i) => union[i],
      scoreOf: (slot) => a.scoreOf(slot) + w * b.scoreOf(slot),
      release: () => {
        a.release();
        b.release();
      },
    };
  }
}
