// Guarantees: the BullMQ RunQueue enqueues one job per run (a duplicate enqueue is a no-op), enforces the per-workflow
// and global concurrency limits across workers, lets a job whose run is held by another live process wait instead of
// running it twice, frees a dead worker's workflow slots when their lease lapses, and queue mode refuses to start
// without PostgreSQL or Redis with a clear error.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { PaiError } from '@/engine/errors';
import { BullRunQueue, startBullWorker } from '@/engine/queue/bullmq-queue';
import { parseSettings } from '@/engine/config/settings';
import { readQueueConfig } from '@/engine/queue/config';
import { openQueueMode } from '@/engine/queue/queue-mode';
import type { QueuedRunExecutor, RunWorker } from '@/engine/queue/types';
import { WorkflowSlots } from '@/engine/queue/workflow-slots';
import type { RunRecord } from '@/engine/store/types';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from './support/queue-app';
import { until } from '../support/until';

const redisOk = await redisAvailable();
if (!redisOk) console.warn(`[tests] Redis not reachable at ${TEST_REDIS_URL}: BullMQ RunQueue suite SKIPPED`);

const cfg = (env: Record<string, string>) => readQueueConfig(parseSettings(env));

describe('queue mode configuration', () => {
  const deps = (env: Record<string, string>, dbKind: 'pglite' | 'postgres') => ({
    config: cfg(env),
    role: 'app' as const,
    dbKind,
    store: {} as never,
    bus: {} as never,
    autoResume: false,
  });

  it('is off unless QUEUE_MODE=1 or WORKERS=n', () => {
    expect(openQueueMode(deps({ REDIS_URL: 'redis://x' }, 'postgres'))).toBeNull();
    expect(cfg({ WORKERS: '3' })).toMatchObject({ enabled: true, workers: 3, workerConcurrency: 20 });
  });

  it('refuses PGlite and a missing REDIS_URL with clear errors', () => {
    const noPg = (() => {
      try {
        openQueueMode(deps({ QUEUE_MODE: '1', REDIS_URL: 'redis://x' }, 'pglite'));
      } catch (e) {
        return e;
      }
    })() as PaiError;
    expect(noPg).toBeInstanceOf(PaiError);
    expect(noPg.code).toBe('QUEUE_NEEDS_POSTGRES');
    expect(noPg.message).toMatch(/DATABASE_URL/);
    const noRedis = (() => {
      try {
        openQueueMode(deps({ WORKERS: '2' }, 'postgres'));
      } catch (e) {
        return e;
      }
    })() as PaiError;
    expect(noRedis.code).toBe('QUEUE_NEEDS_REDIS');
    expect(noRedis.message).toMatch(/REDIS_URL/);
    expect(() => cfg({ WORKER_CONCURRENCY: '0' })).toThrow(/WORKER_CONCURRENCY/);
  });

  it('the app refuses queue mode on the embedded database before opening anything', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-qcfg-'));
    Object.assign(process.env, { QUEUE_MODE: '1', REDIS_URL: TEST_REDIS_URL, DATA_DIR: dir, SEED_EXAMPLE: '0' });
    delete process.env.DATABASE_URL;
    try {
      const { createApp } = await import('@/lib/server/app');
      const { readConfig } = await import('@/lib/server/config');
      await expect(createApp(readConfig())).rejects.toMatchObject({ code: 'QUEUE_NEEDS_POSTGRES' });
      expect(existsSync(path.join(dir, 'paiflow.lock')), 'the embedded database was never opened').toBe(false);
    } finally {
      delete process.env.QUEUE_MODE;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(redisOk)('BullMQ RunQueue', () => {
  const prefix = `paiflow-qunit-${randomUUID().slice(0, 8)}:`;
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of closers.reverse()) await c().catch(() => {});
    await deleteKeys(TEST_REDIS_URL, prefix);
  });
  let qn = 0;
  const newQueue = (globalConcurrency?: number) => {
    const q = new BullRunQueue({ redisUrl: TEST_REDIS_URL, prefix, queueName: `q${qn++}`, globalConcurrency });
    closers.push(() => q.close());
    return q;
  };

  /** A stand-in for RunManager.executeQueued that records concurrency. */
  function fakeExecutor(ms: number, workflowOf: (runId: string) => string) {
    const stats = {
      calls: new Map<string, number>(),
      now: 0,
      max: 0,
      perWf: new Map<string, number>(),
      maxPerWf: new Map<string, number>(),
    };
    const make = (ownerId: string): QueuedRunExecutor => ({
      ownerId,
      isActive: () => false,
      async executeQueued(runId) {
        const wf = workflowOf(runId);
        stats.calls.set(runId, (stats.calls.get(runId) ?? 0) + 1);
        stats.now++;
        stats.max = Math.max(stats.max, stats.now);
        stats.perWf.set(wf, (stats.perWf.get(wf) ?? 0) + 1);
        stats.maxPerWf.set(wf, Math.max(stats.maxPerWf.get(wf) ?? 0, stats.perWf.get(wf)!));
        await new Promise((r) => setTimeout(r, ms));
        stats.now--;
        stats.perWf.set(wf, stats.perWf.get(wf)! - 1);
        return 'executed';
      },
    });
    return { stats, make };
  }

  const startWorker = (
    q: BullRunQueue,
    executor: QueuedRunExecutor,
    extra: Partial<Parameters<typeof startBullWorker>[0]> = {},
  ): RunWorker => {
    const w = startBullWorker({
      redisUrl: TEST_REDIS_URL,
      prefix,
      queueName: q.queue.name,
      executor,
      getRun: async () => null,
      concurrency: 10,
      lockMs: 5_000,
      ...extra,
    });
    closers.push(() => w.close(true));
    return w;
  };

  it('one job per run: a duplicate enqueue is a no-op; a resume is a separate, equally idempotent job', async () => {
    const q = newQueue();
    await q.enqueue({ runId: 'run_a', workflowId: 'wf' });
    await q.enqueue({ runId: 'run_a', workflowId: 'wf' });
    await q.enqueue({ runId: 'run_a', workflowId: 'wf', resumeKey: '7' });
    await q.enqueue({ runId: 'run_a', workflowId: 'wf', resumeKey: '7' });
    expect((await q.counts()).waiting).toBe(2);
    expect(await q.pending('run_a')).toBe(true);
    expect(await q.pending('run_b')).toBe(false);
    await q.redispatch({ runId: 'run_a', workflowId: 'wf' }); // pending: left alone
    expect((await q.counts()).waiting).toBe(2);
  });

  it('per-workflow limit holds across two workers; every run executes once', { timeout: 30_000 }, async () => {
    const q = newQueue();
    const ids = [
      ...Array.from({ length: 8 }, (_, i) => `run_A${i}`),
      ...Array.from({ length: 4 }, (_, i) => `run_B${i}`),
    ];
    const { stats, make } = fakeExecutor(150, (id) => id.slice(4, 5));
    startWorker(q, make('w1'), { workflowConcurrency: 2 });
    startWorker(q, make('w2'), { workflowConcurrency: 2 });
    for (const id of ids) await q.enqueue({ runId: id, workflowId: `wf_${id.slice(4, 5)}` });
    await until(() => ids.every((id) => stats.calls.get(id) === 1) && stats.now === 0, 'all runs executed', 20_000);
    expect(stats.maxPerWf.get('A')).toBe(2);
    expect(stats.maxPerWf.get('B')).toBe(2);
    expect([...stats.calls.values()].every((n) => n === 1)).toBe(true);
  });

  it('global limit holds across two workers', { timeout: 30_000 }, async () => {
    const q = newQueue(3);
    await q.applyGlobalConcurrency();
    const ids = Array.from({ length: 9 }, (_, i) => `run_G${i}`);
    const { stats, make } = fakeExecutor(150, () => 'G');
    startWorker(q, make('w1'));
    startWorker(q, make('w2'));
    for (const id of ids) await q.enqueue({ runId: id, workflowId: 'wf_G' });
    await until(() => ids.every((id) => stats.calls.get(id) === 1) && stats.now === 0, 'all runs executed', 20_000);
    expect(stats.max).toBe(3);
  });

  it('a job whose run another live process holds waits and is not executed twice', { timeout: 30_000 }, async () => {
    const q = newQueue();
    let status: RunRecord['status'] = 'running';
    let calls = 0;
    const executor: QueuedRunExecutor = {
      ownerId: 'me',
      isActive: () => false,
      executeQueued: async () => {
        calls++;
        return 'skipped';
      },
    };
    startWorker(q, executor, {
      getRun: async (id) => ({ id, status, ownerId: 'other-live-process' }) as RunRecord,
      recheckMs: 100,
    });
    await q.enqueue({ runId: 'run_dup', workflowId: 'wf' });
    await until(() => calls >= 3, 'the job to be looked at again', 10_000);
    expect(await q.pending('run_dup')).toBe(true); // still waiting for the other process
    status = 'succeeded';
    await until(
      async () => (await q.queue.getJob('run_dup'))?.getState().then((s) => s === 'completed'),
      'the job to complete',
      10_000,
    );
  });

  it("a dead worker's workflow slot frees itself when its lease lapses", async () => {
    const r1 = new Redis(TEST_REDIS_URL);
    const r2 = new Redis(TEST_REDIS_URL);
    closers.push(async () => {
      r1.disconnect();
      r2.disconnect();
    });
    const dead = new WorkflowSlots(r1, { prefix, limit: 1, leaseMs: 300 });
    const live = new WorkflowSlots(r2, { prefix, limit: 1, leaseMs: 300 });
    expect(await dead.acquire('wf_s', 'run_1')).toBe(true);
    dead.close(); // dies: stops renewing without releasing
    expect(await live.acquire('wf_s', 'run_2')).toBe(false);
    expect(await live.acquire('wf_s', 'run_1')).toBe(true); // the same run (a re-delivered job) gets its own slot back
    await live.release('wf_s', 'run_1');
    expect(await live.acquire('wf_s', 'run_2')).toBe(true);
    expect(await live.count('wf_s')).toBe(1);
    // While renewed, a lease outlives leaseMs.
    await new Promise((r) => setTimeout(r, 700));
    expect(await dead.acquire('wf_s', 'run_3')).toBe(false);
    live.close();
    await new Promise((r) => setTimeout(r, 400));
    expect(await dead.acquire('wf_s', 'run_3')).toBe(true);
    dead.close();
  });
});

if (!redisOk) describe('BullMQ RunQueue', () => it.skip(`SKIPPED: Redis not reachable at ${TEST_REDIS_URL}`, () => {}));
