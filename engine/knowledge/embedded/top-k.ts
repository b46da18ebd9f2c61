/**
 * Bounded top-k selection over (score, slot) pairs with a binary min-heap in typed arrays: O(n log k), no
 * per-candidate allocation, which matters when 100k chunks are scored per query. Ties break towards the lower slot
 * (earlier insertion) so results are deterministic.
 */
export class TopK {
  private scores: Float64Array;
  private slots: Int32Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(Math.max(1, k));
    this.slots = new Int32Array(Math.max(1, k));
  }

  /** a ranks below b? (lower score, or equal score and higher slot) */
  private below(i: number, j: number): boolean {
    const a = this.scores[i];
    const b = this.scores[j];
    return a < b || (a === b && this.slots[i] > this.slots[j]);
  }

  /** The score a candidate must beat to enter (−Infinity while not full). */
  get floor(): number {
    return this.size < this.k ? -Infinity : this.scores[0];
  }

  push(score: number, slot: number): void {
    if (this.k <= 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.slots[i] = slot;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.below(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    const s0 = this.scores[0];
    if (score < s0 || (score === s0 && slot > this.slots[0])) return;
    this.scores[0] = score;
    this.slots[0] = slot;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.below(l, m)) m = l;
      if (r < this.size && this.below(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number) {
    const s = this.scores[i];
    this.scores[i] = this.scores[j];
    this.scores[j] = s;
    const t = this.slots[i];
    this.slots[i] = this.slots[j];
    this.slots[j] = t;
  }

  /** Best first. */
  sorted(): Array<{ slot: number; score: number }> {
    const out: Array<{ slot: number; score: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ slot: this.slots[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }
}
