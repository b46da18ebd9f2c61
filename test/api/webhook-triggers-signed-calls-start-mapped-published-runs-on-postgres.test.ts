// Guarantee: the webhook-trigger contract (webhook-triggers-signed-calls-suite.ts) holds on PostgreSQL (skipped when
// unreachable, required under CI=true): the hook's prepared lookup reads the same trigger and workflow there.
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { useFreshDataDir } from './api-helpers';
import { signedCallsSuite } from './webhook-triggers-signed-calls-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-webhooks-pg-');
  const schema = uniqueSchema('hook');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  process.env.SEED_EXAMPLE = '0';
  signedCallsSuite(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('webhook triggers on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
