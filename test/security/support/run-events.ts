/**
 * Ordering helpers for the security tests: wait for a run's trace event on the app's bus (replayed if it already
 * happened), and tell whether a run has ended yet. They order steps ("the bomb has started", "it has not ended
 * yet"), never time them.
 */
import type { TraceEvent } from '@/engine/events/types';
import type { App } from '@/lib/server/app-types';

export function waitForEvent(app: App, runId: string, match: (e: TraceEvent) => boolean): Promise<TraceEvent> {
  return new Promise((resolve) => {
    // subscribe() replays held events synchronously, so the match may come before it returns its unsubscribe.
    const sub = { found: false, off: () => {} };
    sub.off = app.bus.subscribe(runId, 0, (e) => {
      if (sub.found || !match(e)) return;
      sub.found = true;
      sub.off();
      resolve(e);
    });
    if (sub.found) sub.off();
  });
}

const TERMINAL = new Set(['run.succeeded', 'run.failed', 'run.cancelled', 'run.interrupted']);

/** Every event of the run the bus has delivered so far, and whether one of them ends it. */
export function eventsSoFar(app: App, runId: string): { events: TraceEvent[]; ended: boolean } {
  const events: TraceEvent[] = [];
  app.bus.subscribe(runId, 0, (e) => events.push(e))();
  return { events, ended: events.some((e) => TERMINAL.has(e.type)) };
}
