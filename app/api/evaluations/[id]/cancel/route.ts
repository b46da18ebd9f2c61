import { guarded } from '@/lib/server/auth/guard';
import { getEvaluationOr404, readEvaluation } from '@/lib/server/evaluations/evaluations';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * Cancels an evaluation: the runs of the rows in flight are cancelled, rows not started stay unrun → 202 with the
 * evaluation as it now is. An evaluation that has ended is answered as it is.
 */
export const POST = guarded('edit', async (_req, { params }: Ctx, { app, caller }) => {
  const ev = await getEvaluationOr404(app, caller, (await params).id);
  await app.evaluations.cancel(ev);
  return Response.json(await readEvaluation(app, await getEvaluationOr404(app, caller, ev.id)), { status: 202 });
});
