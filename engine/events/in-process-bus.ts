/**
 * In-process EventBus: per-run buffer + subscribers. The buffer covers the gap between "published live" and
 * "persisted by the journal", so an SSE client that reads the store and then subscribes never misses an event.
 * Buffers are dropped a while after the run's execution ends (everything is in the store by then).
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

  constructor(private readonly graceMs = 30_000) {}

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
    }
    if (event.seq <= ch.lastSeq) return; // a re-publish of a seq already delivered (same as Redis' id check)
    ch.lastSeq = event.seq;
    ch.events.push(event);
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
    ch.releaseTimer = setTimeout(() => {
      ch.events = [];
      ch.releaseTimer = undefined;
      if (!ch.subs.size) this.channels.delete(runId);
    }, this.graceMs);
    ch.releaseTimer.unref?.();
  }

  async close(): Promise<void> {
    for (const ch of this.channels.values()) if (ch.releaseTimer) clearTimeout(ch.releaseTimer);
    this.channels.clear();
  }
}
