/**
 * Server-Sent Events for a run's trace. Replays stored events after `Last-Event-ID` / `?after=`, then follows the
 * live bus without gaps or duplicates (events are de-duplicated by seq; a gap triggers a re-read from the store),
 * and closes after the terminal event.
 *
 * The store has every event, so it is also what a stream falls back on when the live path may have lost some: the
 * bus says so after an outage (onResync), the store is re-read every second while the bus is down, and on every
 * keep-alive in any case (a terminal event lost live would otherwise leave the stream waiting forever). Routes refuse
 * a new stream while the bus is down (requireLiveEvents: 503 EVENT_BUS_UNAVAILABLE), so a client learns at once
 * that it gets no live events instead of a stream that would trail the run by polling.
 */
import { PaiError } from '@/engine/errors';
import { TERMINAL_EVENT_TYPES, type TraceEvent } from '@/engine/events/types';
import type { App } from '../app-types';

/** Response headers of every event stream (no proxy buffering, no transformation). */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

const TERMINAL_STATUSES = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
const KEEP_ALIVE_MS = 15_000;
/** How often an open stream re-reads the store while the bus is down. */
const BUS_DOWN_POLL_MS = 1000;
/** How long a new stream waits for a bus that is (re)connecting: start-up and sub-second blips go unnoticed. */
const BUS_GRACE_MS = 1000;

/** Refuses a new live stream while the bus cannot deliver (health says why). Call before runEventStream. */
export async function requireLiveEvents(app: App, graceMs = BUS_GRACE_MS): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (!app.bus.status().ok && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (app.bus.status().ok) return;
  throw new PaiError(
    'EVENT_BUS_UNAVAILABLE',
    'live run events are unavailable right now (the event bus is not connected); the run itself goes on: ' +
      'retry shortly, or read the run and its events once it has ended',
    { retryable: true, details: { headers: { 'retry-after': '2' } } },
  );
}

export function afterSeqFrom(req: Request): number {
  const header = req.headers.get('last-event-id');
  const q = new URL(req.url).searchParams.get('after');
  const n = Number(header ?? q ?? 0);
  // seq is a 32-bit column: a larger cursor is simply "after everything" (and must not make the query fail).
  return Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), 2_147_483_647) : 0;
}

export function runEventStream(app: App, runId: string, after: number, signal: AbortSignal): Response {
  const enc = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let last = after;
      let closed = false;
      let pending: TraceEvent[] = [];
      let catchingUp = true;
      let unsubscribe = () => {};
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(ticker);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      cleanup = close;
      const send = (e: TraceEvent) => {
        if (closed || e.seq <= last) return;
        last = e.seq;
        controller.enqueue(enc.encode(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
        // A live terminal event ends the stream. A stored one may be followed by a resume: catchUp decides.
        if (TERMINAL_EVENT_TYPES.has(e.type) && !catchingUp) close();
      };
      let lastType = '';
      const catchUp = async () => {
        catchingUp = true;
        for (;;) {
          const batch = await app.store.getEvents(runId, last, 1000);
          for (const e of batch) {
            send(e);
            lastType = e.type;
          }
          if (batch.length < 1000 || closed) break;
        }
        // A stored terminal event ends the stream unless a resume has begun since (a resume stores `running` before
        // its first event). Whether the execution is still winding down in this process does not matter: its
        // terminal status is stored, nothing follows.
        if (TERMINAL_EVENT_TYPES.has(lastType)) {
          const run = await app.store.getRun(runId);
          if (run && TERMINAL_STATUSES.has(run.status)) {
            close();
            return;
          }
        }
        const queued = pending.sort((a, b) => a.seq - b.seq);
        pending = [];
        catchingUp = false;
        for (const e of queued) onLive(e);
      };
      // One re-read at a time; a request during one runs another right after it (it may have been for newer events).
      let refilling: Promise<void> | null = null;
      let again = false;
      const refill = (): Promise<void> => {
        if (refilling) {
          again = true;
          return refilling;
        }
        refilling = (async () => {
          try {
            for (;;) {
              again = false;
              const before = last;
              await catchUp();
              if (!again || closed) break;
              // The store does not have the missing events yet (the journal flushes within ~250 ms): not a hot loop.
              if (last === before) await new Promise((r) => setTimeout(r, 50));
            }
          } finally {
            refilling = null;
          }
        })();
        return refilling;
      };
      // In the background a failed re-read is only retried by the next trigger (the store may be down too).
      const refillLater = () => void refill().catch(() => {});
      const onLive = (e: TraceEvent) => {
        if (closed || e.seq <= last) return;
        if (catchingUp) {
          pending.push(e);
          return;
        }
        if (e.seq === last + 1) send(e);
        else {
          pending.push(e);
          refillLater();
        } // gap: the store has the missing ones (or will after the next flush)
      };
      signal.addEventListener('abort', close, { once: true });
      controller.enqueue(enc.encode(`retry: 2000\n\n`));
      // Declared before start() first awaits, so before anything can call close().
      let ticks = 0;
      const ticker = setInterval(() => {
        if (closed) return;
        ticks += 1;
        const keepAlive = ticks % (KEEP_ALIVE_MS / BUS_DOWN_POLL_MS) === 0;
        if (keepAlive) controller.enqueue(enc.encode(`: keep-alive\n\n`));
        if (keepAlive || !app.bus.status().ok) refillLater();
      }, BUS_DOWN_POLL_MS);
      try {
        await refill();
        if (closed) return;
        unsubscribe = app.bus.subscribe(runId, last, onLive, { onResync: refillLater });
        // The run may have finished between the read and the subscribe: re-read once more. (A run still executing
        // here can have a terminal status stored without its terminal event — a cancel or a reaper in another
        // process sets only the status — and then the event arrives live.)
        const run = await app.store.getRun(runId);
        if (run && TERMINAL_STATUSES.has(run.status) && !app.runs.isActive(runId)) {
          await refill();
          close();
        }
      } catch {
        close();
      }
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
