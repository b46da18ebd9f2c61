/**
 * Queue-mode settings (their variables are in engine/config/variables.ts and docs/configuration.md). Queue mode is
 * on when REDIS_URL is set and QUEUE_MODE=1 or WORKERS=n>0; a worker process (scripts/worker.ts) always runs in it.
 */
import type { Settings } from '../config/settings';

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

/** The queue config of the settings `s` (the composition root's: lib/server/app.ts). */
export function readQueueConfig(s: Settings): QueueConfig {
  return {
    enabled: s.QUEUE_MODE || s.WORKERS > 0,
    workers: s.WORKERS,
    redisUrl: s.REDIS_URL,
    prefix: s.REDIS_PREFIX,
    queueName: s.QUEUE_NAME,
    workerConcurrency: s.WORKER_CONCURRENCY,
    globalConcurrency: s.QUEUE_GLOBAL_CONCURRENCY,
    workflowConcurrency: s.QUEUE_WORKFLOW_CONCURRENCY,
    lockMs: s.QUEUE_LOCK_MS,
    maxStalled: s.QUEUE_MAX_STALLED,
    heartbeatMs: s.WORKER_HEARTBEAT_MS,
    staleMs: s.RUN_STALE_MS ?? Math.max(20_000, s.WORKER_HEARTBEAT_MS * 4),
    reaperMs: s.QUEUE_REAPER_MS,
    enqueueTimeoutMs: s.QUEUE_ENQUEUE_TIMEOUT_MS,
    shutdownGraceMs: s.WORKER_SHUTDOWN_GRACE_MS,
  };
}
