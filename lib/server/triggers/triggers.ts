/**
 * A workflow's triggers: webhooks (each with its own unguessable URL, /api/hooks/<id>) and schedules (cron in a time
 * zone). Kept in the `triggers` table (migration 0012). A webhook's secret is encrypted with the credential master key
 * and shown only in the answer that created or replaced it; a generated one likewise. Triggers always run the
 * workflow's published version, so editing the draft never changes what an outside system starts.
 */
import { randomBytes } from 'node:crypto';
import { PaiError } from '@/engine/errors';
import type { TriggerPatch, TriggerRecord, TriggerType, WebhookToRun } from '@/engine/store/triggers';
import type { App } from '../app-types';
import {
  DEFAULT_SECRET_HEADER,
  nextRunAfter,
  nextRunTimes,
  parseCron,
  scheduleConfigSchema,
  webhookConfigSchema,
  type CreateTrigger,
  type PatchTrigger,
  type ScheduleConfig,
  type WebhookConfig,
} from './trigger-schema';

/** Triggers per workflow: enough for every real integration, small enough that a list never needs paging. */
export const MAX_TRIGGERS_PER_WORKFLOW = 50;
/** How many upcoming fire times a schedule's view lists. */
const NEXT_RUNS_SHOWN = 5;

export type { TriggerType, WebhookToRun } from '@/engine/store/triggers';

export interface TriggerView {
  id: string;
  workflowId: string;
  type: TriggerType;
  name: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastRunAt: string | null;
  lastRunId: string | null;
  lastError: unknown;
  /** webhook: the path to call, under the server's base URL, and the full URL for this request's origin. */
  url?: string;
  path?: string;
  auth?: { type: WebhookConfig['auth']['type']; header?: string; requireTimestamp?: true; hasSecret: boolean };
  mapping?: Record<string, string>;
  response?: WebhookConfig['response'];
  timeoutMs?: number;
  /** `auth.type: none`: anyone who learns the URL can start runs. */
  warnings?: string[];
  /** Shown once: in the answer that created the webhook or replaced its secret. */
  secret?: string;
  /** schedule */
  cron?: string;
  timezone?: string;
  inputs?: Record<string, unknown>;
  misfire?: ScheduleConfig['misfire'];
  nextRunAt?: string | null;
  nextRuns?: string[];
}

const newTriggerId = (type: TriggerType) =>
  type === 'webhook' ? `hk_${randomBytes(24).toString('base64url')}` : `sch_${randomBytes(12).toString('hex')}`;
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
const aadOf = (id: string) => `trigger:${id}`;

const notFound = (id: string) => new PaiError('TRIGGER_NOT_FOUND', `trigger ${id} not found`);

export function presentTrigger(t: TriggerRecord, origin: string, shownSecret?: string): TriggerView {
  const base = {
    id: t.id,
    workflowId: t.workflowId,
    type: t.type as TriggerType,
    name: t.name,
    enabled: t.enabled,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    lastRunAt: t.lastRunAt?.toISOString() ?? null,
    lastRunId: t.lastRunId,
    lastError: t.lastError ?? null,
  };
  if (t.type === 'webhook') {
    const c = webhookConfigSchema.parse(t.config);
    const path = `/api/hooks/${t.id}`;
    return {
      ...base,
      url: `${origin}${path}`,
      path,
      auth: {
        type: c.auth.type,
        ...(c.auth.type === 'header' ? { header: c.auth.header ?? DEFAULT_SECRET_HEADER } : {}),
        ...(c.auth.requireTimestamp ? { requireTimestamp: true as const } : {}),
        hasSecret: !!t.secret,
      },
      mapping: c.mapping,
      response: c.response,
      ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
      ...(c.auth.type === 'none'
        ? { warnings: ['this webhook has no authentication: anyone who learns its URL can start runs'] }
        : {}),
      ...(shownSecret ? { secret: shownSecret } : {}),
    };
  }
  const c = scheduleConfigSchema.parse(t.config);
  let nextRuns: string[] = [];
  try {
    nextRuns = t.enabled ? nextRunTimes(c, NEXT_RUNS_SHOWN) : [];
  } catch {
    nextRuns = [];
  }
  return {
    ...base,
    cron: c.cron,
    timezone: c.timezone,
    inputs: c.inputs,
    misfire: c.misfire,
    nextRunAt: t.enabled ? (t.nextRunAt?.toISOString() ?? null) : null,
    nextRuns,
  };
}

/** The webhook's stored config and secret after a create or a PATCH of its auth. */
function webhookAuth(
  auth: { type: WebhookConfig['auth']['type']; secret?: string; header?: string; requireTimestamp?: boolean },
  keepSecret: string | null,
): { auth: WebhookConfig['auth']; secret: string | null; generated?: string } {
  if (auth.requireTimestamp && auth.type !== 'hmac')
    throw new PaiError('VALIDATION_ERROR', 'only an hmac webhook signs a timestamp that can be required', {
      path: 'auth.requireTimestamp',
    });
  const stored: WebhookConfig['auth'] = {
    type: auth.type,
    ...(auth.type === 'header' ? { header: (auth.header ?? DEFAULT_SECRET_HEADER).toLowerCase() } : {}),
    ...(auth.requireTimestamp ? { requireTimestamp: true } : {}),
  };
  if (auth.type === 'none') return { auth: stored, secret: null };
  if (auth.secret) return { auth: stored, secret: auth.secret };
  if (keepSecret) return { auth: stored, secret: keepSecret };
  const generated = newSecret();
  return { auth: stored, secret: generated, generated };
}

export class TriggerService {
  constructor(private readonly app: App) {}

  private get triggers() {
    return this.app.stores.triggers;
  }

  private seal(id: string, secret: string | null): string | null {
    return secret === null ? null : this.app.credentials.seal(secret, aadOf(id));
  }

  /** The webhook's secret in clear (for checking a request); null for `auth.type: none`. */
  secretOf(t: Pick<TriggerRecord, 'id' | 'secret'>): string | null {
    return t.secret ? this.app.credentials.unseal(t.secret, aadOf(t.id)) : null;
  }

  list(workflowId: string): Promise<TriggerRecord[]> {
    return this.triggers.list(workflowId);
  }

  async get(workflowId: string, id: string): Promise<TriggerRecord> {
    const t = await this.triggers.get(workflowId, id);
    if (!t) throw notFound(id);
    return t;
  }

  /**
   * A webhook by its URL id, whatever its workflow, with what running it needs of the workflow (not its draft
   * graph): the hook route's one read.
   */
  findWebhook(id: string): Promise<WebhookToRun | null> {
    return this.triggers.findWebhook(id);
  }

  async create(workflowId: string, body: CreateTrigger): Promise<{ trigger: TriggerRecord; secret?: string }> {
    const count = await this.triggers.count(workflowId);
    if (count >= MAX_TRIGGERS_PER_WORKFLOW)
      throw new PaiError('TRIGGER_LIMIT_REACHED', `a workflow may have at most ${MAX_TRIGGERS_PER_WORKFLOW} triggers`);
    const id = newTriggerId(body.type);
    if (body.type === 'webhook') {
      const { auth, secret, generated } = webhookAuth(body.auth, null);
      const config: WebhookConfig = {
        auth,
        mapping: body.mapping,
        response: body.response,
        ...(body.timeoutMs ? { timeoutMs: body.timeoutMs } : {}),
      };
      const trigger = await this.triggers.create({
        id,
        workflowId,
        type: 'webhook',
        name: body.name ?? '',
        enabled: body.enabled ?? true,
        config,
        secret: this.seal(id, secret),
        nextRunAt: null,
      });
      return { trigger, secret: generated ?? body.auth.secret };
    }
    const config: ScheduleConfig = {
      cron: body.cron,
      timezone: body.timezone,
      inputs: body.inputs,
      misfire: body.misfire,
    };
    const enabled = body.enabled ?? true;
    const trigger = await this.triggers.create({
      id,
      workflowId,
      type: 'schedule',
      name: body.name ?? '',
      enabled,
      config,
      secret: null,
      nextRunAt: enabled ? nextRunAfter(config, parseCronNow(config)) : null,
    });
    return { trigger };
  }

  async update(
    workflowId: string,
    id: string,
    patch: PatchTrigger,
  ): Promise<{ trigger: TriggerRecord; secret?: string }> {
    const t = await this.get(workflowId, id);
    const data: TriggerPatch = {};
    if (patch.name !== undefined) data.name = patch.name;
    if (patch.enabled !== undefined) data.enabled = patch.enabled;
    let shown: string | undefined;
    if (t.type === 'webhook') {
      rejectFields(patch, ['cron', 'timezone', 'inputs', 'misfire'], 'webhook');
      const c = webhookConfigSchema.parse(t.config);
      const next: WebhookConfig = { ...c };
      if (patch.auth) {
        const { auth, secret, generated } = webhookAuth(
          patch.auth,
          patch.auth.type === c.auth.type ? this.secretOf(t) : null,
        );
        next.auth = auth;
        data.secret = this.seal(t.id, secret);
        shown = generated ?? patch.auth.secret;
      }
      if (patch.mapping) next.mapping = patch.mapping;
      if (patch.response) next.response = patch.response;
      if (patch.timeoutMs !== undefined) {
        if (patch.timeoutMs === null) delete next.timeoutMs;
        else next.timeoutMs = patch.timeoutMs;
      }
      data.config = next;
    } else {
      rejectFields(patch, ['auth', 'mapping', 'response', 'timeoutMs'], 'schedule');
      const c = scheduleConfigSchema.parse(t.config);
      const next: ScheduleConfig = {
        cron: patch.cron ?? c.cron,
        timezone: patch.timezone ?? c.timezone,
        inputs: patch.inputs ?? c.inputs,
        misfire: patch.misfire ?? c.misfire,
      };
      const enabled = patch.enabled ?? t.enabled;
      const timingChanged = patch.cron !== undefined || patch.timezone !== undefined || patch.enabled !== undefined;
      data.config = next;
      // A new expression, or re-enabling, starts from now: ticks missed while disabled are not misfires.
      if (timingChanged) data.nextRunAt = enabled ? nextRunAfter(next, parseCronNow(next)) : null;
    }
    const trigger = await this.triggers.update(t.id, data);
    if (!trigger) throw notFound(id);
    return { trigger, ...(shown ? { secret: shown } : {}) };
  }

  async remove(workflowId: string, id: string): Promise<void> {
    const t = await this.get(workflowId, id);
    if (!(await this.triggers.delete(t.id))) throw notFound(id);
  }
}

/** Validates the expression and zone (400 with the path) and answers "now" for the first fire time after it. */
function parseCronNow(config: Pick<ScheduleConfig, 'cron' | 'timezone'>): Date {
  parseCron(config.cron, config.timezone);
  return new Date();
}

function rejectFields(patch: PatchTrigger, fields: Array<keyof PatchTrigger>, type: TriggerType): void {
  for (const f of fields)
    if (patch[f] !== undefined)
      throw new PaiError('VALIDATION_ERROR', `"${f}" does not apply to a ${type} trigger`, { path: f });
}

const services = new WeakMap<App, TriggerService>();
export function triggersOf(app: App): TriggerService {
  let s = services.get(app);
  if (!s) services.set(app, (s = new TriggerService(app)));
  return s;
}
