import { z } from 'zod';
import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readJson } from '@/lib/http/body';
import { mintApiKey, presentKey } from '@/lib/server/api-keys';
import { getWorkflowOr404 } from '@/lib/server/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

const bodySchema = z.object({ name: z.string().trim().max(100).optional() });

/** Creates a key for this workflow's published endpoint. The answer is the only time the key is shown. */
export const POST = route(async (req, { params }: Ctx) => {
  const app = await getApp();
  const wf = await getWorkflowOr404(app, (await params).id);
  const body = await readJson(req, bodySchema, { optional: true, limit: app.config.maxBodyBytes });
  const key = await mintApiKey(app, wf.id, body.name ?? '');
  return Response.json(key, { status: 201, headers: { 'cache-control': 'no-store' } });
});

/** The workflow's keys (revoked ones too, with revokedAt): prefix and lastUsedAt, never the key. */
export const GET = route(async (_req, { params }: Ctx) => {
  const app = await getApp();
  const wf = await getWorkflowOr404(app, (await params).id);
  return Response.json((await app.store.listApiKeys(wf.id)).map(presentKey));
});
