import { guarded } from '@/lib/server/auth/guard';
import { originOf } from '@/lib/server/publishing/v1-http';
import { getVersionOr404, presentPublished, rollbackTo } from '@/lib/server/publishing/publish';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

/** Makes an earlier (or later) version current again; the draft is not touched. */
export const POST = guarded(
  'edit',
  async (req, { params }: { params: Promise<{ id: string; version: string }> }, { app, caller }) => {
    const p = await params;
    const wf = await getWorkflowOr404(app, caller, p.id);
    const v = await getVersionOr404(app, wf, p.version);
    return Response.json(presentPublished(originOf(req), await rollbackTo(app, wf, v), v));
  },
);
