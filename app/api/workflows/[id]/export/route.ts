import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { exportWorkflow, getWorkflowOr404 } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';

export const GET = route(async (_req, { params }: { params: Promise<{ id: string }> }) => {
  const app = await getApp();
  const wf = await getWorkflowOr404(app, (await params).id);
  const filename = `${wf.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'workflow'}.paiflow.json`;
  return Response.json(exportWorkflow(wf), {
    headers: { 'content-disposition': `attachment; filename="${filename}"` },
  });
});
