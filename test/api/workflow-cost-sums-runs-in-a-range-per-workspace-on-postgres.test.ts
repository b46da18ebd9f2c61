// Guarantees: the cost contract (test/api/workflow-cost-suite.ts) holds on PostgreSQL too — the SQL aggregate over
// node_runs.usage included (skipped when unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { workflowCostSuite } from './workflow-cost-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-cost-api-pg-');
  const schema = uniqueSchema('cost');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  describe('run and workflow cost on PostgreSQL', () =>
    workflowCostSuite(async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await c.end();
    }));
} else {
  describe.skip('run and workflow cost on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
