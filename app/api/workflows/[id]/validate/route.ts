import { z } from 'zod';
import { ENGINES } from '@/engine/graph/schema';
import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { getWorkflowOr404, validateWorkflow } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

const bodySchema = z.strictObject({ graph: z.unknown().optional(), engine: z.enum(ENGINES).optional() });

/** Validates the stored draft, or a graph sent in the body (the editor's unsaved state). */
export const POST = guarded('read', async (req, { params }: { params: Promise<{ id: string }> }, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const body = await readJson(req, bodySchema, { optional: true });
  const v = await validateWorkflow(app, caller, body.graph ?? wf.graph, body.engine ?? wf.engine, {
    workflowId: wf.id,
  });
  return Response.json({ ok: v.ok, engine: v.engine, errors: v.errors, warnings: v.warnings });
});
