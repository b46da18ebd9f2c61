import { guarded } from '@/lib/server/auth/guard';
import { auditAction } from '@/lib/server/auth/audit';
import { requireRole } from '@/lib/server/auth/policy';
import { readJson } from '@/lib/http/body';
import { originOf } from '@/lib/server/publishing/v1-http';
import { patchTriggerSchema } from '@/lib/server/triggers/trigger-schema';
import { presentTrigger, triggersOf } from '@/lib/server/triggers/triggers';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string; triggerId: string }> };

export const GET = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const p = await params;
  const wf = await getWorkflowOr404(app, caller, p.id);
  return Response.json(presentTrigger(await triggersOf(app).get(wf.id, p.triggerId), originOf(req)));
});

/** Changes what is given; a webhook's new or regenerated secret is shown in this answer only. */
export const PATCH = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const p = await params;
  const wf = await getWorkflowOr404(app, caller, p.id);
  const body = await readJson(req, patchTriggerSchema, { limit: app.config.maxBodyBytes });
  const service = triggersOf(app);
  if ((await service.get(wf.id, p.triggerId)).type === 'webhook') requireRole(caller.role, 'admin');
  const { trigger, secret } = await service.update(wf.id, p.triggerId, body);
  await auditAction(app.stores.audit, caller, req, 'trigger.updated', trigger.id, {
    workflowId: wf.id,
    fields: Object.keys(body),
  });
  return Response.json(presentTrigger(trigger, originOf(req), secret), { headers: { 'cache-control': 'no-store' } });
});

export const DELETE = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const p = await params;
  const wf = await getWorkflowOr404(app, caller, p.id);
  const service = triggersOf(app);
  if ((await service.get(wf.id, p.triggerId)).type === 'webhook') requireRole(caller.role, 'admin');
  await service.remove(wf.id, p.triggerId);
  await auditAction(app.stores.audit, caller, req, 'trigger.deleted', p.triggerId, { workflowId: wf.id });
  return new Response(null, { status: 204 });
});
