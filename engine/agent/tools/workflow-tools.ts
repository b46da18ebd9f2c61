/**
 * Workflows as tools: each configured workflow becomes `workflow__<name>`, whose arguments are that workflow's run
 * inputs. Calling it starts a run, waits for it and returns its outputs (a failed run is a tool failure). The runner
 * picks the child's version: from a published parent always the version pinned at publish time (or the current
 * published one); from a draft run the child's draft unless the entry names a version.
 */
import type { AgentTool, ChildVersion, WorkflowRunner } from '../../node-kit/agent-services';

export interface WorkflowToolConfig {
  workflowId: string;
  name: string;
  description?: string;
  /** For draft (editor) runs only; default: the child's draft. A published parent ignores it. */
  version?: ChildVersion;
}

const ANY_OBJECT = { type: 'object', additionalProperties: true } as const;

/** `parentRunId`: the calling run; only workflows of its workspace can be described and run. */
export async function workflowTools(
  configs: WorkflowToolConfig[],
  runner: WorkflowRunner,
  parentRunId?: string,
): Promise<AgentTool[]> {
  const out: AgentTool[] = [];
  for (const c of configs) {
    const info = await runner.describe?.(c.workflowId, { parentRunId }).catch(() => null);
    out.push({
      name: `workflow__${c.name}`,
      description:
        c.description ||
        info?.description ||
        `Runs the workflow "${info?.name ?? c.workflowId}" with the given inputs and returns its outputs.`,
      parameters: info?.inputSchema && info.inputSchema.type === 'object' ? info.inputSchema : { ...ANY_OBJECT },
      async execute(args, ctx) {
        const r = await runner.run(c.workflowId, args, {
          signal: ctx.signal,
          parentRunId: ctx.runId,
          parentNodeId: ctx.nodeId,
          version: c.version ?? 'draft',
        });
        if (r.status !== 'succeeded')
          throw new Error(`workflow run ${r.runId} ${r.status}${r.error ? `: ${r.error.message}` : ''}`);
        return r.outputs ?? {};
      },
    });
  }
  return out;
}
