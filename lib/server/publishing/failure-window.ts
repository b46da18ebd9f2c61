/**
 * Failed-authentication counting per client address, in memory: after `max` failures within `windowMs` an address is
 * refused (429 with Retry-After) until its oldest counted failure leaves the window — before its key is even looked
 * up, so a guesser costs no database read either. Per process: N replicas allow N× the attempts; guessing a 256-bit
 * key is hopeless anyway, the point is that nobody can hammer the key lookup or fill the logs with 401s.
 */
const MAX_ADDRESSES = 10_000;

export class FailureWindow {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may try now. */
  retryAfterSec(address: string): number {
    const times = this.recent(address);
    if (times.length < this.max) return 0;
    return Math.max(1, Math.ceil((times[0] + this.windowMs - this.now()) / 1000));
  }

  fail(address: string): void {
    const times = this.recent(address);
    times.push(this.now());
    if (times.length > this.max) times.splice(0, times.length - this.max);
    this.failures.set(address, times);
    if (this.failures.size > MAX_ADDRESSES) this.prune();
  }

  private recent(address: string): number[] {
    const since = this.now() - this.windowMs;
    const times = this.failures.get(address);
    if (!times) return [];
    while (times.length && times[0] <= since) times.shift();
    if (!times.length) this.failures.delete(address);
    return times;
  }

  /** Forgets addresses whose failures have all left the window. */
  private prune() {
    for (const address of [...this.failures.keys()]) this.recent(address);
  }
}
