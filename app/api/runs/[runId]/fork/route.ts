import { z } from 'zod';
import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { getRunOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

const bodySchema = z.strictObject({
  checkpointId: z.string().min(1),
  /** New outputs for nodes at or before the checkpoint: nodeId → output. */
  state: z.record(z.string(), z.unknown()).optional(),
});

/** A new run from one of this run's checkpoints: the steps up to it are reused (edited where `state` says). */
export const POST = guarded(
  'edit',
  async (req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
    const source = await getRunOr404(app, caller, (await params).runId);
    const body = await readJson(req, bodySchema);
    const { run, checkpoint, seeded } = await app.runs.fork(source.id, body);
    return Response.json(
      {
        runId: run.id,
        status: run.status,
        forkedFrom: { runId: source.id, checkpointId: checkpoint.checkpointId, step: checkpoint.step },
        reused: seeded,
      },
      { status: 201 },
    );
  },
);
