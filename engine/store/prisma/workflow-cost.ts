/**
 * A workflow's spend over a time range, summed in the database from its runs' node snapshots (`node_runs.usage`,
 * jsonb: `{ inputTokens, outputTokens, cachedTokens?, costUsd? }`). Scoped by workspace here, like every lookup of
 * the store: a workflow of another workspace has no runs.
 *
 * `costUsd` is the sum of the costs that are known; a run with a node whose usage has no numeric `costUsd` (a model
 * without a price, or a snapshot from before prices existed) is counted in `unknownPriceRuns`, so the caller knows the
 * total is a lower bound.
 */
import type { PrismaClient } from './generated/client';

export interface WorkflowCost {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unknownPriceRuns: number;
}

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
