// Guarantee: an event stream closes after the run's terminal event even when the run ended just as the stream
// started — its final commit stored (terminal status and event) while its execution was still winding down in this
// process (RunManager.isActive still true). This happens when a short run ends while the request that started it is
// still opening the stream (a `mode: "stream"` run of pure nodes ends within a millisecond of its INSERT). And it does
// not close early when only the status is terminal: a cancel from another process stores `cancelled` before the
// executing process has written its last events.
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';
import type { App } from '@/lib/server/app-types';
import { runEventStream } from '@/lib/server/runs/sse';
import { readSse } from './publish-contract-suite';

const runId = 'run_ends_as_stream_starts';
const ev = (seq: number, type: TraceEvent['type']): TraceEvent => ({
  seq,
  runId,
  ts: new Date().toISOString(),
  type,
  spanId: 'r',
  data: {},
});
const events = [ev(1, 'run.started'), ev(2, 'node.started'), ev(3, 'node.succeeded'), ev(4, 'run.succeeded')];

function fakeApp(stored: TraceEvent[], bus: InProcessEventBus, status?: () => string): App {
  return {
    store: {
      getEvents: async (_id: string, after = 0) => stored.filter((e) => e.seq > after),
      getRun: async () => ({
        id: runId,
        status: status?.() ?? (stored.some((e) => e.type === 'run.succeeded') ? 'succeeded' : 'running'),
      }),
    },
    runs: { isActive: () => true }, // the execution has not finished winding down
    bus,
  } as unknown as App;
}

/**
 * Streams a run whose store holds `stored` (and whose bus has published it) when the stream opens; after `laterMs`,
 * `later` is stored and published. Returns the frames as `seq:type` and whether the server closed the stream.
 */
async function stream(stored: TraceEvent[], later: TraceEvent[], laterMs: number, status?: () => string) {
  const bus = new InProcessEventBus(1000);
  for (const e of stored) bus.publish(e);
  const res = runEventStream(fakeApp(stored, bus, status), runId, 0, new AbortController().signal);
  if (later.length)
    setTimeout(() => {
      stored.push(...later);
      for (const e of later) bus.publish(e);
    }, laterMs);
  const { frames, closed } = await readSse(res, 3000);
  await bus.close();
  return { frames: frames.map((f) => `${f.id}:${f.event}`), closed };
}

const ALL = ['1:run.started', '2:node.started', '3:node.succeeded', '4:run.succeeded'];

describe('an event stream for a run that ends as the stream starts', () => {
  it('closes after the terminal event read from the store', async () => {
    expect(await stream([...events], [], 0)).toEqual({ frames: ALL, closed: true });
  });

  it('closes after the terminal event published live, when the store had only part of the run', async () => {
    expect(await stream(events.slice(0, 2), events.slice(2), 50)).toEqual({ frames: ALL, closed: true });
  });

  it(
    'stays open while only the status is terminal (cancelled ' + 'by another process) until the terminal event comes',
    async () => {
      const got = await stream(
        events.slice(0, 2),
        [ev(3, 'node.failed'), ev(4, 'run.cancelled')],
        100,
        () => 'cancelled',
      );
      expect(got).toEqual({
        frames: ['1:run.started', '2:node.started', '3:node.failed', '4:run.cancelled'],
        closed: true,
      });
    },
  );
});
