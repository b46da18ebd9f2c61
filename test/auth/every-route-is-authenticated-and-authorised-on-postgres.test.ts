// Guarantees: the route walk of every-route-is-authenticated-and-authorised holds on PostgreSQL too (skipped when
// unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from '../api/api-helpers';
import { routeWalkSuite } from './support/route-walk-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-auth-pg-');
  process.env.SEED_EXAMPLE = '0';
  const schema = uniqueSchema('auth');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  routeWalkSuite(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('route walk on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
