import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readJson } from '@/lib/http/body';
import { checkGraphForSave, newWorkflowId, workflowBodySchema } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  const app = await getApp();
  const list = await app.store.listWorkflows();
  return Response.json(list.map(({ graph, ...w }) => ({ ...w, nodeCount: graph.nodes.length })));
});

export const POST = route(async (req) => {
  const app = await getApp();
  const body = await readJson(req, workflowBodySchema);
  const allowDraft = new URL(req.url).searchParams.get('draft') === '1';
  const { graph, problems } = checkGraphForSave(body.graph, app.registry, body.engine ?? 'auto', allowDraft);
  const wf = await app.store.createWorkflow({
    id: newWorkflowId(),
    name: body.name,
    description: body.description ?? '',
    graph,
    engine: body.engine ?? 'auto',
  });
  return Response.json({ ...wf, problems }, { status: 201 });
});
