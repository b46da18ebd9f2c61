import { guarded } from '@/lib/server/auth/guard';
import { exportWorkflow } from '@/lib/server/workflows/export';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

export const GET = guarded('read', async (_req, { params }: { params: Promise<{ id: string }> }, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const filename = `${wf.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'workflow'}.paiflow.json`;
  return Response.json(exportWorkflow(wf), {
    headers: { 'content-disposition': `attachment; filename="${filename}"` },
  });
});
