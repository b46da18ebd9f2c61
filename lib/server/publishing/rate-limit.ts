/**
 * Per-API-key token buckets, in memory (per process: N processes allow N× the rate; a shared limiter would need Redis).
 * A bucket holds up to `perMinute` tokens and refills continuously, so a client may burst a minute's worth and then
 * sustains `perMinute` per minute.
 */
export type Take = { ok: true; remaining: number } | { ok: false; retryAfterSec: number };

const MAX_BUCKETS = 10_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  take(id: string): Take {
    const t = this.now();
    const b = this.buckets.get(id) ?? { tokens: this.perMinute, at: t };
    b.tokens = Math.min(this.perMinute, b.tokens + (t - b.at) * this.perMs);
    b.at = t;
    this.buckets.set(id, b);
    if (this.buckets.size > MAX_BUCKETS) this.prune(t);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true, remaining: Math.floor(b.tokens) };
    }
    return { ok: false, retryAfterSec: Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000)) };
  }

  /** Forgets buckets that would be full by now anyway (they behave exactly like a new bucket). */
  private prune(t: number) {
    for (const [id, b] of this.buckets)
      if (b.tokens + (t - b.at) * this.perMs >= this.perMinute) this.buckets.delete(id);
  }
}
