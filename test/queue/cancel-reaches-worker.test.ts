// Guarantees: a cancel issued in the API process reaches the worker process executing the run — its in-flight node is
// aborted, the node ends `cancelled` and the run `cancelled` with exactly one run.cancelled event — and a run cancelled
// while still queued is never executed by a worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chain,
  expectContiguous,
  ownerPid,
  queueServicesAvailable,
  startQueueRig,
  type QueueRig,
} from './support/queue-app';
import { until } from '../support/until';

const available = await queueServicesAvailable('cancel in queue mode');

describe.runIf(available)('queue mode: cancel from the API process', () => {
  let rig: QueueRig;
  beforeAll(async () => {
    // One worker executing one run at a time, so a second run stays queued behind the first.
    rig = await startQueueRig({ WORKERS: '1', WORKER_CONCURRENCY: '1', WORKER_HEARTBEAT_MS: '200' });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('aborts the node in the worker; a queued run that was cancelled never executes', { timeout: 60_000 }, async () => {
    const wf = await rig.createWorkflow(chain([{ id: 'a' }, { id: 'hang', config: { hang: true } }, { id: 'after' }]));
    const { id: busy } = await rig.start(wf);
    await until(
      async () => (await rig.nodeStatus(busy, 'hang')) === 'running',
      'the hanging node running in the worker',
      60_000,
    );
    const holder = await rig.run(busy);
    expect(rig.workerPids()).toContain(ownerPid(holder.ownerId));
    expect(rig.app.runs.isActive(busy)).toBe(false); // it executes in the worker, not here

    const { id: waiting } = await rig.start(wf);
    expect((await rig.run(waiting)).status).toBe('queued');
    const c1 = await rig.app.runs.cancel(waiting);
    expect(c1.status).toBe('cancelled');

    const t0 = Date.now();
    const c2 = await rig.app.runs.cancel(busy);
    expect(c2.status).toBe('cancelled');
    await until(
      async () => (await rig.events(busy)).some((e) => e.type === 'run.cancelled'),
      'run.cancelled written by the worker',
      15_000,
      20,
    );
    const latency = Date.now() - t0;
    expect(latency).toBeLessThan(5_000);

    const run = await rig.run(busy);
    expect(run.status).toBe('cancelled');
    const nodes = Object.fromEntries((await rig.app.store.getNodeRuns(busy)).map((n) => [n.nodeId, n.status]));
    expect(nodes).toMatchObject({ a: 'succeeded', hang: 'cancelled' });
    expect(nodes.after).toBeUndefined();
    const counts = rig.counts();
    expect(counts[`${busy}:hang:aborted`], 'the node saw its abort signal in the worker').toBe(1);
    expect(counts[`${busy}:after`]).toBeUndefined();
    const events = await rig.events(busy);
    expect(expectContiguous(events)).toBe(true);
    expect(events.filter((e) => e.type === 'run.cancelled')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('run.cancelled');

    // The queued run's job is taken once the worker is free, and skipped: nothing of it executes.
    await until(
      async () => (await rig.app.queue!.queue.queue.getJob(waiting))?.getState().then((s) => s === 'completed'),
      "the cancelled run's job to be done",
      15_000,
    );
    expect(Object.keys(rig.counts()).filter((k) => k.startsWith(waiting))).toEqual([]);
    expect((await rig.run(waiting)).status).toBe('cancelled');
    expect((await rig.events(waiting)).map((e) => e.type)).toEqual(['run.cancelled']);
    console.log(`[queue] cancel reached the worker and the run ended in ${latency} ms`);
  });
});

if (!available)
  describe('queue mode: cancel from the API process', () => it.skip('SKIPPED: needs PostgreSQL and Redis', () => {}));
