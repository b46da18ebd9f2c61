// Guarantees: the Redis Streams event bus survives its Redis dying and coming back empty. status() is not ok while
// Redis is away (with a reason naming no host or port) and ok again after; every subscriber — one made before the
// outage and one made during it — is told to resync (re-read the store) once the bus is back, and then receives
// the events published after the restart, in order and without duplicates, as does a subscription made afterwards;
// closing the bus while Redis is away does not hang. Uses a private redis-server, never the shared one.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisEventBus } from '@/engine/events/redis-bus';
import type { TraceEvent } from '@/engine/events/types';
import { until } from '../support/until';
import { PrivateRedis, redisServerAvailable } from '../support/private-redis';

const available = redisServerAvailable('the event-bus outage suite');

const ev = (runId: string, seq: number, type: TraceEvent['type'] = 'node.progress'): TraceEvent => ({
  seq,
  runId,
  ts: new Date().toISOString(),
  type,
  spanId: 'run',
  data: { n: seq },
});

function follower(bus: RedisEventBus, runId: string, after = 0) {
  const f = { seqs: [] as number[], resyncs: 0, unsub: () => {} };
  f.unsub = bus.subscribe(runId, after, (e) => f.seqs.push(e.seq), { onResync: () => f.resyncs++ });
  return f;
}

describe.runIf(available)('Redis event bus: outage and restart', () => {
  let redis: PrivateRedis;
  let bus: RedisEventBus | undefined;
  afterAll(async () => {
    await bus?.close();
    await redis?.kill();
  });

  it('reports the outage, resyncs and resubscribes every subscriber, delivers in order after it', async () => {
    redis = await PrivateRedis.create();
    bus = new RedisEventBus(redis.url, { prefix: `outage-${randomUUID().slice(0, 8)}:`, ttlSeconds: 60 });
    await until(() => bus!.status().ok, 'the bus to connect');
    const runA = `a_${randomUUID()}`;
    const runB = `b_${randomUUID()}`;
    const a = follower(bus, runA);
    for (let i = 1; i <= 3; i++) bus.publish(ev(runA, i));
    await until(() => a.seqs.length === 3, 'the first three events');

    await redis.kill();
    const down = await until(() => {
      const s = bus!.status();
      return !s.ok && s;
    }, 'status() to report the outage');
    expect(down.reason).toMatch(/redis/i);
    expect(down.reason).not.toContain(String(redis.port));
    bus.publish(ev(runA, 4)); // lost with the dead server (or delivered after the restart): only the store has it
    const b = follower(bus, runB); // subscribed while Redis is away

    await redis.start(); // empty
    await until(() => bus!.status().ok, 'status() to be ok after the restart');
    await until(() => a.resyncs > 0 && b.resyncs > 0, 'both subscribers to be told to resync');

    for (let i = 5; i <= 7; i++) bus.publish(ev(runA, i, i === 7 ? 'run.succeeded' : 'node.progress'));
    for (let i = 1; i <= 2; i++) bus.publish(ev(runB, i));
    await until(() => a.seqs.at(-1) === 7 && b.seqs.length === 2, 'the events published after the restart');
    expect(a.seqs.slice(0, 3)).toEqual([1, 2, 3]);
    expect(a.seqs.slice(-3)).toEqual([5, 6, 7]);
    expect(
      [...a.seqs].sort((x, y) => x - y),
      'in order, no duplicates',
    ).toEqual([...new Set(a.seqs)]);
    expect(b.seqs).toEqual([1, 2]);

    const runC = `c_${randomUUID()}`;
    const c = follower(bus, runC);
    bus.publish(ev(runC, 1));
    await until(() => c.seqs.length === 1, 'a subscription made after the restart to get its event');
    expect(c.resyncs).toBe(0);
    for (const f of [a, b, c]) f.unsub();

    // Closing while Redis is away must not hang (a worker stopping during an outage).
    await redis.kill();
    await until(() => !bus!.status().ok, 'status() to report the second outage');
    let closed = false;
    void bus.close().then(() => {
      closed = true;
    });
    await until(() => closed, 'close() to return while Redis is away');
    expect(bus.status().ok).toBe(false);
    bus = undefined;
  });
});

if (!available)
  describe('Redis event bus: outage and restart', () => it.skip('SKIPPED: needs the redis-server binary', () => {}));
