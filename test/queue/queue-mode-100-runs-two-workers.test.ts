// Guarantees: in queue mode (RunManager dispatch → BullMQ) 100 concurrent runs executed by 2 real worker processes all
// succeed, both workers take part, every node runs exactly once, and each run's events — in the store and as delivered
// by the Redis bus — are complete, contiguous from seq 1 and never mixed with another run's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/engine/events/types';
import {
  chain,
  expectContiguous,
  ownerPid,
  queueServicesAvailable,
  startQueueRig,
  type QueueRig,
} from './support/queue-app';
import { until } from '../support/until';

const available = await queueServicesAvailable('queue mode with 2 worker processes');

describe.runIf(available)('queue mode: 100 concurrent runs on 2 worker processes', () => {
  let rig: QueueRig;
  beforeAll(async () => {
    rig = await startQueueRig({ WORKERS: '2', WORKER_CONCURRENCY: '20' });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it(
    'all succeed with complete, contiguous, per-run event streams (store and Redis bus)',
    { timeout: 120_000 },
    async () => {
      expect(rig.app.health().workers).toBe('queue (bullmq, 2 worker processes)');
      expect(rig.workerPids()).toHaveLength(2);
      const wf = await rig.createWorkflow(
        chain([
          { id: 'a', config: { sleepMs: 20 } },
          { id: 'b', config: { sleepMs: 20, value: 'done' } },
        ]),
      );

      const received = new Map<string, TraceEvent[]>();
      const unsubs: Array<() => void> = [];
      const runs = await Promise.all(
        Array.from({ length: 100 }, async () => {
          const run = await rig.start(wf);
          expect(run.status).toBe('queued'); // the API process only records and enqueues
          const got: TraceEvent[] = [];
          received.set(run.id, got);
          unsubs.push(rig.app.bus.subscribe(run.id, 0, (e) => got.push(e)));
          return run;
        }),
      );
      expect(new Set(runs.map((r) => r.id)).size).toBe(100);

      await until(
        async () => {
          const done = await Promise.all(runs.map((r) => rig.run(r.id)));
          return done.every((r) => ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(r.status));
        },
        'all 100 runs to finish',
        90_000,
        200,
      );
      // The bus may deliver the last events a moment after the store has them.
      await until(
        () => [...received.values()].every((g) => g.some((e) => e.type === 'run.succeeded' || e.type === 'run.failed')),
        'the terminal event of every run on the bus',
        20_000,
      );
      for (const u of unsubs) u();

      const owners = new Set<string>();
      const workerPids = new Set(rig.workerPids());
      for (const r of runs) {
        const run = await rig.run(r.id);
        expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
        expect(run.outputs).toEqual({ last: 'done' });
        owners.add(run.ownerId!);
        expect(workerPids.has(ownerPid(run.ownerId)), `owner ${run.ownerId} is one of the worker processes`).toBe(true);

        const stored = await rig.events(r.id);
        expect(expectContiguous(stored), `contiguous seq for ${r.id}: ${stored.map((e) => e.seq).join(',')}`).toBe(
          true,
        );
        expect(stored.every((e) => e.runId === r.id)).toBe(true);
        expect(stored[0].type).toBe('run.started');
        expect(stored.at(-1)!.type).toBe('run.succeeded');
        expect(stored.filter((e) => e.type === 'run.started')).toHaveLength(1);
        expect(stored.filter((e) => e.type === 'node.succeeded').map((e) => e.nodeId)).toEqual([
          'start',
          'a',
          'b',
          'end',
        ]);

        const live = received.get(r.id)!;
        expect(
          live.every((e) => e.runId === r.id),
          'no event of another run on this subscription',
        ).toBe(true);
        expect(live.map((e) => e.seq)).toEqual(stored.map((e) => e.seq));
        expect(live).toEqual(stored);
      }
      // Both worker processes executed runs.
      expect(owners.size).toBe(2);

      // Every probe node ran exactly once per run.
      const counts = rig.counts();
      for (const r of runs) {
        expect(counts[`${r.id}:a`]).toBe(1);
        expect(counts[`${r.id}:b`]).toBe(1);
      }
      expect(Object.keys(counts)).toHaveLength(200);
    },
  );
});

if (!available)
  describe('queue mode: 100 concurrent runs on 2 worker processes', () =>
    it.skip('SKIPPED: needs PostgreSQL and Redis', () => {}));
