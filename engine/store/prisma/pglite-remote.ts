/**
 * PGlite on its own thread (pglite-worker.mjs), behind the part of PGlite's API that the store, Prisma's PGlite
 * adapter and LangGraph's saver use: query (with the caller's parsers and rowMode), exec, transaction (with
 * tx.query / tx.exec / tx.rollback), close — plus named prepared statements. The event loop no longer runs Postgres:
 * a node's snapshot commit overlaps the engine's own work, and HTTP requests are parsed while the database works.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';

type PGliteModule = typeof import('@electric-sql/pglite');
type Parsers = Record<number, (value: string, typeId: number) => unknown>;
interface QueryOptions { rowMode?: 'object' | 'array'; parsers?: Parsers }
type Message = { name: string };

export interface RemoteTx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Array<Results>>;
  rollback(): Promise<void>;
}

const WORKER = ['engine', 'store', 'prisma', 'pglite-worker.mjs'];

function workerPath(): string {
  const fromCwd = path.join(/* turbopackIgnore: true */ process.cwd(), WORKER.join(path.sep));
  if (existsSync(fromCwd)) return fromCwd;
  return new URL('./pglite-worker.mjs', import.meta.url).pathname;
}

export class RemotePGlite {
  private nextId = 1;
  private nextTx = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private parsers: Parsers;
  private closed = false;

  private constructor(private readonly worker: Worker, private readonly lib: PGliteModule) {
    this.parsers = { ...(lib.types.parsers as Parsers) };
  }

  /**
   * Starts the thread and opens the database in `dataDir` there. `spinMs` (env `PGLITE_SPIN_MS`, default 1): how
   * long the thread keeps polling for the next request after answering one, instead of sleeping (0: never).
   */
  static async create(dataDir: string, opts: { spinMs?: number } = {}): Promise<RemotePGlite> {
    const lib = await import('@electric-sql/pglite');
    // Polling for the next request only pays where the thread has a core of its own.
    const spinMs = availableParallelism() > 1 ? (opts.spinMs ?? Number(process.env.PGLITE_SPIN_MS ?? 1)) : 0;
    const worker = new Worker(workerPath(), { workerData: { dataDir, spinMs } });
    const remote = new RemotePGlite(worker, lib);
    const started = new Promise<void>((resolve, reject) => {
      remote.pending.set(0, { resolve: () => resolve(), reject });
      worker.once('error', reject);
    });
    worker.on('message', (m: { id: number; result?: unknown; error?: Record<string, unknown> }) => remote.settle(m));
    worker.on('error', (e) => remote.failAll(e));
    worker.on('exit', (code) => remote.failAll(new Error(`the embedded database thread exited (code ${code})`)));
    await started;
    // Array types' parsers, as PGlite builds them at start-up (element parser per array type).
    const arrays = (await remote.call('arrayTypes', {})) as Array<{ oid: number; typarray: number }>;
    for (const { oid, typarray } of arrays) {
      if (!typarray) continue;
      remote.parsers[typarray] = (v: string) => lib.types.arrayParser(v, remote.parsers[oid] as (x: string) => unknown, typarray);
    }
    return remote;
  }

  private settle(m: { id: number; result?: unknown; error?: Record<string, unknown> }) {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error) p.reject(this.toError(m.error));
    else p.resolve(m.result);
    if (this.pending.size === 0) this.worker.unref(); // idle: like an in-process database, it keeps nobody alive
  }

  private failAll(e: unknown) {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  /** A database error keeps PGlite's class (Prisma's adapter maps it by `instanceof`) and its fields. */
  private toError(f: Record<string, unknown>): Error {
    const { message, database, name: _name, ...fields } = f;
    const e = database ? new this.lib.messages.DatabaseError(String(message), 0, 'error') : new Error(String(message));
    return Object.assign(e, fields);
  }

  private call(op: string, args: Record<string, unknown>): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the embedded database is closed'));
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref(); // work in flight keeps the process alive until it is answered
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, ...args });
    });
  }

  private results<T>(messages: Message[], options?: QueryOptions): Array<Results<T>> {
    return this.lib.parse.parseResults(messages as never, this.parsers as never, options as never) as Array<Results<T>>;
  }

  async query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    const messages = (await this.call('query', { sql, params: params ?? [], tx })) as Message[];
    return this.results<T>(messages, options)[0];
  }

  async exec(sql: string, tx?: number): Promise<Array<Results>> {
    return this.results((await this.call('exec', { sql, tx })) as Message[]);
  }

  async prepared<T>(name: string, sql: string, params: unknown[]): Promise<T[]> {
    return this.results<T>((await this.call('prepared', { name, sql, params })) as Message[])[0]?.rows ?? [];
  }

  /** A named prepared statement whose result is not needed: the thread answers without the rows. */
  async write(name: string, sql: string, params: unknown[]): Promise<void> {
    await this.call('prepared', { name, sql, params, discard: true });
  }

  /** Like PGlite's: BEGIN, `fn`, then COMMIT — or ROLLBACK when `fn` throws or calls tx.rollback(). */
  async transaction<T>(fn: (tx: RemoteTx) => Promise<T>): Promise<T> {
    const id = this.nextTx++;
    await this.call('begin', { tx: id });
    let rolledBack = false;
    const tx: RemoteTx = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
      rollback: async () => { rolledBack = true; },
    };
    let out: T;
    try {
      out = await fn(tx);
    } catch (e) {
      await this.call('end', { tx: id, commit: false }).catch(() => {});
      throw e;
    }
    await this.call('end', { tx: id, commit: !rolledBack });
    return out;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.call('close', {}).catch(() => {});
    this.closed = true;
    await this.worker.terminate();
  }
}
