import { guarded } from '@/lib/server/auth/guard';
import { getVersionOr404 } from '@/lib/server/publishing/publish';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

/** One version's snapshot (graph + engine), e.g. to show it read-only in the editor. */
export const GET = guarded(
  'read',
  async (_req, { params }: { params: Promise<{ id: string; version: string }> }, { app, caller }) => {
    const p = await params;
    const wf = await getWorkflowOr404(app, caller, p.id);
    const v = await getVersionOr404(app, wf, p.version);
    return Response.json({ ...v, current: v.id === wf.currentVersionId });
  },
);
