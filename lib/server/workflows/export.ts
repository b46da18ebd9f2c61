/**
 * The portable workflow document (GET /api/workflows/:id/export, POST /api/workflows/import). Its `formatVersion`
 * says which spelling of the API the graph was written in; an older document is upgraded when it is imported, so an
 * export keeps importing after the API changes a name.
 *   1 → 2: a node's provider settings say `baseUrl`, no longer `baseURL` (as migration 0014 did to stored graphs).
 */
import { z } from 'zod';
import type { WorkflowRecord } from '@/engine/store/types';
import { workflowBodySchema } from './workflows';

export const EXPORT_FORMAT = 'paiflow.workflow';
export const EXPORT_FORMAT_VERSION = 2;

export function exportWorkflow(wf: WorkflowRecord) {
  return {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    workflow: { name: wf.name, description: wf.description, engine: wf.engine, graph: wf.graph },
  };
}

export const importSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT, { message: `format must be "${EXPORT_FORMAT}"` }),
  formatVersion: z
    .number()
    .int()
    .min(1)
    .max(EXPORT_FORMAT_VERSION, { message: `this server reads format versions up to ${EXPORT_FORMAT_VERSION}` }),
  exportedAt: z.string().max(100).optional(),
  workflow: workflowBodySchema,
});
export type ImportDoc = z.infer<typeof importSchema>;

/** The document's workflow in the current format's spelling. */
export function upgradedWorkflow(doc: ImportDoc): ImportDoc['workflow'] {
  if (doc.formatVersion >= 2) return doc.workflow;
  return { ...doc.workflow, graph: renameProviderBaseUrl(structuredClone(doc.workflow.graph)) };
}

/** Where a provider object lives in a node's data: an LLM-like node's, and each multi-agent role's. */
const PROVIDER_PATHS = [['config'], ['config', 'planner'], ['config', 'worker'], ['config', 'reviewer']];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `provider.baseURL` → `provider.baseUrl` in every node (the graph is not validated yet: any shape is passed on). */
function renameProviderBaseUrl(graph: unknown): unknown {
  if (!isObject(graph) || !Array.isArray(graph.nodes)) return graph;
  for (const node of graph.nodes) {
    for (const at of PROVIDER_PATHS) {
      let holder: unknown = isObject(node) ? node.data : undefined;
      for (const key of at) holder = isObject(holder) ? holder[key] : undefined;
      const provider = isObject(holder) ? holder.provider : undefined;
      if (!isObject(provider) || !('baseURL' in provider)) continue;
      const { baseURL, ...rest } = provider;
      (holder as Record<string, unknown>).provider = { ...rest, baseUrl: baseURL };
    }
  }
  return graph;
}
