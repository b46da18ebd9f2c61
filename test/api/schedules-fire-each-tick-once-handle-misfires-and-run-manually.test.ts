/**
 * Guarantee: a schedule trigger starts one run of the published version per tick, with its fixed inputs, recorded
 * as `schedule` and keyed `schedule:<id>:<tick>`; two schedulers looking at the same due tick start it once. A tick
 * late by less than the grace still runs, and so does the one after it (none is dropped); after downtime longer than
 * the grace, `run_once` runs once and `skip` runs none, and neither makes up the missed ticks. A tick that cannot
 * start is the schedule's `lastError` and the schedule moves on. Answers show `nextRunAt` and `nextRuns` (in the
 * schedule's time zone); disabling clears them, re-enabling starts from now; the run route fires one at once.
 * The clock is the Scheduler's own `now` option (the app's scheduler is off: SCHEDULER=0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as fire } from '@/app/api/workflows/[id]/triggers/[triggerId]/run/route';
import { GET as listRuns } from '@/app/api/runs/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { getApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { Scheduler } from '@/lib/server/triggers/scheduler';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from './api-helpers';
import { created, echoWorkflow, runCount, triggers } from './webhook-triggers-fixture';
import { databaseOf } from '../support/database-of';

useFreshDataDir('paiflow-schedules-');
process.env.SEED_EXAMPLE = '0';
process.env.SCHEDULER = '0';

const GRACE_MS = 60_000;
const SEC = 1000;
let app: App;
let wfId = '';
let clock = new Date();
const scheduler = () => new Scheduler(app, { pollMs: 60_000, misfireGraceMs: GRACE_MS, now: () => clock });

/** The schedule's stored next tick. */
async function nextTick(id: string): Promise<Date | null> {
  return (await databaseOf(app).prisma.trigger.findUniqueOrThrow({ where: { id } })).nextRunAt;
}
async function runsOf(id: string) {
  return databaseOf(app).prisma.run.findMany({ where: { triggerId: id }, orderBy: { createdAt: 'asc' } });
}
const at = (d: Date, ms: number) => new Date(d.getTime() + ms);
const keyOf = (id: string, tick: Date) => `schedule:${id}:${tick.toISOString()}`;
const everyTwoSeconds = (extra: object = {}) => ({
  type: 'schedule',
  cron: '*/2 * * * * *',
  inputs: { title: 'scheduled', ref: 'nightly' },
  ...extra,
});

beforeAll(async () => {
  app = await getApp();
  expect(app.scheduler).toBeNull();
  wfId = await echoWorkflow('Scheduled target');
});

afterAll(() => expectNoServerErrorsOrStacks());

describe('the answers: nextRunAt and nextRuns', () => {
  it('a seconds cron: nextRunAt is the next even second, nextRuns five ticks 2 s apart', async () => {
    const before = Date.now();
    const t = await created(wfId, everyTwoSeconds());
    expect(t.id).toMatch(/^sch_/);
    expect(t).toMatchObject({ cron: '*/2 * * * * *', timezone: 'UTC', misfire: 'run_once', enabled: true });
    const next = Date.parse(t.nextRunAt);
    expect(next).toBeGreaterThan(before);
    expect(next).toBeLessThanOrEqual(Date.now() + 2 * SEC);
    expect(next % 2000).toBe(0);
    expect(t.nextRuns).toHaveLength(5);
    const gaps = t.nextRuns.slice(1).map((r: string, i: number) => Date.parse(r) - Date.parse(t.nextRuns[i]));
    expect(gaps).toEqual([2000, 2000, 2000, 2000]);
    await triggers.remove(wfId, t.id);
  });

  it('a time zone: 09:00 in Asia/Shanghai is 01:00 UTC', async () => {
    const t = await created(wfId, { type: 'schedule', cron: '0 9 * * *', timezone: 'Asia/Shanghai' });
    expect(t.timezone).toBe('Asia/Shanghai');
    expect(t.nextRunAt).toMatch(/T01:00:00\.000Z$/);
    for (const r of t.nextRuns) expect(r).toMatch(/T01:00:00\.000Z$/);
    const p = await triggers.patch(wfId, t.id, { timezone: 'America/New_York' });
    expect(p.status, p.text).toBe(200);
    expect(p.body.nextRunAt).toMatch(/T1[34]:00:00\.000Z$/); // 09:00 EST or EDT
    expectError(await triggers.patch(wfId, t.id, { cron: 'nope' }), 400, 'INVALID_CRON', 'cron');
    expectError(await triggers.patch(wfId, t.id, { timezone: 'Nowhere/City' }), 400, 'INVALID_TIMEZONE', 'timezone');
    expectError(await triggers.patch(wfId, t.id, { mapping: {} }), 400, 'VALIDATION_ERROR', 'mapping');
    await triggers.remove(wfId, t.id);
  });

  it('disabling clears nextRunAt and nextRuns; re-enabling starts from now, not from the stale tick', async () => {
    const t = await created(wfId, everyTwoSeconds());
    const off = await triggers.patch(wfId, t.id, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, nextRunAt: null, nextRuns: [] });
    expect(await nextTick(t.id)).toBeNull();
    // A disabled schedule never fires, whatever the clock says.
    clock = at(new Date(), 3600 * SEC);
    expect(await scheduler().look()).toBe(0);
    expect(await runsOf(t.id)).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 2100)); // the old tick is now in the past
    const before = Date.now();
    const on = await triggers.patch(wfId, t.id, { enabled: true });
    expect(on.body.enabled).toBe(true);
    expect(Date.parse(on.body.nextRunAt)).toBeGreaterThan(before);
    expect(Date.parse(on.body.nextRunAt)).toBeLessThanOrEqual(Date.now() + 2 * SEC);
    expect(Date.parse(on.body.nextRunAt)).toBeGreaterThan(Date.parse(t.nextRunAt));
    expect(on.body.nextRuns).toHaveLength(5);
    await triggers.remove(wfId, t.id);
  });
});

describe('firing', () => {
  let id = '';
  beforeAll(async () => {
    id = (await created(wfId, everyTwoSeconds())).id;
  });
  afterAll(async () => {
    await triggers.patch(wfId, id, { enabled: false });
  });

  it('a due tick starts one run: its inputs, trigger, key schedule:<id>:<tick>; the tick advances 2 s', async () => {
    const tick = (await nextTick(id))!;
    clock = at(tick, -1);
    expect(await scheduler().look()).toBe(0); // not due yet
    clock = at(tick, 300);
    expect(await scheduler().look()).toBe(1);
    const runs = await runsOf(id);
    expect(runs.map((r) => r.idempotencyKey)).toEqual([keyOf(id, tick)]);
    expect(runs[0]).toMatchObject({ triggerKind: 'schedule', triggerId: id });
    const run = await waitForRun(getRun, runs[0].id);
    expect(run.outputs).toMatchObject({ title: 'scheduled', ref: 'nightly' });
    expect(await nextTick(id)).toEqual(at(tick, 2 * SEC));
    expect(await scheduler().look()).toBe(0); // same clock: nothing more is due
    const t = await triggers.get(wfId, id);
    expect(t.body).toMatchObject({ lastRunId: runs[0].id, lastRunAt: tick.toISOString(), lastError: null });
    const listed = await call(listRuns, 'GET', `/api/runs?trigger=schedule&workflowId=${wfId}`);
    expect(listed.body.runs.map((r: any) => r.id)).toContain(runs[0].id);
  });

  it('two schedulers looking at the same due tick at once start it once', async () => {
    for (let round = 0; round < 5; round++) {
      const tick = (await nextTick(id))!;
      clock = at(tick, 100);
      const before = (await runsOf(id)).length;
      const fired = await Promise.all([scheduler().look(), scheduler().look(), scheduler().look()]);
      expect(
        fired.reduce((a, b) => a + b, 0),
        `round ${round}`,
      ).toBe(1);
      const runs = await runsOf(id);
      expect(runs).toHaveLength(before + 1);
      expect(runs.at(-1)!.idempotencyKey).toBe(keyOf(id, tick));
      expect(await nextTick(id)).toEqual(at(tick, 2 * SEC));
    }
  });

  it('a tick late by less than the grace runs, and the tick after it (due too) is not dropped', async () => {
    const tick = (await nextTick(id))!;
    clock = at(tick, 3 * SEC); // this tick and the next are both past, well within the grace
    const before = (await runsOf(id)).length;
    expect(await scheduler().look()).toBe(1);
    expect(await nextTick(id)).toEqual(at(tick, 2 * SEC));
    expect(await scheduler().look()).toBe(1);
    expect(await nextTick(id)).toEqual(at(tick, 4 * SEC)); // in the future of the clock: waits
    expect(await scheduler().look()).toBe(0);
    const keys = (await runsOf(id)).slice(before).map((r) => r.idempotencyKey);
    expect(keys).toEqual([keyOf(id, tick), keyOf(id, at(tick, 2 * SEC))]);
  });

  it('misfire run_once: after 10 minutes down, one run (of the missed tick), then on from now', async () => {
    const tick = (await nextTick(id))!;
    clock = at(tick, 600 * SEC); // 300 ticks missed
    const before = (await runsOf(id)).length;
    expect(await scheduler().look()).toBe(1);
    expect(await scheduler().look()).toBe(0);
    const runs = (await runsOf(id)).slice(before);
    expect(runs.map((r) => r.idempotencyKey)).toEqual([keyOf(id, tick)]);
    const next = (await nextTick(id))!;
    expect(next.getTime()).toBeGreaterThan(clock.getTime());
    expect(next.getTime()).toBeLessThanOrEqual(clock.getTime() + 2 * SEC);
  });

  it('misfire skip: after 10 minutes down, no run; lastError says it was skipped; then on from now', async () => {
    expect((await triggers.patch(wfId, id, { misfire: 'skip' })).status).toBe(200);
    const tick = (await nextTick(id))!;
    clock = at(tick, 600 * SEC);
    const before = await runCount(wfId);
    expect(await scheduler().look()).toBe(1); // the tick was advanced, not run
    expect(await runCount(wfId)).toBe(before);
    const t = await triggers.get(wfId, id);
    expect(t.body.lastError).toMatchObject({ code: 'MISFIRE_SKIPPED' });
    expect((await nextTick(id))!.getTime()).toBeGreaterThan(clock.getTime());
    // A tick on time still runs under `skip`.
    clock = at((await nextTick(id))!, 50);
    expect(await scheduler().look()).toBe(1);
    expect(await runCount(wfId)).toBe(before + 1);
    expect((await triggers.get(wfId, id)).body.lastError).toBeNull();
  });
});

describe('what cannot start, and firing by hand', () => {
  it('a tick that cannot start (required input missing) is lastError, and the schedule moves on', async () => {
    const t = await created(wfId, { type: 'schedule', cron: '*/2 * * * * *', inputs: { ref: 'no title' } });
    const tick = (await nextTick(t.id))!;
    clock = at(tick, 100);
    const before = await runCount(wfId);
    expect(await scheduler().look()).toBe(1);
    expect(await runCount(wfId)).toBe(before);
    expect((await triggers.get(wfId, t.id)).body.lastError).toMatchObject({ code: 'MISSING_INPUT' });
    expect(await nextTick(t.id)).toEqual(at(tick, 2 * SEC));
    await triggers.remove(wfId, t.id);
  });

  it('an unpublished workflow: lastError NOT_PUBLISHED, nothing started', async () => {
    const draft = await echoWorkflow('Unpublished schedule', { publish: false });
    const t = await created(draft, everyTwoSeconds());
    clock = at((await nextTick(t.id))!, 100);
    await scheduler().look();
    expect(await runCount(draft)).toBe(0);
    expect((await triggers.get(draft, t.id)).body.lastError).toMatchObject({ code: 'NOT_PUBLISHED' });
    await triggers.remove(draft, t.id);
  });

  it('the run route fires a schedule now with its inputs; its ticks are untouched', async () => {
    const t = await created(wfId, everyTwoSeconds({ cron: '0 0 1 1 *', inputs: { title: 'by hand' } }));
    const tick = await nextTick(t.id);
    const a = await call(fire, 'POST', `/api/workflows/${wfId}/triggers/${t.id}/run`, {
      params: { id: wfId, triggerId: t.id },
    });
    expect(a.status, a.text).toBe(202);
    const run = await waitForRun(getRun, a.body.runId);
    expect(run.outputs.title).toBe('by hand');
    const stored = await databaseOf(app).prisma.run.findUniqueOrThrow({ where: { id: a.body.runId } });
    expect({ kind: stored.triggerKind, id: stored.triggerId }).toEqual({ kind: 'schedule', id: t.id });
    expect(await nextTick(t.id)).toEqual(tick);
    expectError(
      await call(fire, 'POST', `/api/workflows/${wfId}/triggers/sch_nope/run`, {
        params: { id: wfId, triggerId: 'sch_nope' },
      }),
      404,
      'TRIGGER_NOT_FOUND',
    );
    await triggers.remove(wfId, t.id);
  });
});
