/**
 * The TriggerRepository conformance suite, written once and run on every database kind
 * (test/store/triggers-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stores } from '@/engine/store/app/stores';
import type { NewTrigger, TriggerRepository } from '@/engine/store/triggers';
import { newId, newWorkflow, type StoresFactory, type StoresUnderTest } from './stores-under-test';

const WEBHOOK_CONFIG = { auth: { type: 'hmac' }, mapping: { q: 'body.q' }, response: 'async' };
const SCHEDULE_CONFIG = { cron: '*/5 * * * *', timezone: 'UTC', inputs: { q: 'tick' }, misfire: 'run_once' };

export function describeTriggerRepository(label: string, open: StoresFactory) {
  describe(`TriggerRepository conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let stores: Stores;
    let triggers: TriggerRepository;

    beforeAll(async () => {
      under = await open();
      stores = under.stores;
      triggers = stores.triggers;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    const webhook = (workflowId: string, patch: Partial<NewTrigger> = {}): NewTrigger => ({
      id: newId('hk'),
      workflowId,
      type: 'webhook',
      name: 'hook',
      enabled: true,
      config: WEBHOOK_CONFIG,
      secret: 'sealed-secret',
      nextRunAt: null,
      ...patch,
    });
    const schedule = (workflowId: string, nextRunAt: Date | null, patch: Partial<NewTrigger> = {}): NewTrigger => ({
      id: newId('sch'),
      workflowId,
      type: 'schedule',
      name: 'every five minutes',
      enabled: true,
      config: SCHEDULE_CONFIG,
      secret: null,
      nextRunAt,
      ...patch,
    });

    it('create stores every field; get, list and count find it only under its own workflow', async () => {
      const wf = await newWorkflow(stores);
      const other = await newWorkflow(stores);
      const created = await triggers.create(webhook(wf));
      expect(created).toMatchObject({
        workflowId: wf,
        type: 'webhook',
        name: 'hook',
        enabled: true,
        config: WEBHOOK_CONFIG,
        secret: 'sealed-secret',
        nextRunAt: null,
        lastRunAt: null,
        lastRunId: null,
        lastError: null,
      });
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(await triggers.get(wf, created.id)).toEqual(created);
      expect(await triggers.get(other, created.id)).toBeNull();
      const second = await triggers.create(schedule(wf, new Date('2030-01-01T00:05:00.000Z')));
      expect((await triggers.list(wf)).map((t) => t.id)).toEqual([created.id, second.id]);
      expect(await triggers.count(wf)).toBe(2);
      expect(await triggers.list(other)).toEqual([]);
      expect(await triggers.count(other)).toBe(0);
    });

    it('update changes only what the patch gives and moves updatedAt; a gone trigger is null', async () => {
      const wf = await newWorkflow(stores);
      const t = await triggers.create(webhook(wf));
      await new Promise((r) => setTimeout(r, 5));
      const changed = await triggers.update(t.id, {
        name: 'renamed',
        secret: null,
        config: { auth: { type: 'none' } },
      });
      expect(changed).toMatchObject({
        name: 'renamed',
        enabled: true,
        secret: null,
        config: { auth: { type: 'none' } },
      });
      expect(changed!.updatedAt.getTime()).toBeGreaterThan(t.updatedAt.getTime());
      expect(changed!.createdAt).toEqual(t.createdAt);
      const disabled = await triggers.update(t.id, { enabled: false });
      expect(disabled).toMatchObject({ name: 'renamed', enabled: false });
      expect(await triggers.update('hk_gone', { name: 'x' })).toBeNull();
    });

    it('delete removes the trigger once; deleting its workflow removes its triggers', async () => {
      const wf = await newWorkflow(stores);
      const t = await triggers.create(webhook(wf));
      expect(await triggers.delete(t.id)).toBe(true);
      expect(await triggers.delete(t.id)).toBe(false);
      expect(await triggers.get(wf, t.id)).toBeNull();
      const kept = await triggers.create(webhook(wf));
      expect(await stores.runs.deleteWorkflow(wf)).toBe(true);
      expect(await triggers.get(wf, kept.id)).toBeNull();
      expect(await triggers.findWebhook(kept.id)).toBeNull();
    });

    it('findWebhook answers a webhook with its published workflow by id alone; never a schedule', async () => {
      const wf = await newWorkflow(stores, 'Hooked');
      const hook = await triggers.create(webhook(wf, { enabled: false }));
      const found = await triggers.findWebhook(hook.id);
      expect(found).toEqual({
        trigger: { id: hook.id, workflowId: wf, enabled: false, config: WEBHOOK_CONFIG, secret: 'sealed-secret' },
        workflow: {
          id: wf,
          name: 'Hooked',
          engine: 'auto',
          slug: null,
          currentVersionId: null,
          corsOrigins: null,
          mcp: false,
        },
      });
      const sch = await triggers.create(schedule(wf, null));
      expect(await triggers.findWebhook(sch.id)).toBeNull();
      expect(await triggers.findWebhook('hk_unknown')).toBeNull();
    });

    it('dueSchedules: enabled schedules due by now, earliest first, at most the limit', async () => {
      const wf = await newWorkflow(stores);
      const now = new Date('2031-06-01T12:00:00.000Z');
      const late = await triggers.create(schedule(wf, new Date('2031-06-01T11:59:00.000Z')));
      const later = await triggers.create(schedule(wf, new Date('2031-06-01T11:58:00.000Z')));
      const exactlyNow = await triggers.create(schedule(wf, now));
      await triggers.create(schedule(wf, new Date('2031-06-01T12:00:00.001Z'))); // not yet
      await triggers.create(schedule(wf, new Date('2031-06-01T11:00:00.000Z'), { enabled: false }));
      await triggers.create(webhook(wf, { nextRunAt: new Date('2031-06-01T11:00:00.000Z') }));
      const due = (await triggers.dueSchedules(now, 100)).filter((t) => t.workflowId === wf);
      expect(due.map((t) => t.id)).toEqual([later.id, late.id, exactlyNow.id]);
      const first = (await triggers.dueSchedules(now, 1)).map((t) => t.id);
      expect(first).toHaveLength(1);
    });

    it('advanceSchedule is a compare-and-set on the tick: of two at once, one moves it', async () => {
      const wf = await newWorkflow(stores);
      const tick = new Date('2032-01-01T00:05:00.123Z');
      const next = new Date('2032-01-01T00:10:00.000Z');
      const t = await triggers.create(schedule(wf, tick));
      const outcome = { lastRunAt: tick, lastRunId: 'run_tick', lastError: null };
      const both = await Promise.all([
        triggers.advanceSchedule(t.id, tick, next, outcome),
        triggers.advanceSchedule(t.id, tick, next, outcome),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
      expect(await triggers.get(wf, t.id)).toMatchObject({ nextRunAt: next, lastRunAt: tick, lastRunId: 'run_tick' });
      expect(await triggers.advanceSchedule(t.id, tick, new Date('2040-01-01T00:00:00.000Z'), outcome)).toBe(false);
      expect((await triggers.get(wf, t.id))!.nextRunAt).toEqual(next);
    });

    it('advanceSchedule writes the outcome: an error is kept, a null one clears it, the run stays', async () => {
      const wf = await newWorkflow(stores);
      const tick1 = new Date('2033-01-01T00:00:00.000Z');
      const tick2 = new Date('2033-01-01T00:05:00.000Z');
      const t = await triggers.create(schedule(wf, tick1));
      const failure = { code: 'NOT_PUBLISHED', message: 'publish it first' };
      expect(await triggers.advanceSchedule(t.id, tick1, tick2, { lastRunAt: tick1, lastError: failure })).toBe(true);
      expect(await triggers.get(wf, t.id)).toMatchObject({ lastRunAt: tick1, lastRunId: null, lastError: failure });
      expect(await triggers.advanceSchedule(t.id, tick2, null, { lastError: null })).toBe(true);
      expect(await triggers.get(wf, t.id)).toMatchObject({ nextRunAt: null, lastRunAt: tick1, lastError: null });
    });

    it('noteLastRun records the run without touching updatedAt; a deleted trigger is no error', async () => {
      const wf = await newWorkflow(stores);
      const t = await triggers.create(webhook(wf));
      const at = new Date('2034-02-03T04:05:06.789Z');
      await triggers.noteLastRun(t.id, 'run_last', at);
      const after = await triggers.get(wf, t.id);
      expect(after).toMatchObject({ lastRunAt: at, lastRunId: 'run_last' });
      expect(after!.updatedAt).toEqual(t.updatedAt);
      await triggers.delete(t.id);
      await expect(triggers.noteLastRun(t.id, 'run_late', at)).resolves.toBeUndefined();
    });
  });
}
