import { getApp } from '@/lib/server/app';
import { authorize } from '@/lib/server/publishing/api-keys';
import { artifactResponse } from '@/lib/server/runs/artifact-response';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { runOfKey } from '@/lib/server/publishing/published-runs';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/**
 * A file a published run produced, for the holder of the workflow's API key: the run must be a published run of the
 * key's workflow and the artifact one of that run's, else 404. Published outputs name these URLs
 * (lib/server/publishing/v1-run-view.ts publishedOutputs).
 */
export const GET = v1Route('run', async (req, { params }: { params: Promise<{ runId: string; id: string }> }) => {
  const app = await getApp();
  const key = await authorize(app, req);
  const { runId, id } = await params;
  const run = await runOfKey(app, key, runId);
  return artifactResponse(req, await app.artifacts.readOfRun(id, run.id));
});

export const OPTIONS = preflight('run', 'GET');

serveDirectly('/api/v1/runs/:runId/artifacts/:id', { GET, OPTIONS });
