import { getApp } from '@/lib/server/app';
import { authorize } from '@/lib/server/publishing/api-keys';
import { runOfKey } from '@/lib/server/publishing/published-runs';
import { afterSeqFrom, requireLiveEvents, runEventStream } from '@/lib/server/runs/sse';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/** The run's trace as SSE (Last-Event-ID / ?after= honoured), for a key of the run's workflow only. */
export const GET = v1Route('run', async (req, { params }: { params: Promise<{ runId: string }> }) => {
  const app = await getApp();
  const key = await authorize(app, req);
  const run = await runOfKey(app, key, (await params).runId);
  await requireLiveEvents(app);
  return runEventStream(app, run.id, afterSeqFrom(req), req.signal);
});

export const OPTIONS = preflight('run', 'GET');

serveDirectly('/api/v1/runs/:runId/events', { GET, OPTIONS });
