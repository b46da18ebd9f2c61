import { z } from 'zod';
import { guarded } from '@/lib/server/auth/guard';
import { auditAction } from '@/lib/server/auth/audit';
import { readJson } from '@/lib/http/body';
import { scheduleConfigSchema, webhookConfigSchema } from '@/lib/server/triggers/trigger-schema';
import { startTriggeredRun } from '@/lib/server/triggers/trigger-runs';
import { triggersOf } from '@/lib/server/triggers/triggers';
import { mapInputs, noteLastRun } from '@/lib/server/triggers/webhook';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string; triggerId: string }> };

/** A webhook test call: the payload as the webhook would receive it (no signature needed from an editor). */
const bodySchema = z.strictObject({
  body: z.unknown().optional(),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  headers: z.record(z.string(), z.string()).default({}),
});

/**
 * Fires a trigger now, as its own kind: a schedule with its fixed inputs (whatever its cron says), a webhook with the
 * given payload through its mapping. The run is the published version's, like every triggered run. 202 `{ runId }`.
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const p = await params;
  const wf = await getWorkflowOr404(app, caller, p.id);
  const trigger = await triggersOf(app).get(wf.id, p.triggerId);
  const payload = await readJson(req, bodySchema, { optional: true, limit: app.config.maxBodyBytes });
  const inputs =
    trigger.type === 'schedule'
      ? scheduleConfigSchema.parse(trigger.config).inputs
      : mapInputs(webhookConfigSchema.parse(trigger.config).mapping, {
          body: payload.body ?? {},
          query: payload.query,
          headers: Object.fromEntries(Object.entries(payload.headers).map(([k, v]) => [k.toLowerCase(), v])),
        });
  const { run } = await startTriggeredRun(app, {
    workflowId: wf.id,
    inputs,
    trigger: { kind: trigger.type === 'schedule' ? 'schedule' : 'webhook', id: trigger.id },
  });
  noteLastRun(app, trigger.id, run.id);
  await auditAction(app.stores.audit, caller, req, 'trigger.fired', trigger.id, { workflowId: wf.id, runId: run.id });
  return Response.json({ runId: run.id, status: run.status }, { status: 202 });
});
