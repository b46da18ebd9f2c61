// Guarantees: the publish + published-endpoint contract holds on PostgreSQL (skipped when unreachable, required under
// CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { publishContractSuite } from './publish-contract-suite';

if (await postgresAvailable()) {
  useFreshDataDir();
  const schema = uniqueSchema('pub');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  publishContractSuite('postgres', async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('publish contract on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
