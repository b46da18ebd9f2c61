/**
 * RunAnalyticsStore (../analytics.ts) on the app database: the run list and stats (run-analytics.ts), spend
 * (workflow-cost.ts), waiting runs (waiting-runs.ts) and each workflow's latest run, here.
 */
import type { LatestRun, RunAnalyticsStore } from '../analytics';
import type { PrismaClient } from './generated/client';
import type { SqlTx } from './migrator';
import { RunAnalytics } from './run-analytics';
import { listWaitingRuns } from './waiting-runs';
import { runCosts, workflowCost } from './workflow-cost';

/** Timestamps are stored as naive UTC; they leave the database as ISO text, so no local time zone shifts them. */
const ISO = (col: string) => `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export class PrismaRunAnalytics extends RunAnalytics implements RunAnalyticsStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly db: SqlTx,
  ) {
    super(db);
  }

  workflowCost(q: { workflowId: string; workspaceId: string; from: Date; to: Date }) {
    return workflowCost(this.prisma, q);
  }

  runCosts(runIds: string[]) {
    return runCosts(this.db, runIds);
  }

  waitingRuns(q: { workspaceIds: string[]; workflowId?: string; limit: number }) {
    return listWaitingRuns(this.db, q);
  }

  /** One index probe of runs(workflow_id, created_at) per workflow, inside one query. */
  async latestRuns(workspaceId: string, workflowIds: string[]): Promise<Map<string, LatestRun>> {
    const out = new Map<string, LatestRun>();
    if (!workflowIds.length) return out;
    const rows = await this.db.query<Record<string, string | null>>(
      `SELECT w.id AS workflow_id, r.id, r.status, ${ISO('r.created_at')} AS created_at,
              ${ISO('r.started_at')} AS started_at, ${ISO('r.finished_at')} AS finished_at
         FROM workflows w
         JOIN LATERAL (
           SELECT r.id, r.status, r.created_at, r.started_at, r.finished_at
             FROM runs r
            WHERE r.workflow_id = w.id AND (r.debug->>'only') IS NULL
            ORDER BY r.created_at DESC, r.id DESC
            LIMIT 1
         ) r ON true
        WHERE w.workspace_id = $1 AND w.id = ANY($2::text[])`,
      [workspaceId, workflowIds],
    );
    for (const r of rows)
      out.set(r.workflow_id!, {
        id: r.id!,
        status: r.status!,
        createdAt: r.created_at!,
        startedAt: r.started_at ?? null,
        finishedAt: r.finished_at ?? null,
      });
    return out;
  }
}
