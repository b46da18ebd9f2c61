import { auditAction } from '@/lib/server/auth/audit';
import { guarded } from '@/lib/server/auth/guard';
import { rotateCallbackSecret } from '@/lib/server/publishing/callback-secret';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** Replaces the callback signing secret: the next callback is signed with the new one, which the answer carries. */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const rotated = await rotateCallbackSecret(app, wf.id);
  await auditAction(app.stores.audit, caller, req, 'workflow.callback_secret_rotated', wf.id);
  return Response.json(rotated, { headers: { 'cache-control': 'no-store' } });
});
