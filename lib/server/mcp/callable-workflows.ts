/**
 * The published workflows an API key may run, each with its current version: what the MCP server lists as tools
 * (those opted in with `mcp`) and GET /api/v1/models lists as models (all of them).
 *
 * Today a key belongs to exactly one workflow (api_keys.workflow_id), so the list is that workflow while it is
 * published. Both callers take a list, so a key that may run several workflows (a workspace key, say) only changes
 * `workflowIdsOf` here, not the MCP server or the models route.
 */
import type { ApiKeyRecord } from '@/engine/store/publishing';
import type { WorkflowRecord, WorkflowVersionRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import { versionToRun } from '../publishing/published-runs';

export interface CallableWorkflow {
  workflow: WorkflowRecord & { slug: string };
  /** The current published version: the one a call runs. */
  version: WorkflowVersionRecord;
}

/** The workflows the key may run, published or not. */
const workflowIdsOf = (key: ApiKeyRecord): string[] => [key.workflowId];

const isPublished = (wf: WorkflowRecord | null): wf is WorkflowRecord & { slug: string } =>
  !!wf && !!wf.slug && !!wf.currentVersionId;

/**
 * The key's published workflows, sorted by slug; with `mcpOnly`, only those offered to MCP clients. A workflow
 * unpublished (or deleted) meanwhile is left out, never an error: the list is what can be called now.
 */
export async function callableWorkflows(
  app: App,
  key: ApiKeyRecord,
  opts: { mcpOnly?: boolean } = {},
): Promise<CallableWorkflow[]> {
  const workflows = await Promise.all(workflowIdsOf(key).map((id) => app.store.getWorkflow(id)));
  const out: CallableWorkflow[] = [];
  for (const wf of workflows) {
    if (!isPublished(wf) || (opts.mcpOnly && !wf.mcp)) continue;
    const version = await versionToRun(app, wf).catch(() => null);
    if (version) out.push({ workflow: wf, version });
  }
  return out.sort((a, b) => a.workflow.slug.localeCompare(b.workflow.slug));
}
