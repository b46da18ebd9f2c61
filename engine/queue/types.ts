/**
 * The run queue of queue mode: the API process records a run as `queued` and enqueues its id; worker processes
 * take jobs and call RunManager.executeQueued(runId). Adapters live beside this interface (bullmq-queue.ts).
 */

export interface RunJob {
  runId: string;
  workflowId: string;
  /**
   * Unset: the run's first execution (job id = runId, so a second enqueue while it is pending is a no-op).
   * Set: a resume of an interrupted run; the same key again is a no-op too (use the seq of its run.interrupted event).
   */
  resumeKey?: string;
}

export interface RunQueue {
  readonly kind: string;
  /** Idempotent per (runId, resumeKey). */
  enqueue(job: RunJob): Promise<void>;
  /** Whether any job of the run is waiting, delayed or being executed (so it will run without help). */
  pending(runId: string): Promise<boolean>;
  /** Puts the run's first-execution job back even if a finished one is still remembered (job lost or failed). */
  redispatch(job: RunJob): Promise<void>;
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** What a worker needs from the run manager (engine/runtime/run-manager.ts). */
export interface QueuedRunExecutor {
  readonly ownerId: string;
  executeQueued(runId: string): Promise<'executed' | 'resumed' | 'skipped'>;
  isActive(runId: string): boolean;
}

export interface RunWorker {
  /** Runs this worker's process is executing right now. */
  active(): number;
  /** Stops taking jobs. `force`: do not wait for running jobs (their locks lapse and another worker takes them). */
  close(force?: boolean): Promise<void>;
}
