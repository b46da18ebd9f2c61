/**
 * GET /api/workflows: the workspace's workflows, last edited first, each with its node count and its latest run,
 * `lastRun: { id, status, createdAt, startedAt, finishedAt } | null`. `?q=` keeps those whose name or description
 * contains it, ignoring case (an empty `q` is no filter).
 *
 * The latest runs of the whole list are read in one query — one index probe of runs(workflow_id, created_at) per
 * workflow inside it, never one query per workflow. A single-node test run (the editor's "run this node",
 * `debug.only`) tries one node and is not a run of the workflow, so it never is its `lastRun`.
 */
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import type { WorkflowRecord } from '@/engine/store/types';
import type { App } from './app';
import type { Caller } from './auth/authenticate';

export interface LastRun {
  id: string;
  status: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const querySchema = z.object({ q: z.string().max(200).optional() });

function searchOf(req: Request): string | undefined {
  const q = new URL(req.url).searchParams.get('q') ?? undefined;
  const r = querySchema.safeParse({ q: q || undefined });
  if (r.success) return r.data.q;
  throw new PaiError('VALIDATION_ERROR', `q ${r.error.issues[0].message}`, { status: 400, path: 'query.q' });
}

function matches(w: WorkflowRecord, needle: string): boolean {
  return w.name.toLowerCase().includes(needle) || w.description.toLowerCase().includes(needle);
}

/** Timestamps are stored as naive UTC; they leave the database as ISO text, so no local time zone shifts them. */
const ISO = (col: string) => `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The latest run of each of `workflowIds` that has one, in one query; another workspace's workflows have none. */
async function lastRuns(app: App, workspaceId: string, workflowIds: string[]): Promise<Map<string, LastRun>> {
  const out = new Map<string, LastRun>();
  if (!workflowIds.length) return out;
  const rows = await app.db.sql.query<Record<string, string | null>>(
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

export async function listWorkflowSummaries(app: App, caller: Pick<Caller, 'workspaceId'>, req: Request) {
  const q = searchOf(req)?.toLowerCase();
  const all = await app.store.listWorkflows(caller.workspaceId);
  const list = q ? all.filter((w) => matches(w, q)) : all;
  const runs = await lastRuns(
    app,
    caller.workspaceId,
    list.map((w) => w.id),
  );
  return list.map(({ graph, ...w }) => ({ ...w, nodeCount: graph.nodes.length, lastRun: runs.get(w.id) ?? null }));
}
