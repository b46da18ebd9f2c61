import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { getRunOr404, presentRun } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';

export const GET = route(async (_req, { params }: { params: Promise<{ runId: string }> }) => {
  const app = await getApp();
  const run = await getRunOr404(app, (await params).runId);
  return Response.json(presentRun(run, await app.store.getNodeRuns(run.id)));
});
