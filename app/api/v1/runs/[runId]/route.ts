import { getApp } from '@/lib/server/app';
import { authorize } from '@/lib/server/api-keys';
import { preflight, v1Route } from '@/lib/server/v1-http';
import { presentRun } from '@/lib/server/workflows';
import { runOfKey } from '@/lib/server/published-runs';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/** A run of the key's workflow; any other run is 404, as if it did not exist. */
export const GET = v1Route('run', async (req, { params }: { params: Promise<{ runId: string }> }) => {
  const app = await getApp();
  const key = await authorize(app, req);
  const run = await runOfKey(app, key, (await params).runId);
  // The v1 contract's run view: no `graph` (the workflow's internals stay with the editor API).
  const { graph: _graph, ...view } = presentRun(run, await app.store.getNodeRuns(run.id));
  return Response.json(view);
});

export const OPTIONS = preflight('run', 'GET');

serveDirectly('/api/v1/runs/:runId', { GET, OPTIONS });
