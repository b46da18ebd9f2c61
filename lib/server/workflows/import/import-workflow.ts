/**
 * POST /api/workflows/import: a PaiFlow export (`format: "paiflow.workflow"`, exactly as before), or a workflow of
 * another tool — `{ format: "dify", content: "<DSL YAML>" }`, `{ format: "n8n", content: <export JSON or its text> }`
 * — converted (dify.ts, n8n.ts) and answered with an import report. Either way the graph passes the same save check
 * as any other (a draft may keep problems, answered as `problems`), under a name the workspace does not have yet.
 */
import { z } from 'zod';
import { parseInput } from '@/lib/http/body';
import type { App } from '../../app-types';
import type { Caller } from '../../auth/authenticate';
import { EXPORT_FORMAT, importSchema, upgradedWorkflow } from '../export';
import { uniqueWorkflowName } from '../unique-name';
import { checkWorkflowForSave, newWorkflowId } from '../workflows';
import { convertDify } from './dify';
import { convertN8n } from './n8n';
import type { ImportReport } from './report';

export const IMPORT_FORMATS = [EXPORT_FORMAT, 'dify', 'n8n'] as const;
export type ForeignFormat = 'dify' | 'n8n';

const formatSchema = z.looseObject({
  format: z.enum(IMPORT_FORMATS, {
    message:
      `format must be "${EXPORT_FORMAT}" (a PaiFlow export), "dify" (a Dify DSL YAML) ` + 'or "n8n" (an n8n workflow)',
  }),
});

export const difyImportSchema = z.strictObject({
  format: z.literal('dify'),
  content: z.string().min(1, 'content is the Dify DSL export, as YAML text'),
});

export const n8nImportSchema = z.strictObject({
  format: z.literal('n8n'),
  content: z.union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown())], {
    message: 'content is the n8n workflow export: its JSON object, or the JSON as text',
  }),
});

export interface ImportAnswer {
  workflow: Awaited<ReturnType<App['store']['createWorkflow']>>;
  problems: unknown[];
  importReport?: ImportReport & { format: ForeignFormat };
}

export async function importWorkflow(app: App, caller: Caller, body: unknown): Promise<ImportAnswer> {
  const { format } = parseInput(formatSchema, body);
  let doc: { name: string; description?: string; graph: unknown; engine?: 'auto' | 'dag' | 'langgraph' };
  let importReport: ImportAnswer['importReport'];
  if (format === EXPORT_FORMAT) doc = upgradedWorkflow(parseInput(importSchema, body));
  else {
    const converted =
      format === 'dify'
        ? convertDify(parseInput(difyImportSchema, body).content)
        : convertN8n(parseInput(n8nImportSchema, body).content);
    doc = converted;
    importReport = { format, ...converted.report };
  }
  const engine = doc.engine ?? 'auto';
  const { graph, problems } = await checkWorkflowForSave(app, caller, doc.graph, engine, true);
  const workflow = await app.store.createWorkflow({
    workspaceId: caller.workspaceId,
    id: newWorkflowId(),
    name: await uniqueWorkflowName(app, caller.workspaceId, doc.name),
    description: doc.description ?? '',
    graph,
    engine,
  });
  return { workflow, problems, ...(importReport ? { importReport } : {}) };
}
