import { PaiError } from '@/engine/errors';
import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readJson } from '@/lib/http/body';
import { checkGraphForSave, getWorkflowOr404, workflowPatchSchema } from '@/lib/server/workflows';
import { validateGraph } from '@/engine/graph/validate';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

export const GET = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  const wf = await getWorkflowOr404(app, (await params).id);
  return Response.json({ ...wf, problems: validateGraph(wf.graph, app.registry, wf.engine).errors });
});

export const PUT = route(async (req, { params }: Ctx) => {
  const app = await getApp();
  const { id } = await params;
  const current = await getWorkflowOr404(app, id);
  const body = await readJson(req, workflowPatchSchema);
  const allowDraft = new URL(req.url).searchParams.get('draft') === '1';
  let problems: unknown[] = [];
  let graph;
  if (body.graph !== undefined || body.engine !== undefined) {
    const checked = checkGraphForSave(
      body.graph ?? current.graph,
      app.registry,
      body.engine ?? current.engine,
      allowDraft,
    );
    graph = checked.graph;
    problems = checked.problems;
  }
  const wf = await app.store.updateWorkflow(
    id,
    { name: body.name, description: body.description, engine: body.engine, graph },
    body.revision,
  );
  if (wf === null) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${id} not found`, { status: 404 });
  if (wf === 'conflict') {
    throw new PaiError(
      'CONFLICT',
      'the workflow was changed elsewhere since you loaded it; reload to see the latest version',
      { status: 409, path: 'revision' },
    );
  }
  return Response.json({ ...wf, problems });
});

export const DELETE = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  const { id } = await params;
  if (!(await app.store.deleteWorkflow(id)))
    throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${id} not found`, { status: 404 });
  return new Response(null, { status: 204 });
});
