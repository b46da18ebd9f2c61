/**
 * Fires schedule triggers. Every app process may run a scheduler (SCHEDULER, default on), and each tick still starts
 * exactly one run, however many replicas and workers there are:
 *
 * 1. A due schedule's tick is started as a run whose idempotency key is `schedule:<triggerId>:<tick ISO time>`. The
 *    runs table is unique on (workflow, idempotency key), so a second replica that fires the same tick finds the run
 *    instead of starting another — also after the first replica died between starting the run and step 2.
 * 2. The tick is then advanced by compare-and-set (`UPDATE … WHERE next_run_at = <the tick>`): whoever wins moves it
 *    to the next fire time after now; a loser's update touches nothing.
 *
 * Misfires (downtime, a paused process): a tick later than SCHEDULER_MISFIRE_GRACE_MS runs once when the scheduler
 * next looks (`misfire: "run_once"`, the default) or is dropped (`skip`); the ticks missed in between are never made
 * up one by one. A tick less late than that is no misfire: it runs, and so does each later one, one per look. A tick
 * that cannot start (workflow not published, bad inputs, the concurrency cap) is recorded as the schedule's
 * `lastError` and the schedule moves on.
 */
import { toPaiError } from '@/lib/http/errors';
import type { ScheduleOutcome, TriggerRecord } from '@/engine/store/triggers';
import { settings } from '@/engine/config/settings';
import type { App, AppScheduler } from '../app-types';
import { nextRunAfter, scheduleConfigSchema, type ScheduleConfig } from './trigger-schema';
import { startTriggeredRun } from './trigger-runs';

/** Due schedules read per look; the rest wait for the next one (a second later by default). */
const BATCH = 100;

export interface SchedulerOptions {
  pollMs: number;
  misfireGraceMs: number;
  /** The clock (tests). */
  now?: () => Date;
}

export class Scheduler implements AppScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly app: App,
    private readonly o: SchedulerOptions = {
      pollMs: settings().SCHEDULER_POLL_MS,
      misfireGraceMs: settings().SCHEDULER_MISFIRE_GRACE_MS,
    },
  ) {}

  start(): void {
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.look()
        .then(() => {})
        .catch((e) => console.warn(`[paiflow] scheduler: ${(e as Error).message}`))
        .finally(() => {
          this.running = null;
          this.schedule(this.o.pollMs);
        });
    }, ms);
    this.timer.unref?.();
  }

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }

  /** Fires every due schedule once. Exposed for tests and for a manual look. */
  async look(): Promise<number> {
    const now = this.now();
    const due = await this.app.stores.triggers.dueSchedules(now, BATCH);
    let fired = 0;
    for (const t of due) {
      if (this.stopped) break;
      if (await this.fire(t, now)) fired++;
    }
    return fired;
  }

  /** Starts (or finds) the run of `t`'s due tick and advances the tick; true when this call advanced it. */
  private async fire(t: TriggerRecord, now: Date): Promise<boolean> {
    const tick = t.nextRunAt!;
    const misfired = now.getTime() - tick.getTime() > this.o.misfireGraceMs;
    let config: ScheduleConfig;
    let next: Date | null;
    try {
      config = scheduleConfigSchema.parse(t.config);
      // A tick late by less than the grace is an ordinary one: the next tick follows it (and fires on the next
      // look if it is due already), so a slow look never drops a tick. A misfire's run (or skip) stands for every
      // tick missed since, and the schedule resumes after now.
      next = nextRunAfter(config, misfired ? now : tick);
    } catch (e) {
      return this.advance(t, tick, null, { lastError: errorJson(e) });
    }
    if (misfired && config.misfire === 'skip')
      return this.advance(t, tick, next, {
        lastError: { code: 'MISFIRE_SKIPPED', message: `the tick of ${tick.toISOString()} was missed and skipped` },
      });
    try {
      const { run } = await startTriggeredRun(this.app, {
        workflowId: t.workflowId,
        inputs: config.inputs,
        trigger: { kind: 'schedule', id: t.id },
        idempotencyKey: `schedule:${t.id}:${tick.toISOString()}`,
      });
      return this.advance(t, tick, next, { lastRunAt: tick, lastRunId: run.id, lastError: null });
    } catch (e) {
      return this.advance(t, tick, next, { lastRunAt: tick, lastError: errorJson(e) });
    }
  }

  /** Moves the schedule past `tick` by compare-and-set: true when this call moved it. */
  private advance(t: TriggerRecord, tick: Date, next: Date | null, outcome: ScheduleOutcome): Promise<boolean> {
    return this.app.stores.triggers.advanceSchedule(t.id, tick, next, outcome);
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

function errorJson(e: unknown): { code: string; message: string } {
  const pe = toPaiError(e);
  return pe ? { code: pe.code, message: pe.message } : { code: 'SCHEDULE_FAILED', message: (e as Error).message };
}
