// Guarantees: every EventBus (in-process, Redis Streams) delivers a run's events in seq order without gaps or
// duplicates, replays what it holds after a given seq (reconnect with Last-Event-ID), never leaks events across runs,
// and keeps delivering to one subscriber when another unsubscribes. Two instances of a shared bus (Redis; two
// processes) see each other's events; two in-process buses are separate, as documented for single-process mode.
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import { RedisEventBus } from '@/engine/events/redis-bus';
import type { EventBus, TraceEvent } from '@/engine/events/types';
import { redisAvailable, TEST_REDIS_URL } from '../support/databases';
import { until } from '../support/until';

const REDIS_URL = TEST_REDIS_URL;

const prefix = `paiflow-test-${randomUUID().slice(0, 8)}:`;
/** [name, factory, whether two instances share events (across processes)] */
const factories: Array<[string, () => EventBus, boolean]> = [
  ['in-process', () => new InProcessEventBus(60_000), false],
];
if (await redisAvailable())
  factories.push(['redis-streams', () => new RedisEventBus(REDIS_URL, { prefix, ttlSeconds: 60 }), true]);

const ev = (runId: string, seq: number, type: TraceEvent['type'] = 'node.progress'): TraceEvent => ({
  seq,
  runId,
  ts: new Date().toISOString(),
  type,
  spanId: 'run',
  data: { n: seq },
});

function collect(bus: EventBus, runId: string, after: number) {
  const got: TraceEvent[] = [];
  const unsub = bus.subscribe(runId, after, (e) => got.push(e));
  return { got, unsub };
}

describe.each(factories)('EventBus conformance: %s', (_name, make, shared) => {
  const buses: EventBus[] = [];
  const bus = () => {
    const b = make();
    buses.push(b);
    return b;
  };
  afterAll(async () => {
    for (const b of buses) await b.close();
    if (factories.length > 1) {
      const r = new Redis(REDIS_URL);
      const keys = await r.keys(`${prefix}*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    }
  });

  it('delivers live events in seq order, contiguous, ending with the terminal event', async () => {
    const b = bus();
    const run = `r_${randomUUID()}`;
    const { got, unsub } = collect(b, run, 0);
    await new Promise((r) => setTimeout(r, 50));
    for (let i = 1; i <= 200; i++) b.publish(ev(run, i, i === 200 ? 'run.succeeded' : 'node.progress'));
    await until(() => got.length === 200, '200 live events');
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(got.at(-1)!.type).toBe('run.succeeded');
    unsub();
  });

  it('replays after a given seq to a late subscriber (reconnect with Last-Event-ID)', async () => {
    const b = bus();
    const run = `r_${randomUUID()}`;
    for (let i = 1; i <= 10; i++) b.publish(ev(run, i));
    const first = collect(b, run, 0);
    await until(() => first.got.length === 10, 'the 10 held events');
    first.unsub();
    const again = collect(b, run, 6);
    b.publish(ev(run, 11));
    await until(() => again.got.length === 5, 'the replay after seq 6 and one live event');
    expect(again.got.map((e) => e.seq)).toEqual([7, 8, 9, 10, 11]);
    again.unsub();
  });

  it("never delivers another run's events, and subscribers of one run are independent", async () => {
    const b = bus();
    const runA = `a_${randomUUID()}`;
    const runB = `b_${randomUUID()}`;
    const a1 = collect(b, runA, 0);
    const a2 = collect(b, runA, 0);
    const bb = collect(b, runB, 0);
    await new Promise((r) => setTimeout(r, 50));
    for (let i = 1; i <= 20; i++) {
      b.publish(ev(runA, i));
      b.publish(ev(runB, i));
    }
    await until(() => a1.got.length === 20 && a2.got.length === 20 && bb.got.length === 20, '20 events per subscriber');
    a2.unsub();
    b.publish(ev(runA, 21));
    await until(() => a1.got.length === 21, 'the event after the other subscriber left');
    expect(a1.got.every((e) => e.runId === runA)).toBe(true);
    expect(bb.got.every((e) => e.runId === runB)).toBe(true);
    expect(a2.got).toHaveLength(20);
    a1.unsub();
    bb.unsub();
  });

  it('a duplicate publish of the same seq is not delivered twice', async () => {
    const b = bus();
    const run = `r_${randomUUID()}`;
    const s = collect(b, run, 0);
    b.publish(ev(run, 1));
    b.publish(ev(run, 2));
    await until(() => s.got.length === 2, 'seq 1 and 2');
    b.publish(ev(run, 2));
    b.publish(ev(run, 3));
    await until(() => s.got.length >= 3, 'seq 3');
    await new Promise((r) => setTimeout(r, 100));
    expect(s.got.map((e) => e.seq)).toEqual([1, 2, 3]);
    s.unsub();
  });

  it.runIf(shared)("two bus instances (two processes) see each other's events", async () => {
    const writer = bus();
    const reader = bus();
    const run = `r_${randomUUID()}`;
    const s = collect(reader, run, 0);
    for (let i = 1; i <= 5; i++) writer.publish(ev(run, i));
    await until(() => s.got.length === 5, "the other instance's 5 events");
    expect(s.got.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    s.unsub();
  });

  it.skipIf(shared)("two in-process bus instances are separate: neither delivers the other's events", async () => {
    const writer = bus();
    const reader = bus();
    const run = `r_${randomUUID()}`;
    const onWriter = collect(writer, run, 0);
    const onReader = collect(reader, run, 0);
    for (let i = 1; i <= 5; i++) writer.publish(ev(run, i));
    await until(() => onWriter.got.length === 5, "the writer's own subscriber to get 5 events");
    reader.publish(ev(run, 1, 'run.succeeded')); // the reader's own seq 1 is not taken as a duplicate of the writer's
    await until(() => onReader.got.length === 1, "the reader's own event");
    await new Promise((r) => setTimeout(r, 50));
    expect(onReader.got.map((e) => e.type)).toEqual(['run.succeeded']);
    expect(onWriter.got.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    onWriter.unsub();
    onReader.unsub();
  });
});
