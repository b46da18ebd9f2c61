import { z } from 'zod';
import { settings } from '@/engine/config/settings';
import { singleNodeOutcome, startSingleNodeRun, upstreamRunOf } from '@/engine/runtime/single-node-run';
import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { waitForRunToSettle } from '@/lib/server/runs/run-waiter';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string; nodeId: string }> };

const object = z.record(z.string(), z.unknown());
const bodySchema = z.strictObject({
  /** The node's resolved input as edited: it runs with exactly this config. */
  input: object.optional(),
  /** The start inputs its templates read (`{{inputs.x}}`). */
  inputs: object.optional(),
  /** Upstream nodes' outputs by node id. */
  upstream: object.optional(),
  fromRunId: z.string().min(1).max(200).optional(),
});

/**
 * Runs one node of the draft (engine/runtime/single-node-run.ts) and answers with its outcome once the run ends; still
 * running after SYNC_TIMEOUT_MS → 202 with the runId.
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id, nodeId } = await params;
  const wf = await getWorkflowOr404(app, caller, id);
  const body = await readJson(req, bodySchema, { optional: true });
  const source = await upstreamRunOf(app.store, wf.id, caller.workspaceId, body.fromRunId);
  const started = await startSingleNodeRun(app.runs, app.registry, { workflow: wf, nodeId, source, ...body });
  const run = await waitForRunToSettle(app, started.id, { timeoutMs: settings().SYNC_TIMEOUT_MS });
  const headers = { location: `/api/runs/${started.id}` };
  if (!run || run.status === 'running' || run.status === 'queued')
    return Response.json({ runId: started.id, status: run?.status ?? 'running' }, { status: 202, headers });
  return Response.json(await singleNodeOutcome(app.store, run), { headers });
});
