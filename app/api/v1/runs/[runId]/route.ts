import { getApp } from '@/lib/server/app';
import { authorize } from '@/lib/server/publishing/api-keys';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { runOfKey } from '@/lib/server/publishing/published-runs';
import { presentV1Run } from '@/lib/server/publishing/v1-run-view';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/**
 * A published run of the key's workflow (any other run, editor draft runs included, is 404 as if it did not exist):
 * status, inputs, outputs, error, usage; the node trace without node inputs/outputs where the workflow opts in.
 */
export const GET = v1Route('run', async (req, { params }: { params: Promise<{ runId: string }> }) => {
  const app = await getApp();
  const key = await authorize(app, req);
  const run = await runOfKey(app, key, (await params).runId);
  const [workflow, snapshots] = await Promise.all([
    app.store.getWorkflow(run.workflowId),
    app.store.getNodeRuns(run.id),
  ]);
  return Response.json(presentV1Run(run, snapshots, { trace: workflow?.publicTrace === true }));
});

export const OPTIONS = preflight('run', 'GET');

serveDirectly('/api/v1/runs/:runId', { GET, OPTIONS });
