import { checkpointsOf } from '@/engine/runtime/run-checkpoints';
import { guarded } from '@/lib/server/auth/guard';
import { getRunOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

/** The run's state history: one checkpoint per succeeded node, in the order they finished (both engines alike). */
export const GET = guarded(
  'read',
  async (_req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
    const run = await getRunOr404(app, caller, (await params).runId);
    const checkpoints = checkpointsOf(run.graph, await app.store.getNodeRuns(run.id));
    return Response.json({ runId: run.id, engine: run.engine, inputs: run.inputs, checkpoints });
  },
);
