/**
 * GET /api/workflows/:id/runs: the editor's run history of one workflow — the workspace run list (analytics.ts)
 * narrowed to the workflow, so each run says how it was started (`trigger`), which published `version` ran (null:
 * the draft), what it cost (`costUsd`) and a preview of its inputs, and `status` / `trigger` filter it the same way.
 * The answer stays an array of runs, newest first, as the editor and scripts have always read it.
 */
import type { WorkflowRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { listWorkspaceRuns, RUNS_PAGE_DEFAULT, RUNS_PAGE_MAX } from './analytics';

/** Query parameters passed on to the run list; anything else (`workflowId` above all) is not the caller's to set. */
const FILTERS = ['status', 'trigger'] as const;

export async function workflowRunHistory(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  wf: WorkflowRecord,
  req: Request,
) {
  const given = new URL(req.url).searchParams;
  const url = new URL('http://local/api/runs');
  url.searchParams.set('workflowId', wf.id);
  for (const f of FILTERS) {
    const v = given.get(f);
    if (v) url.searchParams.set(f, v);
  }
  // `limit` has always been lenient here (a bad one means the default), and is kept so.
  const limit = Math.trunc(Number(given.get('limit') ?? RUNS_PAGE_DEFAULT)) || RUNS_PAGE_DEFAULT;
  url.searchParams.set('limit', String(Math.min(Math.max(limit, 1), RUNS_PAGE_MAX)));
  const { runs } = await listWorkspaceRuns(app, caller, new Request(url));
  const labels = new Map(wf.graph.nodes.map((n) => [n.id, n.data?.label ?? null]));
  // A single-node run is named by its node's label as the draft has it now (the run's own, once the node is gone).
  return runs.map(({ singleNodeId, singleNode, error, ...r }) => ({
    ...r,
    error: error ?? null,
    singleNode: singleNode ? { ...singleNode, label: labels.get(singleNode.nodeId) ?? singleNode.label ?? null } : null,
  }));
}
