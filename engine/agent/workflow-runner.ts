/**
 * WorkflowRunner over the RunManager: start a run of another workflow, wait for it, return its outputs. Nesting
 * is bounded (a workflow whose agent calls itself would otherwise recurse forever) and cancelling or timing out
 * the calling tool cancels the child run.
 */
import type { RunManager } from '../runtime/run-manager';
import { startConfigSchema } from '../nodes/start.node';
import { DEFAULT_WORKSPACE_ID, type RunStore, type WorkflowStore } from '../store/types';
import { ToolPolicyError } from './tool-errors';
import type { WorkflowRunner } from './types';

/** A child that pauses for human input counts as settled: the tool reports it instead of blocking the agent. */
const SETTLED = new Set(['succeeded', 'failed', 'cancelled', 'interrupted', 'waiting']);

export function createWorkflowRunner(o: {
  runs: RunManager;
  workflows: WorkflowStore;
  store: RunStore;
  maxDepth?: number;
}): WorkflowRunner {
  const maxDepth = o.maxDepth ?? 3;
  const depthOf = new Map<string, number>(); // child runId → nesting depth (only runs started here)
  // A workflow is reachable as a tool only from runs of its own workspace; another workspace's is "not found".
  const workflowFor = async (workflowId: string, parentRunId?: string) => {
    const workspaceId = (parentRunId && (await o.store.workspaceOfRun(parentRunId))) || DEFAULT_WORKSPACE_ID;
    return o.workflows.getWorkflow(workflowId, workspaceId);
  };
  return {
    async run(workflowId, inputs, { signal, parentRunId }) {
      const depth = (depthOf.get(parentRunId) ?? 0) + 1;
      if (depth > maxDepth)
        throw new ToolPolicyError(`workflows may call other workflows at most ${maxDepth} levels deep`);
      const wf = await workflowFor(workflowId, parentRunId);
      if (!wf) throw new Error(`workflow ${workflowId} not found`);
      const { run } = await o.runs.start({ workflow: wf, inputs });
      depthOf.set(run.id, depth);
      const cancel = () => void o.runs.cancel(run.id).catch(() => {});
      signal.addEventListener('abort', cancel, { once: true });
      try {
        await o.runs.waitFor(run.id);
        // In queue mode the child may execute in another process: waitFor returns at once, so poll the store.
        let done = await o.store.getRun(run.id);
        for (let delay = 50; done && !SETTLED.has(done.status); delay = Math.min(delay * 2, 1000)) {
          if (signal.aborted) throw signal.reason;
          await new Promise((r) => setTimeout(r, delay));
          done = await o.store.getRun(run.id);
        }
        return {
          runId: run.id,
          status: done?.status ?? 'unknown',
          outputs: done?.outputs ?? null,
          error: done?.error ?? null,
        };
      } finally {
        signal.removeEventListener('abort', cancel);
        depthOf.delete(run.id);
      }
    },
    async describe(workflowId, opts = {}) {
      const wf = await workflowFor(workflowId, opts.parentRunId);
      if (!wf) return null;
      const start = wf.graph.nodes.find((n) => n.type === 'start');
      const parsed = startConfigSchema.safeParse(start?.data.config ?? {});
      const decls = parsed.success ? parsed.data.inputs : [];
      return {
        name: wf.name,
        description: wf.description,
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(
            decls.map((d) => [
              d.name,
              {
                type: d.type,
                ...(d.type === 'array' ? { items: {} } : {}),
                ...(d.description ? { description: d.description } : {}),
              },
            ]),
          ),
          required: decls.filter((d) => d.required && d.default === undefined).map((d) => d.name),
          additionalProperties: false,
        },
      };
    },
  };
}
