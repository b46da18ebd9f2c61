import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { getRunOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

const bodySchema = z.strictObject({ nodeId: z.string().min(1), answer: z.unknown() });

/**
 * Answers a human-input node, or a node that paused itself: an agent's tool call waiting for approval
 * (`{ decision: "approve" | "edit" | "reject", arguments?, message?, callId? }`) or a breakpoint
 * (`{ action: "continue" | "step" | "stop", input? }`). Only runs in status `waiting` accept an answer; else 409.
 */
export const POST = guarded(
  'edit',
  async (req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
    const run = await getRunOr404(app, caller, (await params).runId);
    const body = await readJson(req, bodySchema);
    if (run.status !== 'waiting')
      throw new PaiError('RUN_NOT_WAITING', `the run is ${run.status}, not waiting for input`);
    const resumed = await app.runs.answer(run.id, body.nodeId, body.answer, {
      userId: caller.user.id,
      name: caller.user.name || caller.user.email,
    });
    return Response.json({ runId: resumed.id, status: resumed.status }, { status: 202 });
  },
);
