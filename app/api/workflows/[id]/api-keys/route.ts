import { z } from 'zod';
import { guarded } from '@/lib/server/auth/guard';
import { auditAction } from '@/lib/server/auth/audit';
import { readJson } from '@/lib/http/body';
import { mintApiKey, presentKey } from '@/lib/server/publishing/api-keys';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

const bodySchema = z.strictObject({ name: z.string().trim().max(100).optional() });

/** Creates a key for this workflow's published endpoint. The answer is the only time the key is shown. */
export const POST = guarded('admin', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const body = await readJson(req, bodySchema, { optional: true, limit: app.config.maxBodyBytes });
  const key = await mintApiKey(app, wf.id, body.name ?? '');
  await auditAction(app.stores.audit, caller, req, 'api_key.created', key.id, { workflowId: wf.id });
  return Response.json(key, { status: 201, headers: { 'cache-control': 'no-store' } });
});

/** The workflow's keys (revoked ones too, with revokedAt): prefix and lastUsedAt, never the key. */
export const GET = guarded('admin', async (_req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  return Response.json((await app.store.listApiKeys(wf.id)).map(presentKey));
});
