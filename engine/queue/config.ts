/**
 * Queue-mode settings from the environment (the README lists them). Queue mode is on when REDIS_URL is set and
 * QUEUE_MODE=1 or WORKERS=n>0; a worker process (scripts/worker.ts) always runs in it.
 */
import { PaiError } from '../errors';

export interface QueueConfig {
  /** Queue mode requested (QUEUE_MODE=1 or WORKERS>0). */
  enabled: boolean;
  /** Worker processes the app spawns itself (0: run `npm run worker` separately). */
  workers: number;
  redisUrl?: string;
  /**
   * Key prefix shared with the event bus (REDIS_PREFIX, default `paiflow:`); BullMQ keys live under `<prefix>bull:`.
   */
  prefix: string;
  queueName: string;
  /** Jobs one worker process executes at once. */
  workerConcurrency: number;
  /** Jobs executing at once across every worker (0 = no global limit). */
  globalConcurrency: number;
  /** Runs of one workflow executing at once across every worker (0 = no limit). */
  workflowConcurrency: number;
  /** A job's lock: if its worker stops renewing it (killed), the job is re-delivered about this long after. */
  lockMs: number;
  /**
   * How often a job may be re-delivered after its worker died before it is failed (the reaper still recovers the run).
   */
  maxStalled: number;
  /** Run heartbeat of a worker (also how soon a cancel from another process reaches it). */
  heartbeatMs: number;
  /** A run whose owner has not heart-beaten for this long is considered orphaned. */
  staleMs: number;
  /** How often workers (and the app) reap orphaned runs. */
  reaperMs: number;
  /** An enqueue that takes longer than this fails the run with QUEUE_UNAVAILABLE (503). */
  enqueueTimeoutMs: number;
  /** On SIGTERM a worker waits this long for its running runs before exiting (the rest are re-delivered). */
  shutdownGraceMs: number;
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new PaiError('INVALID_CONFIG', `${name} must be an integer >= ${min} (got "${raw}")`, { status: 500 });
  return n;
}

export function readQueueConfig(env: NodeJS.ProcessEnv = process.env): QueueConfig {
  const workers = int(env, 'WORKERS', 0);
  const heartbeatMs = int(env, 'WORKER_HEARTBEAT_MS', 1_000, 50);
  return {
    enabled: env.QUEUE_MODE === '1' || workers > 0,
    workers,
    redisUrl: env.REDIS_URL || undefined,
    prefix: env.REDIS_PREFIX || 'paiflow:',
    queueName: env.QUEUE_NAME || 'runs',
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 20, 1),
    globalConcurrency: int(env, 'QUEUE_GLOBAL_CONCURRENCY', 0),
    workflowConcurrency: int(env, 'QUEUE_WORKFLOW_CONCURRENCY', 0),
    lockMs: int(env, 'QUEUE_LOCK_MS', 30_000, 500),
    maxStalled: int(env, 'QUEUE_MAX_STALLED', 2),
    heartbeatMs,
    staleMs: int(env, 'RUN_STALE_MS', Math.max(20_000, heartbeatMs * 4), 100),
    reaperMs: int(env, 'QUEUE_REAPER_MS', 15_000, 100),
    enqueueTimeoutMs: int(env, 'QUEUE_ENQUEUE_TIMEOUT_MS', 5_000, 100),
    shutdownGraceMs: int(env, 'WORKER_SHUTDOWN_GRACE_MS', 10_000),
  };
}
