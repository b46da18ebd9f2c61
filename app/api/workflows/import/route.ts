import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { uniqueWorkflowName } from '@/lib/server/workflows/unique-name';
import { importSchema, upgradedWorkflow } from '@/lib/server/workflows/export';
import { checkWorkflowForSave, newWorkflowId } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

/** An exported workflow as a new one; a name the workspace already has becomes "name (2)", "name (3)" … */
export const POST = guarded('edit', async (req, _ctx: unknown, { app, caller }) => {
  const w = upgradedWorkflow(await readJson(req, importSchema));
  const { graph, problems } = await checkWorkflowForSave(app, caller, w.graph, w.engine ?? 'auto', true);
  const wf = await app.store.createWorkflow({
    workspaceId: caller.workspaceId,
    id: newWorkflowId(),
    name: await uniqueWorkflowName(app, caller.workspaceId, w.name),
    description: w.description ?? '',
    graph,
    engine: w.engine ?? 'auto',
  });
  return Response.json({ ...wf, problems }, { status: 201 });
});
