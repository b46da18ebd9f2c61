import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';

export const dynamic = 'force-dynamic';

export const POST = route(async (_req, { params }: { params: Promise<{ runId: string }> }) => {
  const app = await getApp();
  const run = await app.runs.cancel((await params).runId);
  return Response.json({ runId: run.id, status: run.status }, { status: 202 });
});
