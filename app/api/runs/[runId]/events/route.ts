import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { afterSeqFrom, runEventStream } from '@/lib/server/sse';
import { getRunOr404 } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';

export const GET = route(async (req, { params }: { params: Promise<{ runId: string }> }) => {
  const app = await getApp();
  const run = await getRunOr404(app, (await params).runId);
  return runEventStream(app, run.id, afterSeqFrom(req), req.signal);
});
