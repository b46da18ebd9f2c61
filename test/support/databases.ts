/**
 * Databases for tests. The embedded store (PGlite) always runs, in a fresh temp dir. PostgreSQL runs when reachable
 * (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test); each test run gets its own schema.
 * Under CI=true PostgreSQL is required: unreachable → the suite fails instead of skipping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pg from 'pg';
import { openDatabase, type Database } from '@/engine/store/prisma/database';
import { seedDataDir } from './pglite-template';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

let pgReachable: Promise<boolean> | undefined;
export function postgresAvailable(): Promise<boolean> {
  pgReachable ??= (async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch {
      if (process.env.CI === 'true')
        throw new Error(`PostgreSQL is required under CI but unreachable at ${TEST_DATABASE_URL}`);
      console.warn(`[tests] PostgreSQL not reachable at ${TEST_DATABASE_URL}: PostgreSQL suites are SKIPPED`);
      return false;
    } finally {
      await c.end().catch(() => {});
    }
  })();
  return pgReachable;
}

export function uniqueSchema(prefix = 't'): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

export interface TestDb {
  db: Database;
  /** Re-open the same database (a "new process" view). */
  reopen(): Promise<Database>;
  /** For PGlite: the data dir; for PostgreSQL: the schema. */
  location: string;
  kind: 'pglite' | 'postgres';
  dispose(): Promise<void>;
}

export async function openTestDb(kind: 'pglite' | 'postgres'): Promise<TestDb> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-test-'));
    seedDataDir(dir);
    let db = await openDatabase({ dataDir: dir });
    return {
      get db() {
        return db;
      },
      kind,
      location: dir,
      async reopen() {
        await db.close();
        db = await openDatabase({ dataDir: dir });
        return db;
      },
      async dispose() {
        await db.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = uniqueSchema();
  let db = await openDatabase({ databaseUrl: TEST_DATABASE_URL, schema });
  return {
    get db() {
      return db;
    },
    kind,
    location: schema,
    async reopen() {
      await db.close();
      db = await openDatabase({ databaseUrl: TEST_DATABASE_URL, schema });
      return db;
    },
    async dispose() {
      await db.close().catch(() => {});
      await dropSchema(schema);
    },
  };
}

/** Drops a schema a test or bench made on the test PostgreSQL, with everything in it (gone already: no error). */
export async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  await c.end();
}

/** The store kinds to run a conformance suite on: always PGlite, plus PostgreSQL when reachable. */
export async function storeKinds(): Promise<Array<'pglite' | 'postgres'>> {
  return (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers at `url`; under CI=true an unreachable Redis is an error instead of a skip. */
export async function redisAvailable(url = TEST_REDIS_URL): Promise<boolean> {
  const r = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    if (process.env.CI === 'true') throw new Error(`Redis is required under CI but unreachable at ${url}`);
    console.warn(`[tests] Redis not reachable at ${url}: Redis suites are SKIPPED`);
    return false;
  } finally {
    r.disconnect();
  }
}
