/**
 * WorkflowRunner over the RunManager: start a run of another workflow, wait for it, return its outputs. It serves
 * both the sub-workflow node and agents' workflow tools. Nesting is bounded (a workflow whose agent calls itself
 * would otherwise recurse forever) and cancelling or timing out the caller cancels the child run.
 *
 * Which version of the child runs: a parent that is a published run (its run has a versionId, as every API call's
 * has) runs the child version pinned in its own graph when it was published (`pinnedVersion`,
 * lib/server/publishing/publish.ts), else the child's current published version — never a draft. Only a draft parent
 * (an editor test run) may run the child's draft, when it asks for `draft`; `published` means the current published
 * version, a number that version.
 */
import { PaiError } from '../errors';
import type { EngineChoice, Graph } from '../graph/schema';
import { startConfigSchema } from '../nodes/start';
import { pinnedVersionIn } from '../graph/workflow-calls';
import type { RunManager } from './run-manager';
import {
  DEFAULT_WORKSPACE_ID,
  type RunRecord,
  type RunStore,
  type WorkflowRecord,
  type WorkflowStore,
  type WorkflowVersionRecord,
} from '../store/types';
import { ToolPolicyError } from '../agent/tool-errors';
import type {
  ChildRunOptions,
  ChildRunResult,
  ChildVersion,
  ChildVersionLabel,
  WorkflowRunner,
  WorkflowRunResult,
} from '../node-kit/agent-services';

/** A child that pauses for human input counts as settled: the caller reports it instead of blocking. */
const SETTLED = new Set(['succeeded', 'failed', 'cancelled', 'interrupted', 'waiting']);

/** The store calls the runner needs: workflows, their versions by id and by number. */
export type ChildWorkflowStore = WorkflowStore & {
  getVersionByNumber(workflowId: string, version: number): Promise<WorkflowVersionRecord | null>;
};

interface Target {
  /** Undefined: the workflow's draft. */
  graph?: Graph;
  versionId: string | null;
  engine: EngineChoice;
  label: ChildVersionLabel;
}

export class WorkflowDepthError extends ToolPolicyError {
  readonly code = 'WORKFLOW_DEPTH_LIMIT';
}

const RESUMABLE_CHILD = new Set(['failed', 'cancelled', 'interrupted']);

export function createWorkflowRunner(o: {
  runs: RunManager;
  workflows: ChildWorkflowStore;
  store: RunStore;
  maxDepth?: number;
}): WorkflowRunner {
  const maxDepth = o.maxDepth ?? 3;
  const depthOf = new Map<string, number>(); // child runId → nesting depth (only runs started here)
  // A child run starts executing while its start() is still returning, so its own calls can come before its depth
  // is recorded: a caller unknown here waits for the starts under way (its own, if it is a child, is among them).
  const starting = new Set<Promise<unknown>>();
  const depthOfParent = async (parentRunId: string) => {
    if (!depthOf.has(parentRunId) && starting.size) await Promise.allSettled([...starting]);
    return depthOf.get(parentRunId) ?? 0;
  };

  // A workflow is reachable only from runs of its own workspace; another workspace's is "not found".
  const workflowFor = async (workflowId: string, parentRunId?: string) => {
    const workspaceId = (parentRunId && (await o.store.workspaceOfRun(parentRunId))) || DEFAULT_WORKSPACE_ID;
    return o.workflows.getWorkflow(workflowId, workspaceId);
  };

  const targetOf = async (
    wf: WorkflowRecord,
    parent: RunRecord | null,
    requested: ChildVersion,
    parentNodeId?: string,
  ): Promise<Target> => {
    let want = requested;
    const publishedParent = !!parent?.versionId;
    if (parent && publishedParent)
      want = pinnedVersionIn(parent.graph, wf.id, parentNodeId) ?? (typeof want === 'number' ? want : 'published');
    if (want === 'draft') return { versionId: null, engine: wf.engine, label: 'draft' };
    let v: WorkflowVersionRecord | null;
    if (want === 'published') {
      v = wf.currentVersionId ? await o.workflows.getVersion(wf.currentVersionId) : null;
      if (!v)
        throw new PaiError(
          'CHILD_NOT_PUBLISHED',
          `workflow "${wf.name}" (${wf.id}) has no published version: publish it` +
            (publishedParent ? '' : ', or choose version "draft" for test runs'),
          { details: { workflowId: wf.id } },
        );
    } else {
      v = await o.workflows.getVersionByNumber(wf.id, want);
      if (!v || v.workflowId !== wf.id)
        throw new PaiError('CHILD_VERSION_NOT_FOUND', `workflow "${wf.name}" (${wf.id}) has no version ${want}`, {
          details: { workflowId: wf.id, version: want },
        });
    }
    return { graph: v.graph, versionId: v.id, engine: v.engine, label: v.version };
  };

  /** Waits for a child run to settle (here, or in another process in queue mode) and reports it. */
  const settled = async (runId: string, signal: AbortSignal): Promise<WorkflowRunResult> => {
    await o.runs.waitFor(runId);
    // In queue mode the child may execute in another process: waitFor returns at once, so poll the store.
    let done = await o.store.getRun(runId);
    for (let delay = 50; done && !SETTLED.has(done.status); delay = Math.min(delay * 2, 1000)) {
      if (signal.aborted) throw signal.reason;
      await new Promise((r) => setTimeout(r, delay));
      done = await o.store.getRun(runId);
    }
    return { runId, status: done?.status ?? 'unknown', outputs: done?.outputs ?? null, error: done?.error ?? null };
  };

  return {
    /**
     * Continues a child run an earlier execution of the calling node started (its id checkpointed): a child that
     * succeeded is reported as it is, one that failed, was cancelled or interrupted is resumed (its own completed
     * nodes are not run again), one still active is waited for. Null when the run is gone (start a new one).
     */
    async continue(runId, { signal, parentRunId }) {
      const workspaceId = (await o.store.workspaceOfRun(parentRunId)) || DEFAULT_WORKSPACE_ID;
      const child = await o.store.getRun(runId, workspaceId);
      if (!child) return null;
      const depth = (await depthOfParent(parentRunId)) + 1;
      if (RESUMABLE_CHILD.has(child.status)) await o.runs.resume(runId);
      depthOf.set(runId, depth);
      const cancel = () => void o.runs.cancel(runId).catch(() => {});
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return await settled(runId, signal);
      } finally {
        signal.removeEventListener('abort', cancel);
        depthOf.delete(runId);
      }
    },

    async run(workflowId, inputs, opts: ChildRunOptions): Promise<ChildRunResult> {
      const { signal, parentRunId } = opts;
      const depth = (await depthOfParent(parentRunId)) + 1;
      if (depth > maxDepth)
        throw new WorkflowDepthError(`workflows may call other workflows at most ${maxDepth} levels deep`);
      const wf = await workflowFor(workflowId, parentRunId);
      if (!wf)
        throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${workflowId} not found`, {
          details: { workflowId },
        });
      const parent = await o.store.getRun(parentRunId);
      const target = await targetOf(wf, parent, opts.version ?? 'published', opts.parentNodeId);
      signal.throwIfAborted();
      const started = o.runs
        .start({ workflow: wf, graph: target.graph, versionId: target.versionId, engine: target.engine, inputs })
        .then((r) => (depthOf.set(r.run.id, depth), r));
      starting.add(started);
      const { run } = await started.finally(() => starting.delete(started));
      const cancel = () => void o.runs.cancel(run.id).catch(() => {});
      signal.addEventListener('abort', cancel, { once: true });
      try {
        try {
          opts.onStarted?.({ runId: run.id, version: target.label });
        } catch {
          // the caller's announcement must not break the call
        }
        if (signal.aborted) cancel();
        return { ...(await settled(run.id, signal)), version: target.label };
      } finally {
        signal.removeEventListener('abort', cancel);
        depthOf.delete(run.id);
      }
    },

    /** The inputs of the version a call from `parentRunId` would run (a workflow tool's default: the draft). */
    async describe(workflowId, opts = {}) {
      const wf = await workflowFor(workflowId, opts.parentRunId);
      if (!wf) return null;
      const parent = opts.parentRunId ? await o.store.getRun(opts.parentRunId) : null;
      const graph = (await targetOf(wf, parent, 'draft').catch(() => null))?.graph ?? wf.graph;
      const start = graph.nodes.find((n) => o.runs.registry.capabilitiesOf(n).entry);
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
