// Guarantees: the workflow stats numbers of the known data set are the same on PostgreSQL (skipped when
// unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { workflowStatsSuite } from './workflow-stats-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-stats-pg-');
  process.env.SEED_EXAMPLE = '0';
  const schema = uniqueSchema('stats');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  workflowStatsSuite('postgres', async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('workflow stats on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
