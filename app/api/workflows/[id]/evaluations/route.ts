import { readJson } from '@/lib/http/body';
import { guarded } from '@/lib/server/auth/guard';
import { createEvaluationSchema } from '@/lib/server/evaluations/evaluation-schemas';
import { createEvaluation, listEvaluations } from '@/lib/server/evaluations/evaluations';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * Evaluates a version of the workflow (`version`: a number, or `draft`) on a dataset with `scorers`, `concurrency`
 * rows at a time → 202 `{ evaluationId }`; GET /api/evaluations/:id follows it.
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  // Another workspace's workflow is a 404 whatever the body says.
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const body = await readJson(req, createEvaluationSchema, { limit: app.config.maxBodyBytes });
  const ev = await createEvaluation(app, caller, wf, body);
  return Response.json(
    { evaluationId: ev.id, status: ev.status, progress: ev.progress },
    { status: 202, headers: { location: `/api/evaluations/${ev.id}` } },
  );
});

/**
 * The workflow's evaluations, newest first, with their summaries: `?limit=` (1–100, default 50) per page, `?cursor=`
 * the `nextCursor` of the page before.
 */
export const GET = guarded('read', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  return Response.json(await listEvaluations(app, caller, wf.id, new URL(req.url).searchParams));
});
