import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readJson } from '@/lib/http/body';
import { checkGraphForSave, importSchema, newWorkflowId } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const app = await getApp();
  const body = await readJson(req, importSchema);
  const w = body.workflow;
  const { graph, problems } = checkGraphForSave(w.graph, app.registry, w.engine ?? 'auto', true);
  const wf = await app.store.createWorkflow({
    id: newWorkflowId(),
    name: w.name,
    description: w.description ?? '',
    graph,
    engine: w.engine ?? 'auto',
  });
  return Response.json({ ...wf, problems }, { status: 201 });
});
