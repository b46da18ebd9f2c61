/**
 * A workflow's triggers (webhooks and schedules), as the store keeps them (table `triggers`, migration 0012). What a
 * trigger's config means, its secret's encryption and the views are lib/server/triggers/; this is only their rows.
 */
import type { PublishedWorkflow } from './publishing';

export type TriggerType = 'webhook' | 'schedule';

export interface TriggerRecord {
  /** A webhook's id is its URL part (/api/hooks/<id>). */
  id: string;
  workflowId: string;
  type: TriggerType;
  name: string;
  enabled: boolean;
  /** webhook: { auth, mapping, response, timeoutMs? }; schedule: { cron, timezone, inputs, misfire }. */
  config: unknown;
  /** A webhook's header secret or HMAC key, sealed under the master key (null: none). */
  secret: string | null;
  /** A schedule's next tick: advanced by compare-and-set (advanceSchedule), so one replica starts each tick. */
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  lastRunId: string | null;
  lastError: unknown;
  createdAt: Date;
  /** Changed by edits only (update), not by the record of a run. */
  updatedAt: Date;
}

export type NewTrigger = Pick<
  TriggerRecord,
  'id' | 'workflowId' | 'type' | 'name' | 'enabled' | 'config' | 'secret' | 'nextRunAt'
>;

/** An edit: fields left undefined keep their value; `updatedAt` becomes now. */
export type TriggerPatch = Partial<Pick<TriggerRecord, 'name' | 'enabled' | 'config' | 'secret' | 'nextRunAt'>>;

/** What the hook route reads of a webhook and its workflow, in one read. */
export interface WebhookToRun {
  trigger: Pick<TriggerRecord, 'id' | 'workflowId' | 'enabled' | 'config' | 'secret'>;
  workflow: PublishedWorkflow;
}

/** What a schedule's tick came to: written with the tick's advance. `lastError` null clears it. */
export interface ScheduleOutcome {
  lastRunAt?: Date;
  lastRunId?: string;
  lastError: unknown;
}

/**
 * Triggers by workflow. Lookups name the workflow (the caller checked it is in the caller's workspace), so a trigger
 * of another workflow is absent; `findWebhook`, the hook route's lookup, goes by the unguessable id alone.
 */
export interface TriggerRepository {
  /** The workflow's triggers, oldest first. */
  list(workflowId: string): Promise<TriggerRecord[]>;
  get(workflowId: string, id: string): Promise<TriggerRecord | null>;
  count(workflowId: string): Promise<number>;
  create(trigger: NewTrigger): Promise<TriggerRecord>;
  /** Null when the trigger is gone. */
  update(id: string, patch: TriggerPatch): Promise<TriggerRecord | null>;
  /** False when there was no such trigger. */
  delete(id: string): Promise<boolean>;
  /** A webhook by its id, whatever its workflow, with what running it needs of the workflow (not its draft). */
  findWebhook(id: string): Promise<WebhookToRun | null>;
  /** Enabled schedules whose next tick is at or before `now`, earliest first, at most `limit`. */
  dueSchedules(now: Date, limit: number): Promise<TriggerRecord[]>;
  /**
   * Moves the schedule from `tick` to `next` with the tick's outcome, only if its next tick is still `tick`
   * (compare-and-set). True when this call moved it.
   */
  advanceSchedule(id: string, tick: Date, next: Date | null, outcome: ScheduleOutcome): Promise<boolean>;
  /** Records the trigger's last run (nothing when the trigger was deleted meanwhile); `updatedAt` stays. */
  noteLastRun(id: string, runId: string, at: Date): Promise<void>;
}
