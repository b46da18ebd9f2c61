/**
 * Guarantee: with two app replicas (two real processes, each the real app with its scheduler) on one PostgreSQL
 * database, a schedule `*\/2 * * * * *` starts exactly one run per tick: over the ~20 s it is enabled, the runs'
 * keys `schedule:<id>:<tick>` name every 2 s tick from the first to the last once — no tick twice, none skipped —
 * and there is no other run. Asserted on the ticks the runs record, not on timing. Skipped when PostgreSQL is
 * unreachable (required under CI=true).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { dropSchema, postgresAvailable, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { spawnTsx } from '../support/spawn-tsx';
import { until } from '../support/until';
import { expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';
import { created, echoWorkflow, triggers } from './webhook-triggers-fixture';
import { databaseOf } from '../support/database-of';

const TICKS_WANTED = 10;

if (await postgresAvailable()) {
  useFreshDataDir('paiflow-schedules-pg-');
  const schema = uniqueSchema('sched');
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    PAIFLOW_ENCRYPTION_KEY: 'schedule-replicas-share-this-key',
    SEED_EXAMPLE: '0',
    REDIS_URL: '',
    QUEUE_MODE: '',
    WORKERS: '',
  };
  Object.assign(process.env, env, { SCHEDULER: '0' }); // this process only manages; the replicas fire
  let app: App;
  let wfId = '';
  const replicas: Array<ReturnType<typeof spawnTsx>> = [];

  beforeAll(async () => {
    app = await getApp(); // applies the migrations before the replicas open the schema
    wfId = await echoWorkflow('Two replicas');
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await app?.close();
    await dropSchema(schema);
    expectNoServerErrorsOrStacks();
  });

  describe('a */2 s schedule on two replicas', () => {
    it('starts one run per tick for every tick, none twice', { timeout: 240_000 }, async () => {
      const t = await created(wfId, {
        type: 'schedule',
        enabled: false,
        cron: '*/2 * * * * *',
        inputs: { title: 'tick' },
      });
      for (let i = 0; i < 2; i++)
        replicas.push(
          spawnTsx('test/support/scheduler-replica.ts', [], {
            ...env,
            SCHEDULER: '1',
            SCHEDULER_POLL_MS: '200',
            DATA_DIR: mkdtempSync(path.join(tmpdir(), `paiflow-replica-${i}-`)),
          }),
        );
      const owners = await Promise.all(replicas.map((r) => r.line('READY')));
      expect(new Set(owners).size).toBe(2);

      expect((await triggers.patch(wfId, t.id, { enabled: true })).status).toBe(200);
      const runs = () =>
        databaseOf(app).prisma.run.findMany({ where: { workflowId: wfId }, orderBy: { createdAt: 'asc' } });
      await until(async () => (await runs()).length >= TICKS_WANTED, `${TICKS_WANTED} scheduled runs`, 120_000, 250);
      expect((await triggers.patch(wfId, t.id, { enabled: false })).status).toBe(200);
      // A look that read the schedule just before it was disabled may still start its tick: let it land.
      await new Promise((ok) => setTimeout(ok, 1_500));
      const all = await until(
        async () => {
          const rs = await runs();
          return rs.every((r) => ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(r.status)) && rs;
        },
        'every scheduled run to end',
        60_000,
        250,
      );

      const prefix = `schedule:${t.id}:`;
      expect(all.every((r) => r.triggerKind === 'schedule' && r.triggerId === t.id)).toBe(true);
      expect(all.every((r) => r.idempotencyKey?.startsWith(prefix))).toBe(true);
      const ticks = all.map((r) => Date.parse(r.idempotencyKey!.slice(prefix.length))).sort((a, b) => a - b);
      expect(new Set(ticks).size, 'a tick started twice').toBe(ticks.length);
      expect(ticks.length).toBeGreaterThanOrEqual(TICKS_WANTED);
      expect(ticks.every((ms) => ms % 2000 === 0)).toBe(true);
      const gaps = ticks.slice(1).map((ms, i) => ms - ticks[i]);
      expect(gaps, 'every 2 s tick from the first to the last, once').toEqual(gaps.map(() => 2000));
      expect(all.every((r) => r.status === 'succeeded')).toBe(true);
      // Which replica ran which tick (not asserted: whoever looks first after a tick wins it).
      const byOwner = owners.map((o) => all.filter((r) => r.ownerId === o).length);
      console.info(`[schedules] ${ticks.length} ticks over two replicas: ${byOwner.join(' + ')} runs`);
      expect(byOwner.reduce((a, b) => a + b, 0)).toBe(all.length);
    });
  });
} else {
  describe.skip('schedules on two replicas on PostgreSQL (unreachable)', () => it('skipped', () => {}));
}
