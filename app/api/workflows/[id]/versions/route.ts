import { guarded } from '@/lib/server/auth/guard';
import { originOf } from '@/lib/server/publishing/v1-http';
import { listVersions, presentPublished } from '@/lib/server/publishing/publish';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

/** The published versions, newest first, each with `draftChanges`: what the draft changed since that version. */
export const GET = guarded('read', async (req, { params }: { params: Promise<{ id: string }> }, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const versions = await listVersions(app, wf);
  const current = versions.find((v) => v.current);
  const status = presentPublished(originOf(req), wf, null);
  return Response.json({
    ...status,
    published: !!current,
    version: current?.version ?? null,
    versionId: current?.id ?? null,
    versions,
  });
});
