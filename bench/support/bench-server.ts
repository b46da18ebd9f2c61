/**
 * What the HTTP benches do around their measurement, in one place so that each measures its server the same way:
 * the server's environment (a fresh store, limits lifted, nothing optional) and its clean-up afterwards, signing in
 * to a fresh server, the store label of a row, which stores to run on, and running a bench file on its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import {
  dropSchema,
  postgresAvailable,
  redisAvailable,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  uniqueSchema,
} from '../../test/support/databases';

export type StoreKind = 'pglite' | 'postgres';

export const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? TEST_REDIS_URL;

/**
 * The environment of a server under load: a fresh data dir, no example workflow, the rate limit and the
 * per-workflow cap lifted, and no model key, queue, workers or search engine from the caller's environment, so
 * the figures do not depend on who runs the bench. On PostgreSQL: its own schema and Redis key prefix.
 */
function benchServerEnv(kind: StoreKind, dataDir: string, schema: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    SEED_EXAMPLE: '0',
    RATE_LIMIT_PER_MIN: '1000000000',
    MAX_CONCURRENT_RUNS_PER_WORKFLOW: '100000',
    OPENAI_API_KEY: '',
    QUEUE_MODE: '',
    WORKERS: '',
    ELASTICSEARCH_URL: '',
    ...(kind === 'postgres'
      ? {
          DATABASE_URL: TEST_DATABASE_URL,
          DATABASE_SCHEMA: schema,
          REDIS_URL: BENCH_REDIS_URL,
          REDIS_PREFIX: `${schema}:`,
        }
      : { DATABASE_URL: '', DATABASE_SCHEMA: '', REDIS_URL: '' }),
  };
}

/**
 * Runs `body` with the environment of a server on a fresh store (a new data dir; on PostgreSQL a new schema and
 * Redis prefix named after `name`), then removes that store: the dir, and the schema with its Redis keys. `body`
 * stops its server before it returns.
 */
export async function withBenchStore<T>(
  kind: StoreKind,
  name: string,
  body: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), `paiflow-${name}-`));
  const schema = uniqueSchema(name);
  try {
    return await body(benchServerEnv(kind, dir, schema));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (kind === 'postgres') await dropBenchStore(schema);
  }
}

/** Drops what a server on PostgreSQL made: its schema and its Redis keys. */
async function dropBenchStore(schema: string): Promise<void> {
  await dropSchema(schema);
  const r = new Redis(BENCH_REDIS_URL);
  const keys = await r.keys(`${schema}:*`);
  if (keys.length) await r.del(...keys);
  r.disconnect();
}

/** A JSON call to the server as its owner; a 4xx or 5xx answer throws with its body. */
export type BenchSend = <T = unknown>(method: string, p: string, body?: unknown) => Promise<T>;

/**
 * Sets up the owner of a fresh server, then works with a personal access token (as a script would), so the
 * session cookie is used only once.
 */
export async function signInAsOwner(baseUrl: string): Promise<BenchSend> {
  const owner = await fetch(`${baseUrl}/api/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password-1', name: 'Bench' }),
  });
  const cookie = (owner.headers.get('set-cookie') ?? '').split(';')[0];
  let authorization = '';
  const send: BenchSend = async <T>(method: string, p: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : { cookie }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 400) throw new Error(`${method} ${p} → ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  authorization = `Bearer ${(await send<{ token: string }>('POST', '/api/auth/tokens', { name: 'bench' })).token}`;
  return send;
}

/** A row's `store`: what the server says it runs on, e.g. "PGlite" or "PostgreSQL + Redis". */
export async function storeLabel(baseUrl: string, kind: StoreKind): Promise<string> {
  const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { db: string; bus: string };
  return `${health.db.split(' ')[0]}${kind === 'postgres' ? ` + ${health.bus.split(' ')[0]}` : ''}`;
}

/**
 * The rows of `bench` on each store named in `stores` ("pglite", "postgres"): PostgreSQL only when both it and
 * Redis answer, else said and skipped.
 */
export async function onStores<R>(stores: string[], bench: (kind: StoreKind) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  if (stores.includes('pglite')) rows.push(...(await bench('pglite')));
  if (stores.includes('postgres')) {
    if ((await postgresAvailable().catch(() => false)) && (await redisAvailable(BENCH_REDIS_URL).catch(() => false)))
      rows.push(...(await bench('postgres')));
    else console.warn('[bench] PostgreSQL or Redis not reachable: embedded store only');
  }
  return rows;
}

/** Runs a bench when its file is run directly (`npx tsx bench/<name>.ts`) and prints its rows as a table. */
export function runIfMain(moduleUrl: string, run: () => Promise<unknown[]>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(new URL(moduleUrl).pathname)) return;
  run().then(
    (rows) => {
      console.table(rows);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
