import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { getVersionOr404 } from '@/lib/server/publish';
import { getWorkflowOr404 } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';

/** One version's snapshot (graph + engine), e.g. to show it read-only in the editor. */
export const GET = route(async (_req, { params }: { params: Promise<{ id: string; version: string }> }) => {
  const app = await getApp();
  const p = await params;
  const wf = await getWorkflowOr404(app, p.id);
  const v = await getVersionOr404(app, wf, p.version);
  return Response.json({ ...v, current: v.id === wf.currentVersionId });
});
