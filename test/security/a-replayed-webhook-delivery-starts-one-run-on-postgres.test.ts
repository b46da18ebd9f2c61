// Guarantee: the webhook delivery-id contract (support/webhook-replay-suite.ts) holds on PostgreSQL too (skipped when
// unreachable, required under CI=true): one run per delivery id, the same answer for every repeat, across a restart.
import pg from 'pg';
import { describe, it } from 'vitest';
import { useFreshDataDir } from '../api/api-helpers';
import { postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { webhookReplaySuite } from './support/webhook-replay-suite';

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-webhook-replay-pg-');
  const schema = uniqueSchema('replay');
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.DATABASE_SCHEMA = schema;
  process.env.SEED_EXAMPLE = '0';
  webhookReplaySuite(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
  });
} else {
  describe.skip('webhook delivery ids on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
