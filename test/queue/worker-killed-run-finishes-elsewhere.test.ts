// Guarantees: when a worker process is SIGKILLed mid-run its job is re-delivered (no auto-resume involved) and another
// worker finishes the run without executing completed nodes again; the reaper never leaves a run stuck — an orphaned
// `running` run is marked interrupted (and with AUTO_RESUME_INTERRUPTED=1 resumed), and a `queued` run whose job was
// lost is queued again.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRunId } from '@/engine/runtime/run-manager';
import {
  chain,
  expectContiguous,
  ownerPid,
  queueServicesAvailable,
  startQueueRig,
  type QueueRig,
} from './support/queue-app';
import { until } from '../support/until';

const available = await queueServicesAvailable('worker SIGKILL / reaper');

const FAST = { QUEUE_LOCK_MS: '1500', RUN_STALE_MS: '1500', WORKER_HEARTBEAT_MS: '200', QUEUE_REAPER_MS: '500' };

async function zombie(rig: QueueRig, value: string) {
  const wf = await rig.createWorkflow(chain([{ id: 'a' }, { id: 'b', config: { value } }]));
  const workflow = (await rig.app.store.getWorkflow(wf))!;
  const { run } = await rig.app.store.createRun({
    id: newRunId(),
    workflowId: wf,
    versionId: null,
    engine: 'dag',
    status: 'running',
    inputs: {},
    graph: workflow.graph,
  });
  // "running" on a process that stopped heart-beating long ago, and nothing in the queue for it.
  expect(
    await rig.app.store.updateRun(run.id, {
      ownerId: '999999-dead',
      heartbeatAt: new Date(Date.now() - 60_000).toISOString(),
      startedAt: new Date().toISOString(),
    }),
  ).toBe(true);
  return run.id;
}

describe.runIf(available)('queue mode: a killed worker and orphaned runs (AUTO_RESUME_INTERRUPTED off)', () => {
  let rig: QueueRig;
  beforeAll(async () => {
    rig = await startQueueRig({ WORKERS: '2', AUTO_RESUME_INTERRUPTED: '0', ...FAST });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it(
    'SIGKILL of the worker holding a run: another worker finishes it; completed nodes ran once',
    { timeout: 90_000 },
    async () => {
      const gate = path.join(rig.scratch, 'p3.gate');
      const wf = await rig.createWorkflow(
        chain([
          { id: 'p1' },
          { id: 'p2' },
          { id: 'p3', config: { gateFile: gate } },
          { id: 'p4', config: { value: 'finished' } },
        ]),
      );
      const { id: runId } = await rig.start(wf);

      // p1 and p2 are durable and p3 is executing on some worker.
      await until(
        async () =>
          (await rig.nodeStatus(runId, 'p2')) === 'succeeded' && (await rig.nodeStatus(runId, 'p3')) === 'running',
        'p3 running',
        60_000,
      );
      const holder = await rig.run(runId);
      expect(holder.status).toBe('running');
      const victim = ownerPid(holder.ownerId);
      expect(rig.workerPids()).toContain(victim);
      expect(rig.counts()).toEqual({ [`${runId}:p1`]: 1, [`${runId}:p2`]: 1, [`${runId}:p3`]: 1 });

      process.kill(victim, 'SIGKILL');
      writeFileSync(gate, 'open'); // the next execution of p3 may pass

      // passes through `interrupted`
      const done = await rig.waitForStatus(runId, ['succeeded', 'failed', 'cancelled'], 60_000);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.outputs).toEqual({ last: 'finished' });
      expect(ownerPid(done.ownerId)).not.toBe(victim);

      // p1, p2 ran once in total (in the killed worker); p3 ran again (it never finished there), p4 once.
      expect(rig.counts()).toEqual({ [`${runId}:p1`]: 1, [`${runId}:p2`]: 1, [`${runId}:p3`]: 2, [`${runId}:p4`]: 1 });
      const nodes = Object.fromEntries((await rig.app.store.getNodeRuns(runId)).map((n) => [n.nodeId, n]));
      expect(nodes.p1).toMatchObject({ status: 'succeeded', attempt: 1 });
      expect(nodes.p2).toMatchObject({ status: 'succeeded', attempt: 1 });
      expect(nodes.p3).toMatchObject({ status: 'succeeded', attempt: 2 });

      const events = await rig.events(runId);
      expect(expectContiguous(events)).toBe(true);
      expect(events.filter((e) => e.type === 'run.interrupted')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'run.started').map((e) => e.data.resumed)).toEqual([false, true]);
      const afterResume = events.slice(events.findIndex((e) => e.type === 'run.started' && e.data.resumed));
      expect(afterResume.filter((e) => e.type === 'node.started').map((e) => e.nodeId)).toEqual(['p3', 'p4', 'end']);
      expect(events.at(-1)!.type).toBe('run.succeeded');
    },
  );

  it(
    'SIGTERM (deploy) of the worker holding a run: after the grace ' +
      'period it exits without cancelling; another worker finishes the run',
    // Retried once. About 1 run in 13 the handed-over run was not finished within 60 s: the job's new holder lost the
    // race to mark the orphan interrupted and ended its job (fixed 2026-12-03, test/engine/an-orphan-another-…). The
    // retry stays until CI runs have shown it gone; a real regression fails both tries.
    { timeout: 150_000, retry: 1 },
    async () => {
      const gate = path.join(rig.scratch, 'term.gate');
      const wf = await rig.createWorkflow(
        chain([
          { id: 'p1' },
          { id: 'slow', config: { gateFile: gate } },
          { id: 'p2', config: { value: 'handed over' } },
        ]),
      );
      const { id: runId } = await rig.start(wf);
      await until(async () => (await rig.nodeStatus(runId, 'slow')) === 'running', 'slow running', 60_000);
      const victim = ownerPid((await rig.run(runId)).ownerId);
      process.kill(victim, 'SIGTERM');
      await until(
        () => {
          try {
            process.kill(victim, 0);
            return false;
          } catch {
            return true;
          }
        },
        'the worker to exit',
        20_000,
      );
      expect((await rig.run(runId)).status).toBe('running'); // not cancelled by the shutdown
      writeFileSync(gate, 'open');
      const done = await rig.waitForStatus(runId, ['succeeded', 'failed', 'cancelled'], 60_000);
      expect(done.status).toBe('succeeded');
      expect(done.outputs).toEqual({ last: 'handed over' });
      expect(ownerPid(done.ownerId)).not.toBe(victim);
      expect(rig.counts()[`${runId}:p1`]).toBe(1);
      const events = await rig.events(runId);
      expect(expectContiguous(events)).toBe(true);
      expect(events.map((e) => e.type)).not.toContain('run.cancelled');
    },
  );

  it(
    'a running run whose owner is gone and that has no job is marked interrupted, not left running',
    { timeout: 30_000 },
    async () => {
      const runId = await zombie(rig, 'x');
      const r = await rig.waitForStatus(runId, ['interrupted', 'succeeded', 'failed'], 20_000);
      expect(r.status).toBe('interrupted');
      // A later reaper pass (it reaps a second orphan made after the first was marked) leaves it interrupted without
      // AUTO_RESUME: no fixed wait, the second orphan's status is the sign that the reaper has been round again.
      const later = await zombie(rig, 'y');
      expect((await rig.waitForStatus(later, ['interrupted', 'succeeded', 'failed'], 20_000)).status).toBe(
        'interrupted',
      );
      expect((await rig.run(runId)).status).toBe('interrupted');
      expect((await rig.events(runId)).map((e) => e.type)).toEqual(['run.interrupted']);
    },
  );

  it('a queued run whose job was lost is queued again (not interrupted) and runs', { timeout: 60_000 }, async () => {
    const wf = await rig.createWorkflow(chain([{ id: 'a', config: { value: 'requeued' } }]));
    const workflow = (await rig.app.store.getWorkflow(wf))!;
    // Recorded as queued but never enqueued (as after Redis lost its data).
    const { run } = await rig.app.store.createRun({
      id: newRunId(),
      workflowId: wf,
      versionId: null,
      engine: 'dag',
      status: 'queued',
      inputs: {},
      graph: workflow.graph,
    });
    const done = await rig.waitForStatus(run.id, ['succeeded', 'failed', 'cancelled'], 30_000);
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ last: 'requeued' });
    const events = await rig.events(run.id);
    expect(events.map((e) => e.type)).not.toContain('run.interrupted');
    expect(events.filter((e) => e.type === 'run.started').map((e) => e.data.resumed)).toEqual([false]);
    expect(rig.counts()[`${run.id}:a`]).toBe(1);
  });
});

describe.runIf(available)('queue mode: orphaned runs with AUTO_RESUME_INTERRUPTED=1', () => {
  let rig: QueueRig;
  beforeAll(async () => {
    rig = await startQueueRig({ WORKERS: '1', AUTO_RESUME_INTERRUPTED: '1', ...FAST });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('a running run whose owner is gone and that has no job is reaped and resumed', { timeout: 30_000 }, async () => {
    const runId = await zombie(rig, 'revived');
    const done = await rig.waitForStatus(runId, ['succeeded', 'failed', 'cancelled'], 20_000);
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ last: 'revived' });
    const events = await rig.events(runId);
    expect(expectContiguous(events)).toBe(true);
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['run.interrupted', 'run.started']);
    expect(events.at(-1)!.type).toBe('run.succeeded');
    expect(rig.counts()).toEqual({ [`${runId}:a`]: 1, [`${runId}:b`]: 1 });
  });
});

if (!available)
  describe('queue mode: a killed worker and orphaned runs', () =>
    it.skip('SKIPPED: needs PostgreSQL and Redis', () => {}));
