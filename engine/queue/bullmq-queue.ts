/**
 * RunQueue on BullMQ (Redis). One job per run execution: job id = runId (a resume of an interrupted run:
 * `<runId>-resume-<key>`), so enqueuing the same run twice while it is pending is a no-op. Workers hold a lock on
 * each job they execute and renew it; a killed worker's lock lapses and BullMQ's stalled check re-delivers the job
 * to another worker, whose executeQueued() recovers the orphaned run and resumes it from its snapshots.
 * Limits: WORKER_CONCURRENCY jobs per worker process, an optional global limit (BullMQ global concurrency) and an
 * optional per-workflow limit (WorkflowSlots: Redis leases; a job over the limit is delayed, not failed).
 */
import Redis from 'ioredis';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { PaiError } from '../errors';
import type { RunRecord } from '../store/types';
import type { QueuedRunExecutor, RunJob, RunQueue, RunWorker } from './types';
import { WorkflowSlots } from './workflow-slots';

const PENDING_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

export interface BullQueueOptions {
  redisUrl: string;
  /** Key prefix (e.g. `paiflow:`); BullMQ's keys go under `<prefix>bull:<queueName>:`. */
  prefix: string;
  queueName?: string;
  /** Jobs executing at once across all workers (0/unset: no limit). */
  globalConcurrency?: number;
}

export function bullPrefix(prefix: string): string {
  return `${prefix}bull`;
}

export function jobIdOf(job: Pick<RunJob, 'runId' | 'resumeKey'>): string {
  // BullMQ rejects ids with ':' and integer-looking ids; run ids are `run_<hex>`.
  return job.resumeKey ? `${job.runId}-resume-${job.resumeKey.replace(/[^A-Za-z0-9_-]/g, '_')}` : job.runId;
}

export class BullRunQueue implements RunQueue {
  readonly kind = 'bullmq';
  readonly connection: Redis;
  readonly queue: Queue<RunJob>;

  constructor(readonly o: BullQueueOptions) {
    // Fail commands after a couple of reconnect attempts (an enqueue must not hang while Redis is away).
    this.connection = new Redis(o.redisUrl, { maxRetriesPerRequest: 2 });
    this.connection.on('error', () => {});
    this.queue = new Queue<RunJob>(o.queueName ?? 'runs', {
      connection: this.connection,
      prefix: bullPrefix(o.prefix),
      defaultJobOptions: {
        attempts: 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
    this.queue.on('error', () => {});
  }

  /** Applies QUEUE_GLOBAL_CONCURRENCY (kept in Redis; re-applied by the reaper in case Redis lost it). */
  async applyGlobalConcurrency(): Promise<void> {
    if (this.o.globalConcurrency && this.o.globalConcurrency > 0)
      await this.queue.setGlobalConcurrency(this.o.globalConcurrency);
  }

  async enqueue(job: RunJob): Promise<void> {
    await this.queue.add(
      'run',
      { runId: job.runId, workflowId: job.workflowId, ...(job.resumeKey ? { resumeKey: job.resumeKey } : {}) },
      { jobId: jobIdOf(job) },
    );
  }

  async pending(runId: string): Promise<boolean> {
    const job = await this.queue.getJob(runId);
    if (!job) return false;
    return PENDING_STATES.has(await job.getState());
  }

  async redispatch(job: RunJob): Promise<void> {
    const existing = await this.queue.getJob(jobIdOf(job));
    if (existing) {
      if (PENDING_STATES.has(await existing.getState())) return;
      await existing.remove().catch(() => {});
    }
    await this.enqueue(job);
  }

  async counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts();
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => {});
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}

export interface BullWorkerOptions {
  redisUrl: string;
  prefix: string;
  queueName?: string;
  executor: QueuedRunExecutor;
  getRun(runId: string): Promise<RunRecord | null>;
  concurrency: number;
  /** Per-workflow limit (0: none). */
  workflowConcurrency?: number;
  lockMs?: number;
  maxStalled?: number;
  /** A job whose run is held by another live process is looked at again after this long. */
  recheckMs?: number;
  log?: (msg: string) => void;
}

/** Starts taking run jobs in this process. */
export function startBullWorker(o: BullWorkerOptions): RunWorker {
  const connection = new Redis(o.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  // The same error repeats many times a second while Redis is away: say it once per 10 s.
  const lastLogged = new Map<string, number>();
  const log = (msg: string) => {
    const now = Date.now();
    if ((lastLogged.get(msg) ?? 0) > now - 10_000) return;
    lastLogged.set(msg, now);
    if (lastLogged.size > 1000) lastLogged.clear();
    (o.log ?? (() => {}))(msg);
  };
  const lockMs = o.lockMs ?? 30_000;
  const slots =
    o.workflowConcurrency && o.workflowConcurrency > 0
      ? new WorkflowSlots(connection, {
          prefix: o.prefix,
          limit: o.workflowConcurrency,
          leaseMs: Math.max(lockMs, 10_000),
        })
      : undefined;
  const recheckMs = o.recheckMs ?? 1_000;
  let active = 0;

  const defer = async (job: Job<RunJob>, token: string | undefined, ms: number): Promise<never> => {
    await job.moveToDelayed(Date.now() + Math.max(1, Math.round(ms)), token);
    throw new DelayedError();
  };

  const processor = async (job: Job<RunJob>, token?: string) => {
    const { runId, workflowId } = job.data;
    if (slots && !(await slots.acquire(workflowId, runId))) {
      // At the workflow's limit: look again later (exponential, capped, jittered); a delay is not a failed attempt.
      const n = (job.data as RunJob & { deferrals?: number }).deferrals ?? 0;
      await job.updateData({ ...job.data, deferrals: n + 1 } as RunJob);
      return defer(job, token, Math.min(2_000, 50 * 2 ** Math.min(n, 6)) * (0.5 + Math.random()));
    }
    let free = true;
    active++;
    try {
      let outcome: 'executed' | 'resumed' | 'skipped';
      try {
        outcome = await o.executor.executeQueued(runId);
      } catch (e) {
        // RUN_ACTIVE: someone else resumed/claimed it meanwhile — look at it again below. Other engine errors are
        // deterministic (invalid graph, deleted workflow): retrying the job would not help.
        if (e instanceof PaiError && e.code === 'RUN_ACTIVE') outcome = 'skipped';
        else if (e instanceof PaiError) throw new UnrecoverableError(`${e.code}: ${e.message}`);
        else throw e;
      }
      if (outcome === 'skipped') {
        const run = await o.getRun(runId);
        if (run && run.status === 'running' && run.ownerId !== o.executor.ownerId) {
          // Held by another process that still heart-beats (a duplicate delivery), or whose death is not yet
          // provable (heartbeat newer than the stale limit): come back until it ends or is orphaned.
          free = false;
          await defer(job, token, recheckMs);
        }
      }
      return outcome;
    } finally {
      active--;
      if (slots) await slots.release(workflowId, runId, free).catch(() => {});
    }
  };

  const worker = new Worker<RunJob>(o.queueName ?? 'runs', processor, {
    connection,
    prefix: bullPrefix(o.prefix),
    concurrency: o.concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: o.maxStalled ?? 2,
    name: o.executor.ownerId,
  });
  worker.on('error', (e) => log(`[paiflow worker ${process.pid}] queue error: ${e.message}`));
  worker.on('failed', (job, e) => {
    if (!(e instanceof DelayedError) && e?.name !== 'DelayedError')
      log(`[paiflow worker ${process.pid}] run job ${job?.id ?? '?'} failed: ${e.message}`);
  });

  return {
    active: () => active,
    async close(force = false) {
      await worker.close(force).catch(() => {});
      slots?.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
