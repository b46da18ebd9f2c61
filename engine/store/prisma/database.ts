/**
 * Opens the one database: PostgreSQL when a URL is given, else PGlite (Postgres compiled to WASM, in this process on
 * a thread of its own) under DATA_DIR. Both run the same schema, the same migration SQL and the same generated Prisma
 * client.
 * PGlite silently loses writes when two processes open one data dir, so we hold a lock file with our pid.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { takeLockFile } from '../../config/lock-file';
import { PaiError } from '../../errors';
import { PrismaClient } from './generated/client';
import { migrate, type SqlRunner, type SqlTx } from './migrator';
import { RemotePGlite } from './pglite-remote';
import { spinMsFor, ThreadClient, threadError } from './thread-client';
import { defaultSettings } from '../../config/settings';

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  /** A label for /api/health: "postgres" or "pglite (./data)". */
  describe: string;
  /** The driver itself, bypassing Prisma: used by the store's hot path (one statement per node commit). */
  sql: SqlRunner;
  /** The PostgreSQL schema in use. */
  schema: string;
  close(): Promise<void>;
}

/**
 * What the opener is given (the app's from its settings, lib/server/engine-settings.ts); anything unset is the
 * variable's default.
 */
export interface OpenOptions {
  databaseUrl?: string;
  /** The embedded database's folder (DATA_DIR, default ./data). */
  dataDir?: string;
  /** How long a database thread polls for its next request (DB_THREAD_SPIN_MS, default 1 ms; 0 → never). */
  threadSpinMs?: number;
  /** The embedded database's buffer cache in MB (DB_EMBEDDED_BUFFERS_MB, default 32). */
  embeddedBuffersMb?: number;
  /** PostgreSQL schema to use (tests give each run its own). Created if missing. */
  schema?: string;
  /** The migration SQL's folder (PAIFLOW_MIGRATIONS_DIR, default PaiFlow's own). */
  migrationsDir?: string;
  /** Connections in each PostgreSQL pool (DATABASE_POOL_SIZE, default 10). */
  poolSize?: number;
  /** PostgreSQL's hot statements go through a thread of their own (PG_WRITE_THREAD, default on). */
  writeThread?: boolean;
}

function takeLock(dir: string): () => void {
  return takeLockFile(
    path.join(dir, 'paiflow.lock'),
    (pid) =>
      new PaiError(
        'DATA_DIR_LOCKED',
        `the embedded database in ${dir} is in use by process ${pid}; stop it or set DATA_DIR`,
      ),
  );
}

async function openPostgres(opts: OpenOptions): Promise<Database> {
  const { default: pg } = await import('pg');
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const schema = opts.schema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new PaiError('INVALID_SCHEMA', `invalid schema name ${schema}`);
  const poolSize = opts.poolSize ?? defaultSettings().DATABASE_POOL_SIZE;
  const pool = new pg.Pool({
    connectionString: opts.databaseUrl,
    max: poolSize,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('error', () => {
    /* idle client errors surface on the next query */
  });
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  // The hot statements (node snapshot commits, the run INSERT, the API key lookup) go through a thread of their own
  // where there is a core for it (pg-write-worker.mjs). A database error keeps pg's class and its fields.
  const spinMs = spinMsFor(opts.threadSpinMs);
  const writer =
    spinMs > 0 && (opts.writeThread ?? defaultSettings().PG_WRITE_THREAD)
      ? await ThreadClient.start(
          'pg-write-worker.mjs',
          {
            connectionString: opts.databaseUrl,
            max: poolSize,
            options: schema ? `-c search_path=${schema}` : undefined,
            spinMs,
          },
          {
            label: 'the PostgreSQL write thread',
            toError: (f) =>
              threadError(f, (message, isDatabase) =>
                isDatabase ? new pg.DatabaseError(message, 0, 'error') : new Error(message),
              ),
          },
        )
      : undefined;
  const runner: SqlRunner = {
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async (sql, params) => (await pool.query(sql, params as unknown[])).rows,
    // On the thread: the main thread only posts a message, instead of building the protocol messages and handling
    // the answer between LangGraph's steps (measured: the run INSERT's 0.2 ms there, 12-node runs 1.47× → 1.36× raw).
    prepared: writer
      ? async (name, sql, params) => (await writer.call('prepared', { name, sql, params })) as never[]
      : async (name, text, values) => (await pool.query({ name, text, values })).rows,
    write: writer
      ? async (name, sql, params, o) => {
          await writer.call('write', { name, sql, params, last: !!o?.last });
        }
      : async (name, text, values) => {
          await pool.query({ name, text, values });
        },
    transaction: async (fn) => {
      const client = await pool.connect();
      const tx: SqlTx = {
        exec: async (sql) => {
          await client.query(sql);
        },
        query: async (sql, p) => (await client.query(sql, p as unknown[])).rows,
      };
      try {
        await client.query('BEGIN');
        const out = await fn(tx);
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
  };
  await migrate(runner, opts.migrationsDir);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined) });
  return {
    kind: 'postgres',
    prisma,
    describe: 'postgres',
    sql: runner,
    schema: schema ?? 'public',
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
      await writer?.close();
    },
  };
}

/** The migrator's and the stores' SQL over the embedded database's thread. */
function runnerOf(db: RemotePGlite): SqlRunner {
  return {
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async (sql, params) => (await db.query(sql, params as unknown[])).rows as never[],
    prepared: (name, sql, params) => db.prepared(name, sql, params),
    write: (name, sql, params, o) => db.write(name, sql, params, o),
    transaction: (fn) =>
      db.transaction(async (t) =>
        fn({
          exec: async (sql) => {
            await t.exec(sql);
          },
          query: async (sql, p) => (await t.query(sql, p as unknown[])).rows as never[],
        }),
      ),
  };
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  const dataDir = path.resolve(opts.dataDir ?? defaultSettings().DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const release = takeLock(dataDir);
  let pglite: RemotePGlite | undefined;
  try {
    const { PrismaPGlite } = await import('pglite-prisma-adapter');
    const pgDir = path.join(dataDir, 'pglite');
    const thread = { spinMs: opts.threadSpinMs, buffersMb: opts.embeddedBuffersMb };
    if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
      // A new data dir: initdb and the first migrations touch several times the memory that serving needs, and a
      // WebAssembly instance never gives memory back. They run on a thread of their own that then ends, so the
      // server starts on a fresh one (first start: ~1,060 → ~500 MB RSS idle, measured 2026-12-05).
      const init = await RemotePGlite.create(pgDir, thread);
      try {
        await migrate(runnerOf(init), opts.migrationsDir);
      } finally {
        await init.close();
      }
    }
    // On its own thread: Postgres work never blocks the event loop (see pglite-remote.ts).
    const db = (pglite = await RemotePGlite.create(pgDir, thread));
    const runner = runnerOf(db);
    await migrate(runner, opts.migrationsDir);
    const prisma = new PrismaClient({
      adapter: new PrismaPGlite(db as unknown as import('@electric-sql/pglite').PGlite),
      transactionOptions: { maxWait: 20_000, timeout: 30_000 },
    });
    return {
      kind: 'pglite',
      prisma,
      describe: 'pglite',
      sql: runner,
      schema: 'public',
      close: async () => {
        await prisma.$disconnect();
        await db.close().catch(() => {});
        release();
      },
    };
  } catch (e) {
    await pglite?.close().catch(() => {});
    release();
    throw e;
  }
}

export function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts) : openPglite(opts);
}
