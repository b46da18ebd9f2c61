import { guarded } from '@/lib/server/auth/guard';
import { auditAction } from '@/lib/server/auth/audit';
import { readJson } from '@/lib/http/body';
import { originOf } from '@/lib/server/publishing/v1-http';
import {
  presentPublished,
  publishBodySchema,
  publishSettingsSchema,
  publishWorkflow,
} from '@/lib/server/publishing/publish';
import { toStoredChat } from '@/lib/server/publishing/chat-settings';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** Whether and where the workflow is published. */
export const GET = guarded('read', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const current = wf.currentVersionId ? await app.store.getVersion(wf.currentVersionId) : null;
  return Response.json(presentPublished(originOf(req), wf, current));
});

/** Validates the draft, snapshots it as the next version and makes that the endpoint's current version. */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const body = await readJson(req, publishBodySchema, { optional: true, limit: app.config.maxBodyBytes });
  const { workflow, version } = await publishWorkflow(app, wf, body.slug);
  await auditAction(app.stores.audit, caller, req, 'workflow.published', wf.id, {
    version: version.version,
    slug: workflow.slug,
  });
  return Response.json(presentPublished(originOf(req), workflow, version), { status: 201 });
});

/**
 * Publishing settings that apply to every version at once: the browser origins allowed to call the endpoint (CORS),
 * whether API-key holders may read the node trace of published runs, and whether the MCP server lists the workflow
 * as a tool (`mcp`), and the chat app (`chat`: lib/server/chat/settings.ts).
 */
export const PATCH = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const { chat, ...body } = await readJson(req, publishSettingsSchema, { limit: app.config.maxBodyBytes });
  const prev = chat && wf.chat ? { ...wf.chat, ...(await app.stores.chat.secretsOf(wf.id)) } : null;
  const settings = chat ? { ...body, chat: toStoredChat(prev, chat) } : body;
  const updated = (await app.store.setPublishSettings(wf.id, settings)) ?? wf;
  const current = updated.currentVersionId ? await app.store.getVersion(updated.currentVersionId) : null;
  return Response.json(presentPublished(originOf(req), updated, current));
});

/** Unpublishes: the endpoint answers 404; versions, slug and API keys are kept. */
export const DELETE = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const updated = (await app.store.setCurrentVersion(wf.id, null)) ?? wf;
  return Response.json(presentPublished(originOf(req), updated, null));
});
