import { PaiError } from '@/engine/errors';
import { guarded } from '@/lib/server/auth/guard';
import { compareEvaluations } from '@/lib/server/evaluations/compare';
import { getEvaluationOr404 } from '@/lib/server/evaluations/evaluations';

export const dynamic = 'force-dynamic';

/** `?a=<id>&b=<id>`: both means and their difference per scorer, and which rows got better or worse (b against a). */
export const GET = guarded('read', async (req, _ctx: unknown, { app, caller }) => {
  const params = new URL(req.url).searchParams;
  const ids = { a: params.get('a'), b: params.get('b') };
  for (const key of ['a', 'b'] as const)
    if (!ids[key])
      throw new PaiError('VALIDATION_ERROR', `give the two evaluations to compare as ?a=<id>&b=<id>`, { path: key });
  const [a, b] = await Promise.all([getEvaluationOr404(app, caller, ids.a!), getEvaluationOr404(app, caller, ids.b!)]);
  return Response.json(await compareEvaluations(app, a, b));
});
