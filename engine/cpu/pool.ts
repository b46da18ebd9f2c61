/**
 * Worker-thread pools (piscina) for CPU-heavy work, so that it runs beside the event loop instead of on it. Six
 * pools, so that a short task never waits behind a long one on a small machine: `quick` (regexes; CPU_WORKER_THREADS,
 * by default one thread less than the cores), `documents` (parsing and chunking, one document at a time), `embed`
 * (the offline embedding model, which loads once per thread and so keeps its threads for a while; EMBEDDING_THREADS,
 * by default two) and `code`
 * (Code nodes' sandboxed JavaScript, up to 30 s each; CPU_WORKER_THREADS threads); `python` (Python Code nodes: a
 * Pyodide interpreter per thread, at most two threads, kept warm for two idle minutes); `speech` (the offline speech
 * synthesizer, one thread); `uploads` (dataset files, imports and multipart forms read on the request path;
 * CPU_WORKER_THREADS threads).
 *
 * Threads start on first use and stop when idle; an idle thread keeps nobody alive (piscina unrefs it), so a script
 * or test that never calls closeCpuPools() still exits. Each task runs under a time limit that starts when the worker
 * picks it up (not while it waits in the queue) and with `resourceLimits`: a task over its time or memory ends its
 * thread only (piscina terminates it and starts a fresh one for the next task).
 */
import { MessageChannel, type Transferable } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { existingAppFile } from '../config/app-root';
import { PaiError } from '../errors';
import { CODE_THREAD_STACK_MB } from '../code/limits';
import { cpuLimits } from './limits';

export type PoolName = 'quick' | 'documents' | 'embed' | 'code' | 'python' | 'speech' | 'uploads';

/** What a task function in worker.mjs answers: a value, or an error to rethrow as a PaiError. */
export type WorkerAnswer<T> =
  { value: T } | { error: { code: string; message: string; path?: string; details?: unknown } };

const g = globalThis as unknown as { __paiflowCpuPools?: Map<PoolName, Piscina> };
// One set per process, also across Next.js dev hot reloads.
const pools = (g.__paiflowCpuPools ??= new Map());

/**
 * worker.mjs in the source tree, loaded by path from every runtime (Next's server bundle, tsx, vitest): found from
 * the entry point (app-root.ts), because a bundled module's own location says nothing about where the file is.
 */
function workerFile(): string {
  return existingAppFile('engine', 'cpu', 'worker.mjs');
}

function options(name: PoolName) {
  const limits = cpuLimits();
  switch (name) {
    case 'quick':
      return { maxThreads: limits.threads, idleTimeout: 30_000, resourceLimits: { maxOldGenerationSizeMb: 256 } };
    case 'documents':
      return {
        maxThreads: 1,
        idleTimeout: 10_000,
        resourceLimits: { maxOldGenerationSizeMb: limits.documentWorkerMemoryMb, maxYoungGenerationSizeMb: 32 },
      };
    case 'embed':
      // The model takes about 0.3 s to load in a new thread: keep the thread for five idle minutes.
      return {
        maxThreads: limits.embedThreads,
        idleTimeout: 5 * 60_000,
        resourceLimits: { maxOldGenerationSizeMb: 1024 },
      };
    case 'code':
      // Code nodes' sandboxes (engine/code/sandbox.ts): their memory is WebAssembly's, outside this heap limit (it
      // holds their results); a large native stack keeps deep guest recursion a guest error (CODE_THREAD_STACK_MB).
      return {
        maxThreads: limits.threads,
        idleTimeout: 60_000,
        resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: CODE_THREAD_STACK_MB },
      };
    case 'python':
      // Python Code nodes (engine/code/python-sandbox.ts): each thread holds an interpreter (a cold start takes
      // seconds, a warm call milliseconds) of some 100–200 MB, so few threads, ended after two idle minutes.
      return {
        maxThreads: Math.min(2, limits.threads),
        idleTimeout: 120_000,
        resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: CODE_THREAD_STACK_MB },
      };
    case 'speech':
      // The offline synthesizer (engine/media/espeak.ts): WebAssembly compiled once per thread; one thread.
      return { maxThreads: 1, idleTimeout: 60_000, resourceLimits: { maxOldGenerationSizeMb: 256 } };
    case 'uploads':
      // Users' documents read while their request waits (engine/uploads/): apart from the documents pool, whose
      // knowledge documents may take minutes each, and under a document's memory limit.
      return {
        maxThreads: limits.threads,
        idleTimeout: 30_000,
        resourceLimits: { maxOldGenerationSizeMb: limits.documentWorkerMemoryMb, maxYoungGenerationSizeMb: 32 },
      };
  }
}

function pool(name: PoolName): Piscina {
  let p = pools.get(name);
  if (!p) {
    // minThreads 0: no thread before the first task (piscina's default starts one per core at once).
    p = new Piscina({ filename: workerFile(), name: 'default', minThreads: 0, ...options(name) });
    pools.set(name, p);
  }
  return p;
}

export interface RunOptions {
  /** Time the task may run once a worker has picked it up. */
  timeoutMs: number;
  /** The error of a task that ran out of time. */
  onTimeout: () => Error;
  /** The error of a task whose thread hit its memory limit (JS heap, or `rssGrowthMb`). */
  onOutOfMemory?: () => Error;
  /**
   * While the task runs, the process's RSS may grow by at most this much before the task is ended (memory outside
   * the JS heap, such as a parser's inflate buffers, is not covered by resourceLimits).
   */
  rssGrowthMb?: number;
  /** Cancels the task, ending its thread if it has started (a cancelled run, a deleted document). */
  signal?: AbortSignal;
  transferList?: Transferable[];
}

/**
 * A copy of `bytes` in an ArrayBuffer of its own, to move to a worker in `transferList`. Never move the buffer of
 * bytes you were handed: a Buffer (and its `slice()`, which is a view) often sits on Node's shared 8 KB pool, which
 * Node 22+ refuses to transfer ("Cannot transfer object of unsupported type") and Node 20 would detach under every
 * other Buffer on it.
 */
export function movableCopy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

/**
 * Runs the worker.mjs export `fn` with `task` on a pool. The worker says on a port of ours when it starts, and the
 * time limit counts from then.
 */
export async function runInPool<T>(
  name: PoolName,
  fn: string,
  task: Record<string, unknown>,
  opts: RunOptions,
): Promise<T> {
  opts.signal?.throwIfAborted();
  const ac = new AbortController();
  const { port1, port2 } = new MessageChannel();
  let ended: 'timeout' | 'memory' | null = null;
  let timer: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  const stop = (why: 'timeout' | 'memory') => {
    ended ??= why;
    ac.abort();
  };
  port1.once('message', () => {
    timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    if (opts.rssGrowthMb) {
      const base = process.memoryUsage.rss();
      const max = base + opts.rssGrowthMb * 1024 * 1024;
      watch = setInterval(() => process.memoryUsage.rss() > max && stop('memory'), 50);
    }
  });
  const onCancel = () => ac.abort();
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    const answer = (await pool(name).run(
      { ...task, started: port2 },
      { name: fn, signal: ac.signal, transferList: [port2, ...(opts.transferList ?? [])] as never },
    )) as WorkerAnswer<T>;
    if ('error' in answer) {
      const { code, message, path, details } = answer.error;
      throw new PaiError(code, message, { path, details });
    }
    return answer.value;
  } catch (e) {
    if (ended === 'timeout') throw opts.onTimeout();
    const oom = ended === 'memory' || (e as NodeJS.ErrnoException)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    if (oom && opts.onOutOfMemory) throw opts.onOutOfMemory();
    if (opts.signal?.aborted) throw opts.signal.reason ?? e;
    throw e;
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
    port1.close();
    opts.signal?.removeEventListener('abort', onCancel);
    revive(name);
  }
}

/**
 * piscina 5.3 replaces a thread it ended (an aborted task, a worker out of memory) only up to minThreads, which is 0
 * here: tasks queued behind it would wait for the next run() — seen as three queued regexes hanging until their
 * nodes' 10-minute timeout. A no-op run starts a thread, which takes the queue in order, the no-op last.
 */
function revive(name: PoolName) {
  const p = pools.get(name);
  if (p && p.queueSize > 0 && p.threads.length < p.maxThreads) void p.run(null, { name: 'ping' }).catch(() => {});
}

/** Ends every pool's threads, aborting what runs (the app is shutting down). The next task starts new pools. */
export async function closeCpuPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.destroy().catch(() => {})));
}
