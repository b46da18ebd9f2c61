// Guarantee: the in-process bus's memory does not grow with the request rate. Ended runs keep their buffer for late
// subscribers through a grace period, but only the most recent `maxEndedRuns` of them (under load, 30 s of published
// runs was tens of thousands of buffers); a long run keeps only its last `maxEventsPerRun` events. A run that resumes
// is live again and is not dropped as ended. What a late subscriber misses is in the store (readers re-read it).
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';

const ev = (runId: string, seq: number): TraceEvent => ({
  seq,
  runId,
  ts: new Date().toISOString(),
  type: 'node.progress',
  spanId: 'run',
  data: { n: seq },
});

/** The seqs a late subscriber gets replayed from the buffer. */
function replayed(bus: InProcessEventBus, runId: string): number[] {
  const got: number[] = [];
  bus.subscribe(runId, 0, (e) => got.push(e.seq))();
  return got;
}

describe('the in-process bus buffer', () => {
  it('keeps the buffers of the most recent ended runs only, within the grace period', async () => {
    const bus = new InProcessEventBus(60_000, { maxEndedRuns: 3, maxEventsPerRun: 100 });
    for (const run of ['r1', 'r2', 'r3', 'r4', 'r5']) {
      bus.publish(ev(run, 1));
      bus.publish(ev(run, 2));
      bus.release(run);
    }
    expect(replayed(bus, 'r1')).toEqual([]);
    expect(replayed(bus, 'r2')).toEqual([]);
    expect(replayed(bus, 'r3')).toEqual([1, 2]);
    expect(replayed(bus, 'r5')).toEqual([1, 2]);
    await bus.close();
  });

  it('keeps the last events of a long run, ending with the newest', async () => {
    const bus = new InProcessEventBus(60_000, { maxEndedRuns: 3, maxEventsPerRun: 100 });
    for (let seq = 1; seq <= 250; seq++) bus.publish(ev('long', seq));
    const tail = replayed(bus, 'long');
    expect(tail.length).toBeGreaterThanOrEqual(50);
    expect(tail.length).toBeLessThanOrEqual(100);
    expect(tail.at(-1)).toBe(250);
    expect(tail).toEqual(Array.from({ length: tail.length }, (_, i) => 251 - tail.length + i));
    await bus.close();
  });

  it('a subscriber still gets every live event, however many', async () => {
    const bus = new InProcessEventBus(60_000, { maxEndedRuns: 3, maxEventsPerRun: 100 });
    const got: number[] = [];
    const unsubscribe = bus.subscribe('live', 0, (e) => got.push(e.seq));
    for (let seq = 1; seq <= 250; seq++) bus.publish(ev('live', seq));
    expect(got).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    unsubscribe();
    await bus.close();
  });

  it('a run that resumes after it ended is live again, not dropped with the ended ones', async () => {
    const bus = new InProcessEventBus(60_000, { maxEndedRuns: 2, maxEventsPerRun: 100 });
    bus.publish(ev('resumed', 1));
    bus.release('resumed');
    bus.publish(ev('resumed', 2)); // the resume
    for (const run of ['a', 'b', 'c']) {
      bus.publish(ev(run, 1));
      bus.release(run);
    }
    expect(replayed(bus, 'resumed')).toEqual([1, 2]);
    expect(replayed(bus, 'a')).toEqual([]);
    await bus.close();
  });
});
