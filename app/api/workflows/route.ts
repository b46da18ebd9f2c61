import { guarded } from '@/lib/server/auth/guard';
import { parseInput, readJson } from '@/lib/http/body';
import { checkWorkflowForSave, newWorkflowId } from '@/lib/server/workflows/workflows';
import {
  blankWorkflowBodySchema,
  createBlankWorkflow,
  isBlankWorkflowBody,
} from '@/lib/server/workflows/blank-workflow';
import { listWorkflowSummaries } from '@/lib/server/workflows/list';
import { requestLocale } from '@/lib/i18n/locales';
import {
  contentLanguage,
  createWorkflowFromTemplate,
  isFromTemplate,
  parseCreateWorkflowBody,
  requestLanguage,
} from '@/lib/server/workflows/templates';
import { z } from 'zod';

export const dynamic = 'force-dynamic';

/** `?q=` searches names and descriptions; each workflow comes with its `lastRun` (lib/server/workflows/list.ts). */
export const GET = guarded('read', async (req, _ctx: unknown, { app, caller }) =>
  Response.json(await listWorkflowSummaries(app, caller, req)),
);

/**
 * `{ name, description?, graph, engine? }`, `{ templateId, name? }` (lib/server/workflows/templates.ts), or without a
 * graph `{ name?, description?, engine? }`: a blank workflow, Start → End (lib/server/workflows/blank-workflow.ts).
 */
export const POST = guarded('edit', async (req, _ctx: unknown, { app, caller }) => {
  const raw = await readJson(req, z.unknown());
  if (isBlankWorkflowBody(raw)) {
    const wf = await createBlankWorkflow(app, caller, parseInput(blankWorkflowBodySchema, raw), requestLocale(req));
    return Response.json(wf, { status: 201 });
  }
  const body = parseCreateWorkflowBody(raw);
  if (isFromTemplate(body)) {
    const lang = requestLanguage(req);
    const wf = await createWorkflowFromTemplate(app, caller, body, lang);
    return Response.json(wf, { status: 201, headers: { 'content-language': contentLanguage(lang) } });
  }
  const allowDraft = new URL(req.url).searchParams.get('draft') === '1';
  const { graph, problems, warnings } = await checkWorkflowForSave(
    app,
    caller,
    body.graph,
    body.engine ?? 'auto',
    allowDraft,
  );
  const wf = await app.store.createWorkflow({
    workspaceId: caller.workspaceId,
    id: newWorkflowId(),
    name: body.name,
    description: body.description ?? '',
    graph,
    engine: body.engine ?? 'auto',
  });
  return Response.json({ ...wf, problems, warnings }, { status: 201 });
});
