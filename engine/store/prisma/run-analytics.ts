/**
 * Run analytics in SQL, the same on PGlite and PostgreSQL: the workspace-wide run list (filters, search, keyset
 * pages on (created_at, id), never OFFSET) and a workflow's stats (per day and in total, percentiles with
 * percentile_cont, tokens and cost from node_runs.usage). Every query names the workspace: a run belongs to it
 * through its workflow, so another workspace's runs are never read.
 * Timestamps are stored as UTC `timestamp(3)`; they leave the database as ISO text, so the driver's local time
 * zone never shifts them.
 */
import {
  INPUTS_PREVIEW_CHARS,
  RUN_TRIGGER_NAMES,
  type RunListQuery,
  type RunListRow,
  type RunTrigger,
  type WorkflowStats,
} from '../analytics';
import type { SqlTx } from './migrator';

/**
 * How a run was started, as a SQL predicate over `runs r`: a trigger's kind where one started it (webhook, schedule,
 * MCP client), else the published endpoint when it bore an API key, else the editor. A new trigger kind is one more
 * entry here and in RUN_TRIGGER_NAMES (../analytics.ts), and `trigger` in the answer follows.
 */
export const RUN_TRIGGERS: Record<RunTrigger, string> = {
  webhook: "r.trigger_kind = 'webhook'",
  schedule: "r.trigger_kind = 'schedule'",
  mcp: "r.trigger_kind = 'mcp'",
  evaluation: "r.trigger_kind = 'evaluation'",
  chat: "r.trigger_kind = 'chat'",
  api: 'r.trigger_kind IS NULL AND r.api_key_id IS NOT NULL',
  editor: 'r.trigger_kind IS NULL AND r.api_key_id IS NULL',
};
/** The first trigger whose predicate holds names the run. */
const TRIGGER_SQL = `CASE ${RUN_TRIGGER_NAMES.map((t) => `WHEN ${RUN_TRIGGERS[t]} THEN '${t}'`).join(' ')} END`;

const ISO = (col: string) => `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A run's wall time: from its start (or its creation, if it never recorded one) to its end; null while it runs. */
const RUN_MS = `EXTRACT(EPOCH FROM (r.finished_at - COALESCE(r.started_at, r.created_at))) * 1000`;
/** A number field of a usage object, null when absent or not a number (a malformed value never fails a query). */
const usageNum = (field: string) =>
  `CASE WHEN jsonb_typeof(n.usage->'${field}') = 'number' THEN (n.usage->>'${field}')::float8 END`;

/** `s` for a LIKE pattern, its wildcards matched literally. */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A single-node run's node label and the input it ran with: the node's snapshot input, else (it never started) the
 * edited input the run was given. NULL for a run of the whole workflow.
 */
const SINGLE_NODE_SQL = `
  CASE WHEN r.debug->>'only' IS NOT NULL AND jsonb_typeof(r.graph->'nodes') = 'array' THEN
    (SELECT g->'data'->>'label' FROM jsonb_array_elements(r.graph->'nodes') g WHERE g->>'id' = r.debug->>'only' LIMIT 1)
  END AS single_node_label,
  CASE WHEN r.debug->>'only' IS NOT NULL THEN
    left(COALESCE((SELECT n.input FROM node_runs n WHERE n.run_id = r.id AND n.node_id = r.debug->>'only'),
                  r.debug->'input')::text, ${INPUTS_PREVIEW_CHARS})
  END AS single_node_input`;

/** UTC ISO text as the naive UTC timestamp the columns hold. */
const ts = (d: Date) => d.toISOString().replace('Z', '');

export class RunAnalytics {
  constructor(private readonly sql: SqlTx) {}

  /** One page, newest first; `hasMore` says a next page exists (one row more than `limit` was found). */
  async listRuns(q: RunListQuery): Promise<{ rows: RunListRow[]; hasMore: boolean }> {
    const params: unknown[] = [q.workspaceId];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const where = ['w.workspace_id = $1'];
    if (q.workflowId !== undefined) where.push(`r.workflow_id = ${p(q.workflowId)}`);
    if (q.status !== undefined) where.push(`r.status = ${p(q.status)}`);
    if (q.engine !== undefined) where.push(`r.engine = ${p(q.engine)}`);
    if (q.version === 'draft') where.push('r.version_id IS NULL');
    else if (q.version !== undefined) where.push(`v.version = ${p(q.version)}::int`);
    if (q.trigger !== undefined) where.push(RUN_TRIGGERS[q.trigger]);
    if (q.from) where.push(`r.created_at >= ${p(ts(q.from))}::timestamp(3)`);
    if (q.to) where.push(`r.created_at < ${p(ts(q.to))}::timestamp(3)`);
    if (q.q) {
      const needle = likeEscape(q.q);
      where.push(`(r.id LIKE ${p(`${needle}%`)} OR r.inputs::text ILIKE ${p(`%${needle}%`)})`);
    }
    if (q.after) {
      where.push(`(r.created_at, r.id) < (${p(ts(new Date(q.after.createdAt)))}::timestamp(3), ${p(q.after.id)})`);
    }
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT r.id, r.workflow_id, w.name AS workflow_name, r.version_id, v.version, r.engine, r.status,
              ${TRIGGER_SQL} AS trigger,
              ${ISO('r.created_at')} AS created_at, ${ISO('r.started_at')} AS started_at,
              ${ISO('r.finished_at')} AS finished_at, round(${RUN_MS})::float8 AS duration_ms,
              r.error->>'code' AS error_code, r.error->>'message' AS error_message,
              left(r.inputs::text, ${INPUTS_PREVIEW_CHARS}) AS inputs_preview, r.debug->>'only' AS single_node_id,
              ${SINGLE_NODE_SQL}
         FROM runs r
         JOIN workflows w ON w.id = r.workflow_id
         LEFT JOIN workflow_versions v ON v.id = r.version_id
        WHERE ${where.join(' AND ')}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${p(q.limit + 1)}::int`,
      params,
    );
    const page = rows.slice(0, q.limit).map((r): RunListRow => ({
      id: r.id as string,
      workflowId: r.workflow_id as string,
      workflowName: r.workflow_name as string,
      versionId: (r.version_id as string | null) ?? null,
      version: r.version == null ? null : Number(r.version),
      engine: r.engine as string,
      status: r.status as string,
      trigger: r.trigger as string,
      createdAt: r.created_at as string,
      startedAt: (r.started_at as string | null) ?? null,
      finishedAt: (r.finished_at as string | null) ?? null,
      durationMs: r.duration_ms == null ? null : Number(r.duration_ms),
      inputsPreview: String(r.inputs_preview ?? '{}'),
      singleNodeId: (r.single_node_id as string | null) ?? null,
      singleNode:
        r.single_node_id == null
          ? null
          : {
              nodeId: r.single_node_id as string,
              label: (r.single_node_label as string | null) ?? null,
              inputPreview: (r.single_node_input as string | null) ?? null,
            },
      ...(r.error_code != null || r.error_message != null
        ? { error: { code: String(r.error_code ?? 'ERROR'), message: String(r.error_message ?? '') } }
        : {}),
    }));
    return { rows: page, hasMore: rows.length > q.limit };
  }

  /** Stats of one workflow's runs created in [from, to); null when the workflow is not the workspace's. */
  async workflowStats(workspaceId: string, workflowId: string, from: Date, to: Date): Promise<WorkflowStats | null> {
    const own = await this.sql.query('SELECT 1 FROM workflows WHERE id = $1 AND workspace_id = $2', [
      workflowId,
      workspaceId,
    ]);
    if (!own.length) return null;
    const params = [workflowId, workspaceId, ts(from), ts(to)];
    // The workspace's runs of the range (each query below inlines it); node_runs join them by the primary key.
    const scope = `
      scoped AS (
        SELECT r.id, r.status, r.created_at, to_char(r.created_at, 'YYYY-MM-DD') AS day,
               CASE WHEN r.finished_at IS NOT NULL THEN (${RUN_MS})::float8 END AS ms
          FROM runs r JOIN workflows w ON w.id = r.workflow_id
         WHERE r.workflow_id = $1 AND w.workspace_id = $2
           AND r.created_at >= $3::timestamp(3) AND r.created_at < $4::timestamp(3)
      )`;
    // Percentiles need the whole range's rows, so totals come from GROUPING SETS; token and cost sums are additive,
    // so they are grouped per day only (a hash aggregate, no sort) and the totals added up below.
    const [days, usage, slowest, failing] = await Promise.all([
      this.sql.query<Record<string, unknown>>(
        `WITH ${scope}
         SELECT s.day,
                count(*)::int AS runs,
                (count(*) FILTER (WHERE s.status = 'succeeded'))::int AS succeeded,
                (count(*) FILTER (WHERE s.status = 'failed'))::int AS failed,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY s.ms) AS p50,
                percentile_cont(0.95) WITHIN GROUP (ORDER BY s.ms) AS p95
           FROM scoped s
          GROUP BY GROUPING SETS ((s.day), ())
          ORDER BY s.day NULLS LAST`,
        params,
      ),
      this.sql.query<Record<string, unknown>>(
        `WITH ${scope}
         SELECT s.day, COALESCE(SUM(${usageNum('inputTokens')}), 0)::float8 AS input_tokens,
                COALESCE(SUM(${usageNum('outputTokens')}), 0)::float8 AS output_tokens,
                SUM(${usageNum('costUsd')})::float8 AS cost_usd
           FROM node_runs n JOIN scoped s ON s.id = n.run_id
          WHERE n.usage IS NOT NULL
          GROUP BY s.day`,
        params,
      ),
      this.sql.query<Record<string, unknown>>(
        `WITH ${scope}
         SELECT n.node_id, n.type, percentile_cont(0.95) WITHIN GROUP (ORDER BY n.duration_ms::float8) AS p95,
                count(*)::int AS runs
           FROM node_runs n JOIN scoped s ON s.id = n.run_id
          WHERE n.duration_ms IS NOT NULL AND n.status IN ('succeeded', 'failed')
          GROUP BY n.node_id, n.type
          ORDER BY p95 DESC, n.node_id
          LIMIT 10`,
        params,
      ),
      this.sql.query<Record<string, unknown>>(
        `WITH ${scope}
         SELECT n.node_id, n.type, count(*)::int AS failures,
                (array_agg(n.error ORDER BY COALESCE(n.finished_at, s.created_at) DESC, s.id DESC))[1] AS last_error
           FROM node_runs n JOIN scoped s ON s.id = n.run_id
          WHERE n.status = 'failed'
          GROUP BY n.node_id, n.type
          ORDER BY failures DESC, n.node_id
          LIMIT 10`,
        params,
      ),
    ]);
    const num = (v: unknown) => (v == null ? null : Number(v));
    const usageByDay = new Map(usage.map((u) => [u.day as string, u]));
    const sumCost = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
    const bucket = (r: Record<string, unknown>, u?: Record<string, unknown>) => ({
      runs: Number(r.runs),
      succeeded: Number(r.succeeded),
      failed: Number(r.failed),
      p50Ms: num(r.p50),
      p95Ms: num(r.p95),
      inputTokens: u ? Number(u.input_tokens) : 0,
      outputTokens: u ? Number(u.output_tokens) : 0,
      costUsd: u ? num(u.cost_usd) : null,
    });
    const perDay = days
      .filter((d) => d.day != null)
      .map((d) => ({
        day: d.day as string,
        ...bucket(d, usageByDay.get(d.day as string)),
      }));
    const total = days.find((d) => d.day == null) ?? { runs: 0, succeeded: 0, failed: 0 };
    const t = {
      ...bucket(total),
      inputTokens: perDay.reduce((a, d) => a + d.inputTokens, 0),
      outputTokens: perDay.reduce((a, d) => a + d.outputTokens, 0),
      costUsd: perDay.reduce<number | null>((a, d) => sumCost(a, d.costUsd), null),
    };
    return {
      perDay,
      totals: {
        runs: t.runs,
        succeeded: t.succeeded,
        failed: t.failed,
        successRate: t.succeeded + t.failed ? t.succeeded / (t.succeeded + t.failed) : null,
        p50Ms: t.p50Ms,
        p95Ms: t.p95Ms,
        inputTokens: t.inputTokens,
        outputTokens: t.outputTokens,
        costUsd: t.costUsd,
      },
      slowestNodes: slowest.map((r) => ({
        nodeId: r.node_id as string,
        type: r.type as string,
        p95Ms: Number(r.p95),
        runs: Number(r.runs),
      })),
      failingNodes: failing.map((r) => {
        const e = r.last_error as { code?: unknown; message?: unknown } | null;
        return {
          nodeId: r.node_id as string,
          type: r.type as string,
          failures: Number(r.failures),
          lastError: e ? { code: String(e.code ?? 'ERROR'), message: String(e.message ?? '') } : null,
        };
      }),
    };
  }
}
