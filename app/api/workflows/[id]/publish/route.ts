import { PaiError } from '@/engine/errors';
import { guarded } from '@/lib/server/auth/guard';
import { auditAction } from '@/lib/server/auth/audit';
import { can } from '@/lib/server/auth/policy';
import { readJson } from '@/lib/http/body';
import { errorResponse } from '@/lib/http/errors';
import { originOf } from '@/lib/server/publishing/v1-http';
import {
  presentPublished,
  publishBodySchema,
  publishSettingsSchema,
  publishWorkflow,
} from '@/lib/server/publishing/publish';
import { toStoredChat } from '@/lib/server/publishing/chat-settings';
import { changeGate, describeFailures, runGate } from '@/lib/server/evaluations/publish-gate';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** Whether and where the workflow is published, and its evaluation gate. */
export const GET = guarded('read', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const current = wf.currentVersionId ? await app.store.getVersion(wf.currentVersionId) : null;
  const gate = await app.stores.evaluations.getGate(wf.id);
  return Response.json({ ...presentPublished(originOf(req), wf, current), gate });
});

/**
 * Validates the draft, snapshots it as the next version and makes that the endpoint's current version. With an
 * evaluation gate, the draft is evaluated first and a draft that falls short is refused (409 EVAL_GATE_FAILED, with
 * the summary and the comparison with the published version) unless an owner forces it (`{ force: true }`, audited).
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const body = await readJson(req, publishBodySchema, { optional: true, limit: app.config.maxBodyBytes });
  if (body.force && !can(caller.role, 'forcePublish'))
    throw new PaiError('FORBIDDEN', 'only a workspace owner may publish past the evaluation gate', { path: 'force' });
  const gate = body.force ? null : await runGate(app, caller, wf);
  if (gate?.failures.length) {
    const refusal = new PaiError(
      'EVAL_GATE_FAILED',
      `the draft falls short of the gate: ${describeFailures(gate.failures)}`,
    );
    return errorResponse(refusal, undefined, {
      evaluationId: gate.evaluationId,
      baselineEvaluationId: gate.baselineEvaluationId,
      failures: gate.failures,
      summary: gate.summary,
      comparison: gate.comparison && { scorers: gate.comparison.scorers, counts: gate.comparison.counts },
    });
  }
  const { workflow, version } = await publishWorkflow(app, wf, body.slug);
  const forcedPastGate = !!body.force && !!(await app.stores.evaluations.getGate(wf.id));
  await auditAction(app.stores.audit, caller, req, 'workflow.published', wf.id, {
    version: version.version,
    slug: workflow.slug,
    ...(gate ? { gateEvaluationId: gate.evaluationId } : {}),
    ...(forcedPastGate ? { forced: true } : {}),
  });
  if (forcedPastGate)
    await auditAction(app.stores.audit, caller, req, 'workflow.publish_forced', wf.id, { version: version.version });
  return Response.json(
    {
      ...presentPublished(originOf(req), workflow, version),
      ...(gate ? { gate: { evaluationId: gate.evaluationId, summary: gate.summary } } : {}),
    },
    { status: 201 },
  );
});

/**
 * Publishing settings that apply to every version at once: the browser origins allowed to call the endpoint (CORS),
 * whether API-key holders may read the node trace of published runs, and whether the MCP server lists the workflow
 * as a tool (`mcp`), the chat app (`chat`: lib/server/chat/settings.ts) and the evaluation gate (`gate`).
 */
export const PATCH = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const { chat, gate, ...body } = await readJson(req, publishSettingsSchema, { limit: app.config.maxBodyBytes });
  // The chat settings are checked before anything is stored: a refused body changes nothing.
  const prev = chat && wf.chat ? { ...wf.chat, ...(await app.stores.chat.secretsOf(wf.id)) } : null;
  const settings = chat ? { ...body, chat: toStoredChat(prev, chat) } : body;
  if (gate !== undefined) await changeGate(app, caller, req, wf, gate);
  const updated = Object.keys(settings).length ? ((await app.store.setPublishSettings(wf.id, settings)) ?? wf) : wf;
  const current = updated.currentVersionId ? await app.store.getVersion(updated.currentVersionId) : null;
  return Response.json({
    ...presentPublished(originOf(req), updated, current),
    gate: await app.stores.evaluations.getGate(wf.id),
  });
});

/** Unpublishes: the endpoint answers 404; versions, slug and API keys are kept. */
export const DELETE = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const updated = (await app.store.setCurrentVersion(wf.id, null)) ?? wf;
  return Response.json(presentPublished(originOf(req), updated, null));
});
