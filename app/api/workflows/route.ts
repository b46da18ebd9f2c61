import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { checkWorkflowForSave, newWorkflowId, workflowBodySchema } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';

export const GET = guarded('read', async (_req, _ctx: unknown, { app, caller }) => {
  const list = await app.store.listWorkflows(caller.workspaceId);
  return Response.json(list.map(({ graph, ...w }) => ({ ...w, nodeCount: graph.nodes.length })));
});

export const POST = guarded('edit', async (req, _ctx: unknown, { app, caller }) => {
  const body = await readJson(req, workflowBodySchema);
  const allowDraft = new URL(req.url).searchParams.get('draft') === '1';
  const { graph, problems } = await checkWorkflowForSave(app, caller, body.graph, body.engine ?? 'auto', allowDraft);
  const wf = await app.store.createWorkflow({
    workspaceId: caller.workspaceId,
    id: newWorkflowId(),
    name: body.name,
    description: body.description ?? '',
    graph,
    engine: body.engine ?? 'auto',
  });
  return Response.json({ ...wf, problems }, { status: 201 });
});
