/**
 * POST /api/workflows/import: a PaiFlow export (`format: "paiflow.workflow"`, exactly as before), or a workflow of
 * another tool — `{ format: "dify", content: "<DSL YAML>" }`, `{ format: "n8n", content: <export JSON or its text> }`
 * — converted (dify.ts, n8n.ts) and answered with an import report. Either way the graph passes the same save check
 * as any other (a draft may keep problems, answered as `problems`), under a name the workspace does not have yet.
 */
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { MAX_GRAPH_NODES } from '@/engine/graph/schema';
import { jsonDepth, MAX_VALUE_DEPTH } from '@/engine/uploads/json-depth';
import { readYamlInWorker } from '@/engine/uploads/parse-in-worker';
import { parseInput } from '@/lib/http/body';
import type { App } from '../../app-types';
import type { Caller } from '../../auth/authenticate';
import { EXPORT_FORMAT, importSchema, upgradedWorkflow } from '../export';
import { uniqueWorkflowName } from '../unique-name';
import { checkWorkflowForSave, newWorkflowId } from '../workflows';
import { convertDify } from './dify';
import { convertN8n } from './n8n';
import { demoteEntriesWithProblems, type ImportReport } from './report';

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

/** The nodes of an imported document, before it is converted: a graph has at most MAX_GRAPH_NODES. */
function checkNodeCount(nodes: unknown, path: string) {
  if (Array.isArray(nodes) && nodes.length > MAX_GRAPH_NODES)
    throw new PaiError(
      'IMPORT_TOO_MANY_NODES',
      `the workflow has ${nodes.length} nodes; a PaiFlow workflow has at most ${MAX_GRAPH_NODES}`,
      { path },
    );
}

/** A Dify DSL's YAML, read in a worker thread under the import limits (engine/uploads/yaml-document.ts). */
async function difyDocument(body: unknown): Promise<unknown> {
  const doc = await readYamlInWorker(parseInput(difyImportSchema, body).content);
  const graph = (doc as { workflow?: { graph?: { nodes?: unknown } } } | null)?.workflow?.graph;
  checkNodeCount(graph?.nodes, 'content.workflow.graph.nodes');
  return doc;
}

/**
 * An n8n export as sent: the body's own JSON (whose nesting readJson checked), or JSON text, its nesting checked by a
 * scan that stops at the limit before it is parsed (text that does not parse goes to the converter as it is, which
 * says where it stops parsing).
 */
function n8nDocument(body: unknown): unknown {
  let { content } = parseInput(n8nImportSchema, body);
  if (typeof content === 'string') {
    if (jsonDepth(content, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH)
      throw new PaiError('JSON_TOO_DEEP', `the JSON nests more than ${MAX_VALUE_DEPTH} levels deep`, {
        path: 'content',
      });
    try {
      content = JSON.parse(content) as typeof content;
    } catch {
      return content;
    }
  }
  const doc = Array.isArray(content) && content.length === 1 ? content[0] : content;
  checkNodeCount((doc as { nodes?: unknown } | null)?.nodes, 'content.nodes');
  return content;
}

export async function importWorkflow(app: App, caller: Caller, body: unknown): Promise<ImportAnswer> {
  const { format } = parseInput(formatSchema, body);
  let doc: { name: string; description?: string; graph: unknown; engine?: 'auto' | 'dag' | 'langgraph' };
  let importReport: ImportAnswer['importReport'];
  if (format === EXPORT_FORMAT) doc = upgradedWorkflow(parseInput(importSchema, body));
  else {
    const converted = format === 'dify' ? convertDify(await difyDocument(body)) : convertN8n(n8nDocument(body));
    doc = converted;
    importReport = { format, ...converted.report };
  }
  const engine = doc.engine ?? 'auto';
  const { graph, problems } = await checkWorkflowForSave(app, caller, doc.graph, engine, true);
  if (importReport)
    importReport = { format: importReport.format, ...demoteEntriesWithProblems(importReport, problems) };
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
