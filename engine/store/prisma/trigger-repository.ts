/**
 * TriggerRepository on Prisma (table `triggers`). The hook route's lookup is a prepared statement through the driver
 * (it is on every call's path, like the published endpoint's key lookup).
 */
import type { EngineChoice } from '../../graph/schema';
import type {
  NewTrigger,
  ScheduleOutcome,
  TriggerPatch,
  TriggerRecord,
  TriggerRepository,
  TriggerType,
  WebhookToRun,
} from '../triggers';
import { Prisma, type PrismaClient, type Trigger } from './generated/client';
import type { SqlRunner } from './migrator';

interface WebhookRow {
  id: string;
  workflow_id: string;
  enabled: boolean;
  config: unknown;
  secret: string | null;
  w_name: string;
  w_engine: string;
  w_slug: string | null;
  w_current_version_id: string | null;
  w_cors_origins: unknown;
  w_mcp: boolean;
}

const toTrigger = (t: Trigger): TriggerRecord => ({ ...t, type: t.type as TriggerType });
const json = (v: unknown) => v as Prisma.InputJsonValue;
/** A JSON column set to SQL NULL (Prisma tells it apart from the JSON value null). */
const jsonOrNull = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : json(v));

export class PrismaTriggerRepository implements TriggerRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlRunner,
  ) {}

  async list(workflowId: string) {
    return (await this.prisma.trigger.findMany({ where: { workflowId }, orderBy: { createdAt: 'asc' } })).map(
      toTrigger,
    );
  }

  async get(workflowId: string, id: string) {
    const t = await this.prisma.trigger.findFirst({ where: { id, workflowId } });
    return t ? toTrigger(t) : null;
  }

  count(workflowId: string) {
    return this.prisma.trigger.count({ where: { workflowId } });
  }

  async create(t: NewTrigger) {
    return toTrigger(await this.prisma.trigger.create({ data: { ...t, config: json(t.config) } }));
  }

  async update(id: string, patch: TriggerPatch) {
    const data: Prisma.TriggerUpdateManyMutationInput = { updatedAt: new Date() };
    if (patch.name !== undefined) data.name = patch.name;
    if (patch.enabled !== undefined) data.enabled = patch.enabled;
    if (patch.config !== undefined) data.config = json(patch.config);
    if (patch.secret !== undefined) data.secret = patch.secret;
    if (patch.nextRunAt !== undefined) data.nextRunAt = patch.nextRunAt;
    const { count } = await this.prisma.trigger.updateMany({ where: { id }, data });
    if (!count) return null;
    const t = await this.prisma.trigger.findUnique({ where: { id } });
    return t ? toTrigger(t) : null;
  }

  async delete(id: string) {
    return (await this.prisma.trigger.deleteMany({ where: { id } })).count > 0;
  }

  async findWebhook(id: string): Promise<WebhookToRun | null> {
    const [r] = await this.sql.prepared<WebhookRow>(
      'paiflow_webhook_to_run',
      `SELECT t.id, t.workflow_id, t.enabled, t.config, t.secret,
        w.name AS w_name, w.engine AS w_engine, w.slug AS w_slug, w.current_version_id AS w_current_version_id,
        w.cors_origins AS w_cors_origins, w.mcp AS w_mcp
      FROM triggers t JOIN workflows w ON w.id = t.workflow_id
      WHERE t.id = $1 AND t.type = 'webhook'`,
      [id],
    );
    if (!r) return null;
    return {
      trigger: { id: r.id, workflowId: r.workflow_id, enabled: r.enabled === true, config: r.config, secret: r.secret },
      workflow: {
        id: r.workflow_id,
        name: r.w_name,
        engine: r.w_engine as EngineChoice,
        slug: r.w_slug,
        currentVersionId: r.w_current_version_id,
        corsOrigins: (r.w_cors_origins ?? null) as string[] | null,
        mcp: r.w_mcp === true,
      },
    };
  }

  async dueSchedules(now: Date, limit: number) {
    const rows = await this.prisma.trigger.findMany({
      where: { type: 'schedule', enabled: true, nextRunAt: { lte: now } },
      orderBy: { nextRunAt: 'asc' },
      take: limit,
    });
    return rows.map(toTrigger);
  }

  async advanceSchedule(id: string, tick: Date, next: Date | null, outcome: ScheduleOutcome) {
    const { count } = await this.prisma.trigger.updateMany({
      where: { id, nextRunAt: tick },
      data: {
        nextRunAt: next,
        ...(outcome.lastRunAt ? { lastRunAt: outcome.lastRunAt } : {}),
        ...(outcome.lastRunId ? { lastRunId: outcome.lastRunId } : {}),
        lastError: jsonOrNull(outcome.lastError),
      },
    });
    return count === 1;
  }

  async noteLastRun(id: string, runId: string, at: Date) {
    await this.prisma.trigger.updateMany({ where: { id }, data: { lastRunAt: at, lastRunId: runId } });
  }
}
