import { guarded } from '@/lib/server/auth/guard';
import { callbackSecretOf } from '@/lib/server/publishing/callback-secret';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * The secret that signs this workflow's completion callbacks (made on first read), for its editors to configure the
 * receiver with: `{ secret, createdAt }`. Never cached.
 */
export const GET = guarded('edit', async (_req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  return Response.json(await callbackSecretOf(app, wf.id), { headers: { 'cache-control': 'no-store' } });
});
