/**
 * PGlite on its own thread (pglite-worker.mjs), behind the part of PGlite's API that the store, Prisma's PGlite
 * adapter and LangGraph's saver use: query (with the caller's parsers and rowMode), exec, transaction (with
 * tx.query / tx.exec / tx.rollback), close — plus named prepared statements. The event loop no longer runs Postgres:
 * a node's snapshot commit overlaps the engine's own work, and HTTP requests are parsed while the database works.
 */
import type { Results } from '@electric-sql/pglite';
import { defaultSettings } from '../../config/settings';
import { spinMsFor, ThreadClient, threadError } from './thread-client';

type PGliteModule = typeof import('@electric-sql/pglite');
type Parsers = Record<number, (value: string, typeId: number) => unknown>;
interface QueryOptions {
  rowMode?: 'object' | 'array';
  parsers?: Parsers;
}
type Message = { name: string };

export interface RemoteTx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Array<Results>>;
  rollback(): Promise<void>;
}

export class RemotePGlite {
  private nextTx = 1;
  private parsers: Parsers;

  private constructor(
    private readonly thread: ThreadClient,
    private readonly lib: PGliteModule,
  ) {
    this.parsers = { ...(lib.types.parsers as Parsers) };
  }

  /**
   * Starts the thread and opens the database in `dataDir` there. `spinMs` (env `DB_THREAD_SPIN_MS`, default 1): how
   * long the thread keeps polling for the next request after answering one, instead of sleeping (0: never).
   * `buffersMb` (env `DB_EMBEDDED_BUFFERS_MB`, default 32): Postgres's shared_buffers, which it touches whole at
   * start (Postgres's own default, 128 MB, was a third of an idle embedded server's memory).
   */
  static async create(dataDir: string, opts: { spinMs?: number; buffersMb?: number } = {}): Promise<RemotePGlite> {
    const lib = await import('@electric-sql/pglite');
    // A database error keeps PGlite's class (Prisma's adapter maps it by `instanceof`) and its fields.
    const toError = (f: Record<string, unknown>) =>
      threadError(f, (message, isDatabase) =>
        isDatabase ? new lib.messages.DatabaseError(message, 0, 'error') : new Error(message),
      );
    const thread = await ThreadClient.start(
      'pglite-worker.mjs',
      {
        dataDir,
        spinMs: spinMsFor(opts.spinMs),
        buffersMb: opts.buffersMb ?? defaultSettings().DB_EMBEDDED_BUFFERS_MB,
      },
      { label: 'the embedded database', toError },
    );
    const remote = new RemotePGlite(thread, lib);
    // Array types' parsers, as PGlite builds them at start-up (element parser per array type).
    const arrays = (await remote.call('arrayTypes', {})) as Array<{ oid: number; typarray: number }>;
    for (const { oid, typarray } of arrays) {
      if (!typarray) continue;
      remote.parsers[typarray] = (v: string) =>
        lib.types.arrayParser(v, remote.parsers[oid] as (x: string) => unknown, typarray);
    }
    return remote;
  }

  private call(op: string, args: Record<string, unknown>): Promise<unknown> {
    return this.thread.call(op, args);
  }

  private results<T>(messages: Message[], options?: QueryOptions): Array<Results<T>> {
    return this.lib.parse.parseResults(messages as never, this.parsers as never, options as never) as Array<Results<T>>;
  }

  async query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
    tx?: number,
  ): Promise<Results<T>> {
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
  async write(name: string, sql: string, params: unknown[], opts?: { last?: boolean }): Promise<void> {
    await this.call('prepared', { name, sql, params, discard: true, last: !!opts?.last });
  }

  /** Like PGlite's: BEGIN, `fn`, then COMMIT — or ROLLBACK when `fn` throws or calls tx.rollback(). */
  async transaction<T>(fn: (tx: RemoteTx) => Promise<T>): Promise<T> {
    const id = this.nextTx++;
    await this.call('begin', { tx: id });
    let rolledBack = false;
    const tx: RemoteTx = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
      rollback: async () => {
        rolledBack = true;
      },
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

  close(): Promise<void> {
    return this.thread.close();
  }
}
