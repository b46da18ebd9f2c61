import { z } from 'zod';
import { ENGINES } from '@/engine/graph/schema';
import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';
import { workflowRunHistory } from '@/lib/server/runs/workflow-run-history';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

const bodySchema = z.strictObject({
  inputs: z.record(z.string(), z.unknown()).default({}),
  engine: z.enum(ENGINES).optional(),
  /** Node ids the run pauses before (editor test runs: Continue / Step / Stop through /api/runs/:id/answer). */
  breakpoints: z.array(z.string().min(1).max(200)).max(500).optional(),
});

/** Starts a run of the workflow's draft. */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const body = await readJson(req, bodySchema, { optional: true });
  const { run } = await app.runs.start({
    workflow: wf,
    inputs: body.inputs,
    engine: body.engine,
    breakpoints: body.breakpoints,
  });
  return Response.json(
    { runId: run.id, status: run.status, engine: run.engine },
    { status: 202, headers: { location: `/api/runs/${run.id}` } },
  );
});

/**
 * The run history: newest first, each with `trigger` (editor | api | webhook | schedule | mcp), `version`, `costUsd`
 * and `inputsPreview`; `?status=` and `?trigger=` filter, `?limit=` (default 50, at most 200) bounds.
 */
export const GET = guarded('read', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  return Response.json(await workflowRunHistory(app, caller, wf, req));
});
