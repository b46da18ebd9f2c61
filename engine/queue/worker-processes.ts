/**
 * WORKERS=n: the app process forks n worker processes (scripts/worker.ts, run through tsx) on the same database and
 * Redis, restarts one that dies (at most 5 times a minute each), and stops them when the app closes (SIGTERM, then
 * SIGKILL after the grace period). A worker notices its parent going away (IPC disconnect) and shuts down too.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fromAppRoot } from '../config/app-root';

const WORKER_SCRIPT = ['scripts', 'worker.ts'];

export const WORKER_READY_MESSAGE = 'paiflow-worker-ready';

export interface WorkerProcessesOptions {
  count: number;
  /** Default: <cwd>/scripts/worker.ts. */
  script?: string;
  env?: NodeJS.ProcessEnv;
  /** How long a stopping worker may take (its shutdown grace + a margin) before it is killed. */
  stopTimeoutMs?: number;
  log?: (msg: string) => void;
}

interface Slot {
  index: number;
  child?: ChildProcess;
  starts: number[];
  ready: Promise<void>;
}

export class WorkerProcesses {
  private slots: Slot[] = [];
  private stopping = false;
  private readonly log: (msg: string) => void;

  constructor(private readonly o: WorkerProcessesOptions) {
    this.log = o.log ?? ((m) => console.warn(m));
  }

  start(): this {
    for (let i = 0; i < this.o.count; i++) {
      const slot: Slot = { index: i, starts: [], ready: Promise.resolve() };
      this.slots.push(slot);
      this.spawn(slot);
    }
    return this;
  }

  /** Resolves once every worker has said it is taking jobs; rejects if one exited before that. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  pids(): number[] {
    return this.slots.map((s) => s.child?.pid).filter((p): p is number => !!p);
  }

  private spawn(slot: Slot) {
    slot.starts = [...slot.starts.filter((t) => t > Date.now() - 60_000), Date.now()];
    // Built at run time (and hidden from the bundler's file tracing): the worker is a separate tsx process.
    const script = this.o.script ?? fromAppRoot(...WORKER_SCRIPT);
    const child = fork(script, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...(this.o.env ?? process.env), PAIFLOW_WORKER_INDEX: String(slot.index) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    slot.child = child;
    slot.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: unknown) => {
        if ((m as { type?: string })?.type === WORKER_READY_MESSAGE) {
          child.off('message', onMessage);
          resolve();
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code, signal) =>
        reject(new Error(`worker ${slot.index} (pid ${child.pid}) exited (${signal ?? code}) before it was ready`)),
      );
    });
    slot.ready.catch(() => {}); // only ready() callers care
    child.once('exit', (code, signal) => {
      if (this.stopping || slot.child !== child) return;
      if (slot.starts.length >= 5) {
        this.log(
          `[paiflow] worker ${slot.index} (pid ${child.pid}) exited ` +
            `(${signal ?? code}) 5 times within a minute; not restarting it`,
        );
        return;
      }
      this.log(`[paiflow] worker ${slot.index} (pid ${child.pid}) exited (${signal ?? code}); restarting it`);
      setTimeout(() => {
        if (!this.stopping) this.spawn(slot);
      }, 1_000).unref?.();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const timeout = this.o.stopTimeoutMs ?? 15_000;
    await Promise.all(
      this.slots.map(async ({ child }) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), timeout);
        await exited;
        clearTimeout(t);
      }),
    );
  }
}
