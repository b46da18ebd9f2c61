/**
 * Workflows as tools: each configured workflow becomes `workflow__<name>`, whose arguments are that workflow's run
 * inputs. Calling it starts a run, waits for it and returns its outputs (a failed run is a tool failure).
 */
import type { AgentTool, WorkflowRunner } from '../types';

export interface WorkflowToolConfig {
  workflowId: string;
  name: string;
  description?: string;
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
        const r = await runner.run(c.workflowId, args, { signal: ctx.signal, parentRunId: ctx.runId });
        if (r.status !== 'succeeded')
          throw new Error(`workflow run ${r.runId} ${r.status}${r.error ? `: ${r.error.message}` : ''}`);
        return r.outputs ?? {};
      },
    });
  }
  return out;
}
