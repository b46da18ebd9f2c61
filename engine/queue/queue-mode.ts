/**
 * Queue mode, as lib/server/app.ts wires it. The app process (role `app`) records runs as `queued` and enqueues them
 * (RunManager `dispatch`), and with WORKERS=n forks n worker processes; a worker process (role `worker`,
 * scripts/worker.ts) takes jobs and executes them. Both keep reaping on an interval (one process per interval,
 * by a Redis lock):
 *  - a `queued` run whose job is gone (Redis lost its data) is put back on the queue;
 *  - a `running` run whose owner stopped heart-beating is marked `interrupted` (RunManager.recover) and, with
 *    AUTO_RESUME_INTERRUPTED=1, enqueued again as a resume (completed nodes are not executed again).
 * `queued` runs are never "recovered" as interrupted in queue mode: waiting in the queue is not being orphaned.
 */
import { PaiError } from '../errors';
import type { EventBus, TraceEvent } from '../events/types';
import type { RunRecord, RunStore } from '../store/types';
import { BullRunQueue, startBullWorker } from './bullmq-queue';
import type { QueueConfig } from './config';
import type { QueuedRunExecutor, RunWorker } from './types';
import { WorkerProcesses } from './worker-processes';

export type QueueRole = 'app' | 'worker';

export interface QueueModeDeps {
  config: QueueConfig;
  role: QueueRole;
  dbKind: 'pglite' | 'postgres';
  /** The store as opened (not the wrapped one). */
  store: RunStore;
  bus: EventBus;
  autoResume: boolean;
  log?: (msg: string) => void;
}

/** What the reaper needs from the run manager. */
export interface Recoverer {
  recover(staleBefore?: Date): Promise<string[]>;
}

/** Whether queue mode is on for this process; throws a clear error when it is asked for but cannot work. */
export function checkQueueMode(deps: Pick<QueueModeDeps, 'config' | 'role' | 'dbKind'>): boolean {
  if (deps.role !== 'worker' && !deps.config.enabled) return false;
  const what =
    deps.role === 'worker'
      ? 'a worker process'
      : `queue mode (${deps.config.workers > 0 ? `WORKERS=${deps.config.workers}` : 'QUEUE_MODE=1'})`;
  if (!deps.config.redisUrl) {
    throw new PaiError(
      'QUEUE_NEEDS_REDIS',
      `${what} needs Redis: set REDIS_URL (or unset QUEUE_MODE/WORKERS to run workflows in the app process)`,
    );
  }
  if (deps.dbKind !== 'postgres') {
    throw new PaiError(
      'QUEUE_NEEDS_POSTGRES',
      `${what} needs PostgreSQL: set DATABASE_URL. The embedded database (PGlite) ` +
        'can be opened by one process only, and workers are separate processes',
    );
  }
  return true;
}

/** Returns null when queue mode is off for this process; throws like checkQueueMode when it cannot work. */
export function openQueueMode(deps: QueueModeDeps): QueueMode | null {
  return checkQueueMode(deps) ? new QueueMode(deps) : null;
}

/**
 * A store whose findStaleRuns() leaves `queued` runs alone (in queue mode they wait for a worker, they are not
 * orphans).
 */
export function withoutQueuedRecovery<T extends RunStore>(store: T): T {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'findStaleRuns')
        return async (staleBefore: Date) =>
          (await target.findStaleRuns(staleBefore)).filter((r) => r.status !== 'queued');
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<never>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]);
}

export class QueueMode {
  readonly queue: BullRunQueue;
  worker?: RunWorker;
  processes?: WorkerProcesses;
  private reaping = false;
  private readonly log: (msg: string) => void;

  constructor(private readonly d: QueueModeDeps) {
    this.log = d.log ?? ((m) => console.warn(m));
    this.queue = new BullRunQueue({
      redisUrl: d.config.redisUrl!,
      prefix: d.config.prefix,
      queueName: d.config.queueName,
      globalConcurrency: d.config.globalConcurrency,
    });
  }

  get config(): QueueConfig {
    return this.d.config;
  }

  /** Options for this process's RunManager. */
  runManagerOptions(): { dispatch?: (run: RunRecord) => Promise<void>; heartbeatMs: number; staleMs: number } {
    return {
      heartbeatMs: this.d.config.heartbeatMs,
      staleMs: this.d.config.staleMs,
      ...(this.d.role === 'app' ? { dispatch: (run: RunRecord) => this.dispatch(run) } : {}),
    };
  }

  /**
   * RunManager `dispatch`: enqueues the new run. If Redis cannot take it in time the run is failed at once with
   * QUEUE_UNAVAILABLE (and a run.failed event) and the caller gets a 503 — never a run left `queued` unannounced.
   */
  async dispatch(run: RunRecord): Promise<void> {
    try {
      await withTimeout(
        this.queue.enqueue({ runId: run.id, workflowId: run.workflowId }),
        this.d.config.enqueueTimeoutMs,
        'enqueue',
      );
    } catch (e) {
      const error = {
        code: 'QUEUE_UNAVAILABLE',
        message: `the run queue is unavailable (${(e as Error).message}); the run was not started`,
      };
      const failed = await this.d.store.updateRun(
        run.id,
        { status: 'failed', error, finishedAt: new Date().toISOString() },
        ['queued'],
      );
      if (!failed) return; // the enqueue went through after all and a worker already took the run
      const ev: TraceEvent = {
        seq: (await this.d.store.maxSeq(run.id)) + 1,
        runId: run.id,
        ts: new Date().toISOString(),
        type: 'run.failed',
        spanId: 'run',
        data: { error },
      };
      await this.d.store.commit(run.id, { events: [ev] }).catch(() => {});
      this.d.bus.publish(ev);
      throw new PaiError('QUEUE_UNAVAILABLE', error.message, { retryable: true });
    }
  }

  /** Enqueues a resume of an interrupted run (idempotent: keyed by the run's last seq). */
  async resumeLater(runId: string): Promise<void> {
    const run = await this.d.store.getRun(runId);
    if (!run || run.status !== 'interrupted') return;
    await this.queue.enqueue({
      runId,
      workflowId: run.workflowId,
      resumeKey: String(await this.d.store.maxSeq(runId)),
    });
  }

  /** One reaper pass (see the file comment). At most one process reaps per interval. */
  async reap(runs: Recoverer): Promise<void> {
    if (this.reaping) return;
    this.reaping = true;
    try {
      const lock = await this.queue.connection.set(
        `${this.d.config.prefix}reaper-lock`,
        String(process.pid),
        'PX',
        Math.max(100, this.d.config.reaperMs - 50),
        'NX',
      );
      if (lock !== 'OK') return;
      await this.queue.applyGlobalConcurrency();
      const stale = await this.d.store.findStaleRuns(new Date(Date.now() - this.d.config.staleMs));
      for (const r of stale) {
        if (r.status === 'queued' && !(await this.queue.pending(r.id))) {
          await this.queue.redispatch({ runId: r.id, workflowId: r.workflowId });
          this.log(`[paiflow] run ${r.id} was queued without a job (Redis lost it?); queued it again`);
        }
      }
      const interrupted = await runs.recover();
      if (this.d.autoResume)
        for (const id of interrupted)
          await this.resumeLater(id).catch((e) =>
            this.log(`[paiflow] could not re-enqueue ${id}: ${(e as Error).message}`),
          );
    } catch (e) {
      this.log(`[paiflow] reaper pass failed: ${(e as Error).message}`);
    } finally {
      this.reaping = false;
    }
  }

  /**
   * Role app: applies the global limit and forks WORKERS worker processes. Role worker: starts taking jobs
   * (call it after every node type is registered).
   */
  async start(executor: QueuedRunExecutor): Promise<void> {
    await this.queue
      .applyGlobalConcurrency()
      .catch((e) => this.log(`[paiflow] could not set the global concurrency: ${(e as Error).message}`));
    if (this.d.role === 'worker') {
      this.worker = startBullWorker({
        redisUrl: this.d.config.redisUrl!,
        prefix: this.d.config.prefix,
        queueName: this.d.config.queueName,
        executor,
        getRun: (id) => this.d.store.getRun(id),
        concurrency: this.d.config.workerConcurrency,
        workflowConcurrency: this.d.config.workflowConcurrency,
        lockMs: this.d.config.lockMs,
        maxStalled: this.d.config.maxStalled,
        recheckMs: Math.max(250, Math.min(5_000, Math.floor(this.d.config.staleMs / 2))),
        log: this.log,
      });
    } else if (this.d.config.workers > 0) {
      this.processes = new WorkerProcesses({
        count: this.d.config.workers,
        stopTimeoutMs: this.d.config.shutdownGraceMs + 5_000,
        log: this.log,
      }).start();
    }
  }

  async close(opts: { force?: boolean } = {}): Promise<void> {
    await this.processes?.stop();
    await this.worker?.close(opts.force);
    await this.queue.close();
  }
}

/**
 * The knowledge service of a worker process when knowledge bases use the embedded index (no ELASTICSEARCH_URL):
 * that index is single-process and lives in the app, so a worker cannot search it. Searches fail clearly instead of
 * silently finding nothing; set ELASTICSEARCH_URL to use knowledge bases from queued runs.
 */
export function knowledgeOnlyInApp<T>(): T {
  const unavailable = () =>
    Promise.reject(
      new PaiError(
        'KNOWLEDGE_UNAVAILABLE',
        'knowledge bases on the embedded index can only be searched ' +
          'by the app process; queue workers need ELASTICSEARCH_URL',
      ),
    );
  const own: Record<string, unknown> = {
    describeStore: () => 'embedded (app process only; queue workers need ELASTICSEARCH_URL)',
    close: async () => {},
    whenIdle: async () => {},
  };
  return new Proxy(
    {},
    {
      get: (_t, prop) =>
        typeof prop === 'string' && prop in own ? own[prop] : prop === 'then' ? undefined : unavailable,
    },
  ) as T;
}
