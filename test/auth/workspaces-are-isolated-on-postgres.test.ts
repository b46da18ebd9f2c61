// Guarantees: the two-workspace isolation of workspaces-are-isolated holds on PostgreSQL too (skipped when
// unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from '../api/api-helpers';
import { isolationSuite } from './support/isolation-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-iso-pg-');
  process.env.SEED_EXAMPLE = '0';
  const schema = uniqueSchema('iso');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  isolationSuite(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('workspace isolation on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
