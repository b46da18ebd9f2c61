/**
 * Waits for a run to settle wherever it executes. In this process, RunManager.waitFor is exact. Elsewhere (a queue
 * worker, another app process on the same PostgreSQL) the run's end arrives as a trace event on the bus (Redis
 * Streams in queue mode); the stored status can trail that event by one commit, so an event is followed by quick
 * re-reads, and a slow poll of the store covers a bus that does not carry other processes' events.
 */
import { TERMINAL_EVENT_TYPES } from '@/engine/events/types';
import type { RunRecord } from '@/engine/store/types';
import type { App } from '../app-types';

const ENDED = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
const END_EVENTS = new Set([...TERMINAL_EVENT_TYPES, 'run.waiting']);
const AFTER_EVENT_POLL_MS = 10;
const AFTER_EVENT_GRACE_MS = 300;

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Default: a run paused on human input counts as settled. With true, only an ended run does. */
  untilEnded?: boolean;
  /** Store poll interval when no event arrives (default 250 ms). */
  pollMs?: number;
}

/** Resolves when `p` does (if given), after `ms`, or on abort — whichever is first. */
async function waitAtMost(p: Promise<unknown> | null, ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return;
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const stop = new Promise<void>((r) => {
    timer = setTimeout(r, ms);
    onAbort = () => r();
  });
  signal?.addEventListener('abort', onAbort, { once: true });
  await Promise.race(p ? [p, stop] : [stop]);
  clearTimeout(timer);
  signal?.removeEventListener('abort', onAbort);
}

/** The seq of the next end (or pause) event after `afterSeq`, or null if none arrives within `ms`. */
async function nextEndEvent(
  app: App,
  runId: string,
  afterSeq: number,
  ms: number,
  signal?: AbortSignal,
): Promise<number | null> {
  let seen: number | null = null;
  let wake = () => {};
  const arrived = new Promise<void>((r) => {
    wake = r;
  });
  // After a bus outage the end event may have been lost live: waking re-reads the store at once.
  const unsubscribe = app.bus.subscribe(
    runId,
    afterSeq,
    (e) => {
      if (seen === null && END_EVENTS.has(e.type) && e.seq > afterSeq) {
        seen = e.seq;
        wake();
      }
    },
    { onResync: () => wake() },
  );
  try {
    await waitAtMost(arrived, ms, signal);
  } finally {
    unsubscribe();
  }
  return seen;
}

/** The stored run once it has settled, or as it is when the timeout or abort comes first (null if it is gone). */
export async function waitForRunToSettle(app: App, runId: string, o: WaitOptions): Promise<RunRecord | null> {
  const deadline = Date.now() + o.timeoutMs;
  const settled = (s: string) => ENDED.has(s) || (!o.untilEnded && s === 'waiting');
  let afterSeq = 0;
  let quickUntil = 0;
  for (;;) {
    const here = app.runs.outcome(runId);
    if (here) {
      // Executing in this process: its outcome is the run as its final write stored it, no need to read it back.
      let ended: RunRecord | null = null;
      await waitAtMost(
        here.then((r) => {
          ended = r;
        }),
        deadline - Date.now(),
        o.signal,
      );
      const r = ended as RunRecord | null;
      if (r && settled(r.status)) return r;
    }
    const run = await app.store.getRun(runId);
    if (!run || settled(run.status) || Date.now() >= deadline || o.signal?.aborted) return run;
    const left = deadline - Date.now();
    if (app.runs.isActive(runId)) continue; // resumed or answered here meanwhile
    if (Date.now() < quickUntil) {
      await waitAtMost(null, Math.min(left, AFTER_EVENT_POLL_MS), o.signal);
    } else {
      const seq = await nextEndEvent(app, runId, afterSeq, Math.min(left, o.pollMs ?? 250), o.signal);
      if (seq !== null) {
        afterSeq = seq;
        quickUntil = Date.now() + AFTER_EVENT_GRACE_MS;
      }
    }
  }
}
