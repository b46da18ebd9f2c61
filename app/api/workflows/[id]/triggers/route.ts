import { guarded } from '@/lib/server/auth/guard';
import { auditAction } from '@/lib/server/auth/audit';
import { requireRole } from '@/lib/server/auth/policy';
import { readJson } from '@/lib/http/body';
import { originOf } from '@/lib/server/publishing/v1-http';
import { createTriggerSchema } from '@/lib/server/triggers/trigger-schema';
import { presentTrigger, triggersOf } from '@/lib/server/triggers/triggers';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** The workflow's webhook and schedule triggers (secrets never; whether one is set). */
export const GET = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const origin = originOf(req);
  return Response.json((await triggersOf(app).list(wf.id)).map((t) => presentTrigger(t, origin)));
});

/**
 * Creates a trigger. A webhook (admins: its URL and secret let outside systems start runs, as an API key does)
 * answers `{ id, url, … }` with its secret shown this once; a schedule answers `{ id, nextRunAt, … }`.
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const body = await readJson(req, createTriggerSchema, { limit: app.config.maxBodyBytes });
  if (body.type === 'webhook') requireRole(caller.role, 'admin');
  const { trigger, secret } = await triggersOf(app).create(wf.id, body);
  await auditAction(app.stores.audit, caller, req, 'trigger.created', trigger.id, {
    workflowId: wf.id,
    type: body.type,
  });
  return Response.json(presentTrigger(trigger, originOf(req), secret), {
    status: 201,
    headers: { 'cache-control': 'no-store' },
  });
});
