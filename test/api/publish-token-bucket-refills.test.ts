// Guarantees: the per-key token bucket allows a burst of RATE_LIMIT_PER_MIN, then refills continuously (never more than
// the limit), keeps keys apart, and says how long to wait.
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '@/lib/server/publishing/rate-limit';

describe('TokenBuckets', () => {
  it('bursts up to the limit, then answers Retry-After until a token has refilled', () => {
    let now = 0;
    const b = new TokenBuckets(60, () => now); // one token per second
    for (let i = 0; i < 60; i++) expect(b.take('k').ok).toBe(true);
    expect(b.take('k')).toEqual({ ok: false, retryAfterSec: 1 });
    expect(b.take('other').ok).toBe(true);
    now += 999;
    expect(b.take('k').ok).toBe(false);
    now += 1;
    expect(b.take('k')).toEqual({ ok: true, remaining: 0 });
    now += 3_600_000; // an hour idle refills to the limit, not beyond
    for (let i = 0; i < 60; i++) expect(b.take('k').ok).toBe(true);
    expect(b.take('k').ok).toBe(false);
  });

  it('tells a slow limit how long to wait', () => {
    let now = 0;
    const b = new TokenBuckets(5, () => now);
    for (let i = 0; i < 5; i++) b.take('k');
    expect(b.take('k')).toEqual({ ok: false, retryAfterSec: 12 });
    now += 6_000;
    expect(b.take('k')).toEqual({ ok: false, retryAfterSec: 6 });
  });
});
