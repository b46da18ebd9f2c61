// Guarantees: when the Redis server behind the queue and the event bus dies (losing its data) and comes back during a
// run, the run still completes, its SSE stream delivers every seq exactly once in order (gaps are filled from the
// store), starting a run while Redis is down fails at once and clearly (503 QUEUE_UNAVAILABLE, run failed with a
// run.failed event), and the worker takes new runs after the restart. Uses a private redis-server, never the shared
// one.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaiError } from '@/engine/errors';
import { httpStatusOf } from '@/lib/http/errors';
import { runEventStream } from '@/lib/server/runs/sse';
import {
  chain,
  expectContiguous,
  freePort,
  queueServicesAvailable,
  startQueueRig,
  type QueueRig,
} from './support/queue-app';
import { until } from '../support/until';
import { PrivateRedis, redisServerAvailable } from '../support/private-redis';

const available =
  redisServerAvailable('the Redis restart test') && (await queueServicesAvailable('Redis restart during a run'));

/** Reads an SSE response to its end; returns the ids in the order received. */
async function readSse(res: Response): Promise<number[]> {
  const ids: number[] = [];
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const id = /^id: (\d+)$/m.exec(frame);
      if (id) ids.push(Number(id[1]));
    }
  }
  return ids;
}

describe.runIf(available)('queue mode: Redis restarted during a run', () => {
  let redis: PrivateRedis;
  let rig: QueueRig;
  beforeAll(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.start();
    rig = await startQueueRig({ REDIS_URL: redis.url, WORKERS: '1', QUEUE_ENQUEUE_TIMEOUT_MS: '1500' });
  });
  afterAll(async () => {
    await rig?.close();
    await redis?.kill();
  });

  it(
    'the run completes; SSE and store sequences are contiguous with no duplicate; new runs work after the restart',
    { timeout: 120_000 },
    async () => {
      const gate1 = path.join(rig.scratch, 'gate1');
      const gate2 = path.join(rig.scratch, 'gate2');
      const wf = await rig.createWorkflow(
        chain([
          { id: 'a' },
          { id: 'g1', config: { gateFile: gate1 } },
          { id: 'mid' },
          { id: 'g2', config: { gateFile: gate2 } },
          { id: 'z', config: { value: 'survived' } },
        ]),
      );
      const { id: runId } = await rig.start(wf);
      await until(async () => (await rig.nodeStatus(runId, 'g1')) === 'running', 'g1 running', 30_000);
      const sse = readSse(runEventStream(rig.app, runId, 0, new AbortController().signal));

      // Redis dies with everything in it (the queue's job and locks, the run's stream) while g1 executes.
      await redis.kill();
      writeFileSync(gate1, 'open'); // g1, mid finish and g2 starts while Redis is away: their live events are lost
      await until(
        async () => (await rig.nodeStatus(runId, 'g2')) === 'running',
        'g2 running while Redis is down',
        30_000,
      );

      // Starting a run now fails clearly instead of leaving a run queued with no job.
      const t0 = Date.now();
      const err = await rig.start(wf).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PaiError);
      expect((err as PaiError).code).toBe('QUEUE_UNAVAILABLE');
      expect(httpStatusOf(err as PaiError)).toBe(503);
      expect(Date.now() - t0).toBeLessThan(10_000);
      const runs = await rig.app.store.listRuns(wf, { limit: 10 });
      const failed = runs.find((r) => r.id !== runId)!;
      expect(failed.status).toBe('failed');
      expect(failed.error?.code).toBe('QUEUE_UNAVAILABLE');
      expect((await rig.events(failed.id)).map((e) => e.type)).toEqual(['run.failed']);

      await redis.start(); // empty
      writeFileSync(gate2, 'open');

      const done = await rig.waitForStatus(runId, 'terminal', 60_000);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.outputs).toEqual({ last: 'survived' });

      const stored = await rig.events(runId);
      expect(expectContiguous(stored)).toBe(true);
      expect(stored.at(-1)!.type).toBe('run.succeeded');
      const ids = await sse;
      expect(ids, 'SSE ids: every seq once, in order').toEqual(stored.map((e) => e.seq));
      expect(new Set(ids).size).toBe(ids.length);
      expect(rig.counts()).toEqual(Object.fromEntries(['a', 'g1', 'mid', 'g2', 'z'].map((n) => [`${runId}:${n}`, 1])));

      // The queue and the worker work again on the restarted (empty) Redis.
      const next = await rig.start(wf);
      writeFileSync(gate1, 'open');
      const nextDone = await rig.waitForStatus(next.id, 'terminal', 60_000);
      expect(nextDone.status).toBe('succeeded');
      expect(expectContiguous(await rig.events(next.id))).toBe(true);
    },
  );
});

if (!available)
  describe('queue mode: Redis restarted during a run', () =>
    it.skip('SKIPPED: needs redis-server, PostgreSQL and Redis', () => {}));
