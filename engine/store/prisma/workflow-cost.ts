/**
 * Spend summed in the database from runs' node snapshots (`node_runs.usage`, jsonb: `{ inputTokens, outputTokens,
 * cachedTokens?, costUsd? }`): a workflow's over a time range, and each run's of a page of the runs list.
 *
 * A workflow's total is scoped by workspace here, like every lookup of the store: a workflow of another workspace has
 * no runs. Its `costUsd` is the sum of the costs that are known; a run with a node whose usage has no numeric
 * `costUsd` (a model without a price, or a snapshot from before prices existed) is counted in `unknownPriceRuns`, so
 * the caller knows the total is a lower bound. A single run's cost follows engine/llm/prices.ts's `totalUsage`
 * instead: unknown (null) as soon as one node's is.
 */
import type { PrismaClient } from './generated/client';
import type { SqlTx } from './migrator';
import type { RunCost, WorkflowCost } from '../analytics';

/** Runs created in [from, to). `created_at` is a UTC timestamp without time zone, as Prisma writes it. */
export async function workflowCost(
  prisma: PrismaClient,
  q: { workflowId: string; workspaceId: string; from: Date; to: Date },
): Promise<WorkflowCost> {
  const rows = await prisma.$queryRaw<WorkflowCost[]>`
    WITH per_run AS (
      SELECT r.id,
        COALESCE(SUM((n.usage->>'inputTokens')::numeric), 0) AS input_tokens,
        COALESCE(SUM((n.usage->>'outputTokens')::numeric), 0) AS output_tokens,
        COALESCE(SUM(CASE WHEN jsonb_typeof(n.usage->'costUsd') = 'number'
                          THEN (n.usage->>'costUsd')::numeric END), 0) AS cost_usd,
        COALESCE(BOOL_OR(n.run_id IS NOT NULL AND jsonb_typeof(n.usage->'costUsd') IS DISTINCT FROM 'number'), false)
          AS unknown_price
      FROM runs r
      JOIN workflows w ON w.id = r.workflow_id AND w.workspace_id = ${q.workspaceId}
      LEFT JOIN node_runs n ON n.run_id = r.id AND jsonb_typeof(n.usage) = 'object'
      WHERE r.workflow_id = ${q.workflowId}
        AND r.created_at >= (${q.from.toISOString()}::timestamptz AT TIME ZONE 'UTC')
        AND r.created_at < (${q.to.toISOString()}::timestamptz AT TIME ZONE 'UTC')
      GROUP BY r.id
    )
    SELECT COUNT(*)::int AS "runs",
      COALESCE(SUM(input_tokens), 0)::float8 AS "inputTokens",
      COALESCE(SUM(output_tokens), 0)::float8 AS "outputTokens",
      COALESCE(SUM(cost_usd), 0)::float8 AS "costUsd",
      (COUNT(*) FILTER (WHERE unknown_price))::int AS "unknownPriceRuns"
    FROM per_run`;
  const r = rows[0];
  return {
    runs: Number(r?.runs ?? 0),
    inputTokens: Number(r?.inputTokens ?? 0),
    outputTokens: Number(r?.outputTokens ?? 0),
    costUsd: Math.round(Number(r?.costUsd ?? 0) * 1e10) / 1e10,
    unknownPriceRuns: Number(r?.unknownPriceRuns ?? 0),
  };
}

/**
 * The tokens and cost of each of `runIds` (a page of the runs list, whose workspace the caller checked): one grouped
 * read of node_runs by its primary key. A run without nodes that report usage costs 0; one missing from the answer
 * has no snapshots at all.
 */
export async function runCosts(sql: SqlTx, runIds: string[]): Promise<Map<string, RunCost>> {
  const out = new Map<string, RunCost>();
  if (!runIds.length) return out;
  const num = (field: string) =>
    `CASE WHEN jsonb_typeof(n.usage->'${field}') = 'number' THEN (n.usage->>'${field}')::float8 END`;
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT n.run_id,
            COALESCE(SUM(${num('inputTokens')}), 0)::float8 AS input_tokens,
            COALESCE(SUM(${num('outputTokens')}), 0)::float8 AS output_tokens,
            COALESCE(SUM(${num('costUsd')}), 0)::float8 AS cost_usd,
            BOOL_OR(jsonb_typeof(n.usage) = 'object' AND jsonb_typeof(n.usage->'costUsd') IS DISTINCT FROM 'number')
              AS unknown_price
       FROM node_runs n
      WHERE n.run_id = ANY($1::text[])
      GROUP BY n.run_id`,
    [runIds],
  );
  for (const r of rows)
    out.set(r.run_id as string, {
      inputTokens: Number(r.input_tokens),
      outputTokens: Number(r.output_tokens),
      costUsd: r.unknown_price ? null : Math.round(Number(r.cost_usd) * 1e10) / 1e10,
    });
  return out;
}
