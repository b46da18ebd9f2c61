import { guarded } from '@/lib/server/auth/guard';
import { getRunOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

export const POST = guarded(
  'edit',
  async (_req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
    const found = await getRunOr404(app, caller, (await params).runId);
    const run = await app.runs.cancel(found.id);
    return Response.json({ runId: run.id, status: run.status }, { status: 202 });
  },
);
