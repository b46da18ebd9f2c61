import { guarded } from '@/lib/server/auth/guard';
import { getEvaluationOr404, readEvaluation } from '@/lib/server/evaluations/evaluations';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** An evaluation: status, progress, summary per scorer, cost and latency, and every row with its scores. */
export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) => {
  const ev = await getEvaluationOr404(app, caller, (await params).id);
  return Response.json(await readEvaluation(app, ev));
});
