import { guarded } from '@/lib/server/auth/guard';
import { afterSeqFrom, requireLiveEvents, runEventStream } from '@/lib/server/runs/sse';
import { getRunOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

export const GET = guarded('read', async (req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
  const run = await getRunOr404(app, caller, (await params).runId);
  await requireLiveEvents(app);
  return runEventStream(app, run.id, afterSeqFrom(req), req.signal);
});
