// Guarantees: the GET /api/runs paging, filter, search and isolation guarantees hold on PostgreSQL too (skipped
// when unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { runsListSuite } from './runs-list-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-runs-list-pg-');
  process.env.SEED_EXAMPLE = '0';
  const schema = uniqueSchema('runs');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  runsListSuite('postgres', async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('GET /api/runs on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
