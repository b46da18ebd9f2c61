// Guarantee: an event stream closes after the run's terminal event even when the run ended just as the stream
// started — its final commit stored (terminal status and event) while its execution was still winding down in this
// process (RunManager.isActive still true). This happens when a short run ends while the request that started it is
// still opening the stream (a `mode: "stream"` run of pure nodes ends within a millisecond of its INSERT). And it does
// not close early when only the status is terminal: a cancel from another process stores `cancelled` before the
// executing process has written its last events.
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';
import type { App } from '@/lib/server/app';
import { runEventStream } from '@/lib/server/sse';
import { readSse } from './publish-contract-suite';

const runId = 'run_ends_as_stream_starts';
const ev = (seq: number, type: TraceEvent['type']): TraceEvent => ({ seq, runId, ts: new Date().toISOString(), type, spanId: 'r', data: {} });
const events = [ev(1, 'run.started'), ev(2, 'node.started'), ev(3, 'node.succeeded'), ev(4, 'run.succeeded')];

function fakeApp(stored: TraceEvent[], bus: InProcessEventBus, status?: () => string): App {
  return {
    store: {
      getEvents: async (_id: string, after = 0) => stored.filter((e) => e.seq > after),
      getRun: async () => ({ id: runId, status: status?.() ?? (stored.some((e) => e.type === 'run.succeeded') ? 'succeeded' : 'running') }),
    },
    runs: { isActive: () => true }, // the execution has not finished winding down
    bus,
  } as unknown as App;
}

describe('an event stream for a run that ends as the stream starts', () => {
  it('closes after the terminal event read from the store', async () => {
    const bus = new InProcessEventBus(1000);
    for (const e of events) bus.publish(e);
    const res = runEventStream(fakeApp(events, bus), runId, 0, new AbortController().signal);
    const { frames, closed } = await readSse(res, 3000);
    expect(frames.map((f) => f.id)).toEqual([1, 2, 3, 4]);
    expect(closed).toBe(true);
    await bus.close();
  });

  it('closes after the terminal event published live, when the store had only part of the run', async () => {
    const bus = new InProcessEventBus(1000);
    const stored = events.slice(0, 2);
    const res = runEventStream(fakeApp(stored, bus), runId, 0, new AbortController().signal);
    setTimeout(() => { stored.push(...events.slice(2)); for (const e of events) bus.publish(e); }, 50);
    const { frames, closed } = await readSse(res, 3000);
    expect(frames.map((f) => f.id)).toEqual([1, 2, 3, 4]);
    expect(closed).toBe(true);
    await bus.close();
  });

  it('stays open while only the status is terminal (cancelled by another process) until the terminal event comes', async () => {
    const bus = new InProcessEventBus(1000);
    const stored = events.slice(0, 2);
    for (const e of stored) bus.publish(e);
    const res = runEventStream(fakeApp(stored, bus, () => 'cancelled'), runId, 0, new AbortController().signal);
    const tail = [ev(3, 'node.failed'), ev(4, 'run.cancelled')];
    setTimeout(() => { stored.push(...tail); for (const e of tail) bus.publish(e); }, 100);
    const { frames, closed } = await readSse(res, 3000);
    expect(frames.map((f) => `${f.id}:${f.event}`)).toEqual(['1:run.started', '2:node.started', '3:node.failed', '4:run.cancelled']);
    expect(closed).toBe(true);
    await bus.close();
  });
});
