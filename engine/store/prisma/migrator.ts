/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own transaction under an advisory
 * lock, recording name + sha256. A migration edited after it was applied is refused (MIGRATION_EDITED) instead of
 * silently diverging. Used because the Prisma 7 CLI cannot migrate offline; the same SQL runs on PGlite and PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PaiError } from '../../errors';
import { fromAppRoot } from '../../config/app-root';
import { MIGRATIONS_FOLDER } from '../../config/migrations-folder';

export interface SqlTx {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}
export interface SqlRunner extends SqlTx {
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  /**
   * A hot statement run as a named prepared statement (PostgreSQL parses and plans it once per connection);
   * `name` must identify `sql` exactly. Stores without prepared statements run it like `query`.
   */
  prepared<T = Record<string, unknown>>(name: string, sql: string, params: unknown[]): Promise<T[]>;
  /**
   * `prepared` for a hot write whose rows nobody reads: the embedded database does not send them back. `last`: no
   * follow-up write is expected soon (a run's final commit), so a database thread goes to sleep at once instead of
   * polling for the next request (thread-serve.mjs), leaving the core to the database server and the next run.
   */
  write(name: string, sql: string, params: unknown[], opts?: { last?: boolean }): Promise<void>;
}

const LOCK_KEY = 727_071_001;

/** PaiFlow's own migrations folder; an opener given another (PAIFLOW_MIGRATIONS_DIR, a test's) passes it to migrate. */
export function defaultMigrationsDir(): string {
  return fromAppRoot(...MIGRATIONS_FOLDER);
}

export async function migrate(db: SqlRunner, dir = defaultMigrationsDir()): Promise<string[]> {
  if (!existsSync(dir)) throw new PaiError('MIGRATIONS_NOT_FOUND', `migrations folder not found: ${dir}`);
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  await db.exec(
    'CREATE TABLE IF NOT EXISTS "_paiflow_migrations" ("name" TEXT PRIMARY KEY, ' +
      '"sha256" TEXT NOT NULL, "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name, 'migration.sql');
    if (!existsSync(file)) continue;
    const sql = readFileSync(file, 'utf8');
    const sha = createHash('sha256').update(sql).digest('hex');
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const rows = await tx.query<{ sha256: string }>('SELECT "sha256" FROM "_paiflow_migrations" WHERE "name" = $1', [
        name,
      ]);
      if (rows.length) {
        if (rows[0].sha256 !== sha) {
          throw new PaiError(
            'MIGRATION_EDITED',
            `migration ${name} was changed after it was applied; add a new migration instead`,
          );
        }
        return;
      }
      await tx.exec(sql);
      await tx.query('INSERT INTO "_paiflow_migrations" ("name", "sha256") VALUES ($1, $2)', [name, sha]);
      applied.push(name);
    });
  }
  return applied;
}
