/**
 * Run analytics use-cases: GET /api/runs (the workspace's runs, filtered and searched, paged by an opaque cursor,
 * each with its `costUsd`) and GET /api/workflows/:id/stats. Query strings are checked here (a bad one is a 400 with
 * `query.<name>`); the store's RunAnalyticsStore (engine/store/analytics.ts) always names the caller's workspace.
 */
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { ENGINES } from '@/engine/graph/schema';
import { RUN_STATUSES } from '@/engine/store/types';
import { RUN_TRIGGER_NAMES, type RunListQuery, type WorkflowStats } from '@/engine/store/analytics';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { getWorkflowOr404 } from '../workflows/workflows';

export const RUNS_PAGE_DEFAULT = 50;
export const RUNS_PAGE_MAX = 200;
const DAY_MS = 86_400_000;
/** The stats range when none is given, and the longest one accepted (perDay has one entry per day of it). */
export const STATS_DEFAULT_DAYS = 30;
export const STATS_MAX_DAYS = 366;

const instant = z
  .string()
  .max(40)
  .refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date or time')
  .transform((s) => new Date(s));

const runListSchema = z.object({
  workflowId: z.string().min(1).max(100).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  engine: z.enum(ENGINES.filter((e) => e !== 'auto') as ['dag', 'langgraph']).optional(),
  version: z
    .union([z.literal('draft'), z.string().regex(/^[1-9]\d{0,9}$/, 'must be a version number or "draft"')])
    .transform((v) => (v === 'draft' ? v : Number(v)))
    .refine((v) => v === 'draft' || v <= 2_147_483_647, 'is out of range')
    .optional(),
  trigger: z.enum(RUN_TRIGGER_NAMES).optional(),
  from: instant.optional(),
  to: instant.optional(),
  q: z.string().max(200).optional(),
  cursor: z.string().max(400).optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= RUNS_PAGE_MAX, `must be between 1 and ${RUNS_PAGE_MAX}`)
    .optional(),
});

const statsSchema = z.object({ from: instant.optional(), to: instant.optional() });

/** The query string as an object; an empty value counts as absent (a form's cleared filter). */
function queryOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(req.url).searchParams) if (v !== '') out[k] = v;
  return out;
}

function parseQuery<T>(req: Request, schema: z.ZodType<T>): T {
  const r = schema.safeParse(queryOf(req));
  if (r.success) return r.data;
  const i = r.error.issues[0];
  const name = String(i.path[0] ?? '');
  throw new PaiError('VALIDATION_ERROR', `${name} ${i.message}`.trim(), { path: `query.${name}` });
}

function badRange(message: string): PaiError {
  return new PaiError('VALIDATION_ERROR', message, { path: 'query.from' });
}

/** The cursor is the last row's keyset, opaque to clients (base64url JSON). */
export function encodeCursor(row: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([row.createdAt, row.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(v) &&
      v.length === 2 &&
      typeof v[0] === 'string' &&
      typeof v[1] === 'string' &&
      !Number.isNaN(Date.parse(v[0]))
    )
      return { createdAt: v[0], id: v[1] };
  } catch {
    /* below */
  }
  throw new PaiError('INVALID_CURSOR', 'cursor is not one this endpoint returned', {
    path: 'query.cursor',
  });
}

/** GET /api/runs: one page of the caller's workspace's runs, newest first. */
export async function listWorkspaceRuns(app: App, caller: Pick<Caller, 'workspaceId'>, req: Request) {
  const p = parseQuery(req, runListSchema);
  if (p.from && p.to && p.from >= p.to) throw badRange('from must be before to');
  const query: RunListQuery = {
    workspaceId: caller.workspaceId,
    workflowId: p.workflowId,
    status: p.status,
    engine: p.engine,
    version: p.version,
    trigger: p.trigger,
    from: p.from,
    to: p.to,
    q: p.q?.trim() || undefined,
    after: p.cursor ? decodeCursor(p.cursor) : undefined,
    limit: p.limit ?? RUNS_PAGE_DEFAULT,
  };
  const { rows, hasMore } = await app.stores.analytics.listRuns(query);
  // Each run's cost, read for this page only (as GET /api/runs/:id sums it: null when a node's price is unknown).
  const costs = await app.stores.analytics.runCosts(rows.map((r) => r.id));
  const runs = rows.map((r) => {
    const cost = costs.get(r.id);
    return { ...r, costUsd: cost ? cost.costUsd : 0 }; // no snapshot has usage: no LLM work
  });
  return { runs, nextCursor: hasMore ? encodeCursor(rows[rows.length - 1]) : null };
}

/** GET /api/workflows/:id/stats: `to` defaults to now, `from` to STATS_DEFAULT_DAYS before `to`. */
export async function workflowStats(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  workflowId: string,
  req: Request,
): Promise<WorkflowStats & { from: string; to: string }> {
  const p = parseQuery(req, statsSchema);
  const to = p.to ?? new Date();
  const from = p.from ?? new Date(to.getTime() - STATS_DEFAULT_DAYS * DAY_MS);
  if (from >= to) throw badRange('from must be before to');
  if (to.getTime() - from.getTime() > STATS_MAX_DAYS * DAY_MS)
    throw badRange(`the range may span at most ${STATS_MAX_DAYS} days`);
  const wf = await getWorkflowOr404(app, caller, workflowId);
  const stats = await app.stores.analytics.workflowStats(caller.workspaceId, wf.id, from, to);
  if (!stats) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${workflowId} not found`);
  return { from: from.toISOString(), to: to.toISOString(), ...stats, perDay: fillDays(stats.perDay, from, to) };
}

/** Every UTC day of [from, to) in order, the days without runs as zeros, so a chart's axis has no gaps. */
function fillDays(perDay: WorkflowStats['perDay'], from: Date, to: Date): WorkflowStats['perDay'] {
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const out: WorkflowStats['perDay'] = [];
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let t = start; t < to.getTime(); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push(
      byDay.get(day) ?? {
        day,
        runs: 0,
        succeeded: 0,
        failed: 0,
        p50Ms: null,
        p95Ms: null,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: null,
      },
    );
  }
  return out;
}
