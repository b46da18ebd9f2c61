import { PaiError } from '@/engine/errors';
import { guarded } from '@/lib/server/auth/guard';
import { auditAction } from '@/lib/server/auth/audit';
import { readJson } from '@/lib/http/body';
import { checkWorkflowForSave, getWorkflowOr404, workflowPatchSchema } from '@/lib/server/workflows/workflows';
import { validateGraph } from '@/engine/graph/validate';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const v = validateGraph(wf.graph, app.registry, wf.engine);
  return Response.json({ ...wf, problems: v.errors, warnings: v.warnings });
});

export const PUT = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id } = await params;
  const current = await getWorkflowOr404(app, caller, id);
  const body = await readJson(req, workflowPatchSchema);
  const allowDraft = new URL(req.url).searchParams.get('draft') === '1';
  let problems: unknown[] = [];
  let warnings: unknown[] = [];
  let graph;
  if (body.graph !== undefined || body.engine !== undefined) {
    const checked = await checkWorkflowForSave(
      app,
      caller,
      body.graph ?? current.graph,
      body.engine ?? current.engine,
      allowDraft,
      { workflowId: id },
    );
    graph = checked.graph;
    problems = checked.problems;
    warnings = checked.warnings;
  }
  const wf = await app.store.updateWorkflow(
    id,
    { name: body.name, description: body.description, engine: body.engine, graph },
    body.revision,
  );
  if (wf === null) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${id} not found`);
  if (wf === 'conflict') {
    throw new PaiError(
      'CONFLICT',
      'the workflow was changed elsewhere since you loaded it; reload to see the latest version',
      { path: 'revision' },
    );
  }
  return Response.json({ ...wf, problems, warnings });
});

export const DELETE = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  if (!(await app.store.deleteWorkflow(wf.id))) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${wf.id} not found`);
  await auditAction(app.stores.audit, caller, req, 'workflow.deleted', wf.id, { name: wf.name });
  return new Response(null, { status: 204 });
});
