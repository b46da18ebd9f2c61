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
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';

const querySchema = z.object({ q: z.string().max(200).optional() });

function searchOf(req: Request): string | undefined {
  const q = new URL(req.url).searchParams.get('q') ?? undefined;
  const r = querySchema.safeParse({ q: q || undefined });
  if (r.success) return r.data.q;
  throw new PaiError('VALIDATION_ERROR', `q ${r.error.issues[0].message}`, { path: 'query.q' });
}

function matches(w: WorkflowRecord, needle: string): boolean {
  return w.name.toLowerCase().includes(needle) || w.description.toLowerCase().includes(needle);
}

export async function listWorkflowSummaries(app: App, caller: Pick<Caller, 'workspaceId'>, req: Request) {
  const q = searchOf(req)?.toLowerCase();
  const all = await app.store.listWorkflows(caller.workspaceId);
  const list = q ? all.filter((w) => matches(w, q)) : all;
  const runs = await app.stores.analytics.latestRuns(
    caller.workspaceId,
    list.map((w) => w.id),
  );
  return list.map(({ graph, ...w }) => ({ ...w, nodeCount: graph.nodes.length, lastRun: runs.get(w.id) ?? null }));
}
