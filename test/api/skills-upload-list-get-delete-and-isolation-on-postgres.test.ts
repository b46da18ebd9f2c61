// Guarantees: the skills API contract (test/api/skills-api-suite.ts) holds on PostgreSQL too (skipped when
// unreachable, required under CI=true).
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { skillsApiSuite } from './skills-api-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-skills-api-pg-');
  const schema = uniqueSchema('skills');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  skillsApiSuite(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('the skills API on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
