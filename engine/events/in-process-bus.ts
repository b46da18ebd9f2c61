/**
 * In-process EventBus: per-run buffer + subscribers. The buffer covers the gap between "published live" and
 * "persisted by the journal", so an SSE client that reads the store and then subscribes never misses an event.
 * Buffers are dropped a while after the run's execution ends (everything is in the store by then).
 *
 * Bounded by size as well as by time, so memory does not grow with the request rate: at most `maxEndedRuns` ended
 * runs keep their buffer through the grace period (the oldest go first), and a run keeps its last `maxEventsPerRun`
 * events. What a late subscriber then misses is in the store, and every reader of the bus re-reads the store on a
 * gap in seq (lib/server/runs/sse.ts) or polls it (lib/server/runs/run-waiter.ts).
 */
import type { BusStatus, EventBus, TraceEvent, Unsubscribe } from './types';

interface Channel {
  events: TraceEvent[];
  lastSeq: number;
  subs: Set<(e: TraceEvent) => void>;
  releaseTimer?: NodeJS.Timeout;
}

export class InProcessEventBus implements EventBus {
  readonly kind = 'in-process';

  status(): BusStatus {
    return { ok: true };
  }
  private channels = new Map<string, Channel>();
  /** Ended runs whose buffer waits out the grace period, oldest first. */
  private ended = new Set<string>();

  constructor(
    private readonly graceMs = 30_000,
    private readonly limits = { maxEndedRuns: 1_000, maxEventsPerRun: 5_000 },
  ) {}

  private channel(runId: string): Channel {
    let ch = this.channels.get(runId);
    if (!ch) {
      ch = { events: [], subs: new Set(), lastSeq: 0 };
      this.channels.set(runId, ch);
    }
    return ch;
  }

  publish(event: TraceEvent): void {
    const ch = this.channel(event.runId);
    if (ch.releaseTimer) {
      clearTimeout(ch.releaseTimer);
      ch.releaseTimer = undefined;
      this.ended.delete(event.runId);
    }
    if (event.seq <= ch.lastSeq) return; // a re-publish of a seq already delivered (same as Redis' id check)
    ch.lastSeq = event.seq;
    ch.events.push(event);
    // Drops the older half at once, so a long run pays for the copy once per maxEventsPerRun / 2 events.
    if (ch.events.length > this.limits.maxEventsPerRun)
      ch.events = ch.events.slice(ch.events.length - Math.ceil(this.limits.maxEventsPerRun / 2));
    for (const fn of ch.subs) {
      try {
        fn(event);
      } catch {
        /* a broken subscriber must not break the run */
      }
    }
  }

  subscribe(runId: string, afterSeq: number, onEvent: (e: TraceEvent) => void): Unsubscribe {
    const ch = this.channel(runId);
    for (const e of ch.events) if (e.seq > afterSeq) onEvent(e);
    ch.subs.add(onEvent);
    return () => {
      ch.subs.delete(onEvent);
      if (!ch.subs.size && !ch.events.length && !ch.releaseTimer) this.channels.delete(runId);
    };
  }

  release(runId: string): void {
    const ch = this.channels.get(runId);
    if (!ch) return;
    if (ch.releaseTimer) clearTimeout(ch.releaseTimer);
    ch.releaseTimer = setTimeout(() => this.drop(runId, ch), this.graceMs);
    ch.releaseTimer.unref?.();
    this.ended.delete(runId);
    this.ended.add(runId);
    if (this.ended.size > this.limits.maxEndedRuns) {
      const oldest = this.ended.values().next().value!;
      const old = this.channels.get(oldest);
      if (old) this.drop(oldest, old);
      else this.ended.delete(oldest);
    }
  }

  /** Ends an ended run's grace period: its buffer goes, and the channel too once nobody listens. */
  private drop(runId: string, ch: Channel): void {
    if (ch.releaseTimer) clearTimeout(ch.releaseTimer);
    ch.releaseTimer = undefined;
    ch.events = [];
    this.ended.delete(runId);
    if (!ch.subs.size) this.channels.delete(runId);
  }

  async close(): Promise<void> {
    for (const ch of this.channels.values()) if (ch.releaseTimer) clearTimeout(ch.releaseTimer);
    this.channels.clear();
    this.ended.clear();
  }
}
