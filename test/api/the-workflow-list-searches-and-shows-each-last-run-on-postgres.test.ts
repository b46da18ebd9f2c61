// Guarantees: the workflow list's last runs and search (workflow-list-suite.ts) are the same on PostgreSQL (skipped
// when unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { workflowListSuite } from './workflow-list-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-workflow-list-pg-');
  process.env.SEED_EXAMPLE = '0';
  const schema = uniqueSchema('wflist');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  workflowListSuite(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('workflow list on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
