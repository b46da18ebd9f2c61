/**
 * A deterministic, dependency-free embedder: feature hashing of words (light stemming, stop words dropped) and of
 * character trigrams into a fixed number of signed buckets, L2-normalised. It captures lexical overlap, not
 * meaning — good enough for tests and as the fallback when no real embedding model is configured.
 */
import type { Embedder } from '../../node-kit/agent-services';

const STOP = new Set(
  (
    'a an and are as at be by do does for from has have i in is it its me my of on or our ' +
    'so that the their them this to was we what when where which who why will with you your'
  ).split(' '),
);

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const stem = (w: string) =>
  w.replace(/(?:'s|ies|es|s)$/u, (m) => (m === 'ies' ? 'y' : '')).replace(/(?:ing|ed)$/u, '') || w;

export class HashingEmbedder implements Embedder {
  readonly id: string;
  constructor(readonly dimension = 256) {
    this.id = `hashing-${dimension}`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.vector(t));
  }

  private vector(text: string): number[] {
    const v = new Array<number>(this.dimension).fill(0);
    const add = (feature: string, weight: number) => {
      const h = fnv1a(feature);
      v[h % this.dimension] += (h & 0x80000000 ? -1 : 1) * weight;
    };
    const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));
    for (const w of words) {
      const s = stem(w);
      add(`w:${s}`, 1);
      const padded = `#${s}#`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.3);
    }
    const norm = Math.hypot(...v);
    return norm > 0 ? v.map((x) => x / norm) : v;
  }
}
