/**
 * The main-thread side of a database thread (thread-serve.mjs): starts the worker, sends requests, settles their
 * promises. A thread with work in flight keeps the process alive; an idle one keeps nobody alive, like an in-process
 * database. If the thread dies, every request in flight is rejected.
 */
import { availableParallelism } from 'node:os';
import { existingAppFile } from '../../config/app-root';
import { Worker } from 'node:worker_threads';
import { defaultSettings } from '../../config/settings';

type Answer = { id: number; result?: unknown; error?: Record<string, unknown> };

type WorkerFile = 'pglite-worker.mjs' | 'pg-write-worker.mjs';

/**
 * The worker's file in the source tree (loaded by path from every runtime: Next's server, tsx, vitest), found from
 * the entry point (app-root.ts): a bundled module's own location says nothing about where the file is.
 */
function workerPath(workerFile: WorkerFile): string {
  return existingAppFile('engine', 'store', 'prisma', workerFile);
}

/**
 * How long a thread polls for its next request (thread-serve.mjs): only where it has a core of its own. `requested`:
 * what the opener was given (DB_THREAD_SPIN_MS); unset, the variable's default.
 */
export function spinMsFor(requested?: number): number {
  return availableParallelism() > 1 ? (requested ?? defaultSettings().DB_THREAD_SPIN_MS) : 0;
}

export class ThreadClient {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private closed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly label: string,
    private readonly toError: (fields: Record<string, unknown>) => Error,
  ) {}

  /** Starts the thread and waits until it says it is ready (or fails to start). */
  static async start(
    workerFile: WorkerFile,
    workerData: Record<string, unknown>,
    opts: { label: string; toError?: (fields: Record<string, unknown>) => Error },
  ): Promise<ThreadClient> {
    const worker = new Worker(workerPath(workerFile), { workerData });
    const client = new ThreadClient(worker, opts.label, opts.toError ?? ((f) => threadError(f)));
    const started = new Promise<void>((resolve, reject) => {
      client.pending.set(0, { resolve: () => resolve(), reject });
      worker.once('error', reject);
    });
    worker.on('message', (m: Answer) => client.settle(m));
    worker.on('error', (e) => client.failAll(e));
    worker.on('exit', (code) => client.failAll(new Error(`${opts.label} thread exited (code ${code})`)));
    await started;
    return client;
  }

  private settle(m: Answer) {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error) p.reject(this.toError(m.error));
    else p.resolve(m.result);
    if (this.pending.size === 0) this.worker.unref();
  }

  private failAll(e: unknown) {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  call(op: string, args: Record<string, unknown>): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error(`${this.label} is closed`));
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, ...args });
    });
  }

  /** Sends `close` (the thread releases what it holds), then ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.call('close', {}).catch(() => {});
    this.closed = true;
    await this.worker.terminate();
  }
}

/**
 * An error answered by a thread, rebuilt with its PostgreSQL fields (code, constraint, …); `make` picks its class
 * (`isDatabase`: it came from the database, not from the thread's own code).
 */
export function threadError(
  fields: Record<string, unknown>,
  make = (message: string, _isDatabase: boolean): Error => new Error(message),
): Error {
  const { message, database, name: _name, ...rest } = fields;
  return Object.assign(make(String(message), !!database), rest);
}
