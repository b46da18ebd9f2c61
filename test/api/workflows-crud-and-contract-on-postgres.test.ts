// Guarantees: the same v1 HTTP contract (health, node-types, runs, CRUD with optimistic revisions, export/import,
// validate) holds on PostgreSQL (skipped when unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { crudAndContractSuite } from './crud-contract-suite';

if (await postgresAvailable()) {
  useFreshDataDir();
  const schema = uniqueSchema('api');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  crudAndContractSuite('postgres', async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('v1 contract on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
