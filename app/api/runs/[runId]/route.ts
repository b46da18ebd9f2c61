import { guarded } from '@/lib/server/auth/guard';
import { getRunOr404, presentRun } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

export const GET = guarded(
  'read',
  async (_req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
    const run = await getRunOr404(app, caller, (await params).runId);
    return Response.json(presentRun(run, await app.store.getNodeRuns(run.id)));
  },
);
