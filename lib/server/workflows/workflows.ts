/** Workflow use-cases shared by the route handlers: create/update with validation, import/export, run views. */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { answerWith } from '@/lib/http/errors';
import { ENGINES, type EngineChoice, type Graph } from '@/engine/graph/schema';
import { validateGraph, type Problem } from '@/engine/graph/validate';
import { totalUsage } from '@/engine/llm/prices';
import type { NodeRegistry } from '@/engine/node-kit/registry';
import type { NodeRunRecord, RunRecord, WorkflowRecord } from '@/engine/store/types';
import { nameSchema } from '@/engine/text/names';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { checkReferences, referenceSourcesOf } from './references';
import { workflowCallCycles } from './call-cycles';

export const workflowBodySchema = z.strictObject({
  name: nameSchema(200),
  description: z.string().max(5000).optional(),
  graph: z.unknown(),
  engine: z.enum(ENGINES).optional(),
});

export const workflowPatchSchema = z.strictObject({
  name: nameSchema(200).optional(),
  description: z.string().max(5000).optional(),
  graph: z.unknown().optional(),
  engine: z.enum(ENGINES).optional(),
  /** The revision the client edited; a mismatch means someone saved in between → 409 (the column is a 32-bit int). */
  revision: z.number().int().min(0).max(2_147_483_647, 'revision is out of range').optional(),
});

/** Codes that make a graph unstorable (corrupt), as opposed to a draft that is not runnable yet. */
const STRUCTURAL = new Set([
  'GRAPH_SCHEMA',
  'DUPLICATE_NODE_ID',
  'DUPLICATE_EDGE_ID',
  'DANGLING_EDGE',
  'UNKNOWN_NODE_TYPE',
  'UNKNOWN_NODE_VERSION',
  'RESERVED_NODE_ID',
]);

/** The graph in the body of a save is what is wrong: 400, where the same problems in a stored graph answer 422. */
function invalid(problems: Problem[]): PaiError {
  const first = problems[0];
  const err = new PaiError(
    first.code,
    `the graph is invalid (${problems.length} problem${problems.length > 1 ? 's' : ''}): ${first.message}`,
    {
      path: `graph.${first.path}`,
      details: { ...first.details, errors: problems.map((p) => ({ ...p, path: `graph.${p.path}` })) },
    },
  );
  return answerWith(err, 400);
}

/**
 * Checks a graph before it is stored. By default every problem rejects the save; with `allowDraft` (editor
 * autosave) only structural corruption does, and the remaining problems come back for the problems panel.
 */
export function checkGraphForSave(
  graph: unknown,
  registry: NodeRegistry,
  engine: EngineChoice,
  allowDraft: boolean,
): { graph: Graph; problems: Problem[]; warnings: Problem[] } {
  const v = validateGraph(graph, registry, engine);
  const blocking = allowDraft ? v.errors.filter((e) => STRUCTURAL.has(e.code)) : v.errors;
  if (blocking.length || !v.graph) throw invalid(blocking.length ? blocking : v.errors);
  return { graph: v.graph, problems: v.errors, warnings: v.warnings };
}

/**
 * checkGraphForSave plus the workspace's references (knowledge bases, workflows, credentials, tools, skills; see
 * references.ts): an unknown one rejects the save, or comes back as a problem of a draft. Warnings never reject it.
 */
export async function checkWorkflowForSave(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  graph: unknown,
  engine: EngineChoice,
  allowDraft: boolean,
  self?: { workflowId: string },
): Promise<{ graph: Graph; problems: Problem[]; warnings: Problem[] }> {
  const checked = checkGraphForSave(graph, app.registry, engine, allowDraft);
  const refs = await checkReferences(checked.graph, referenceSourcesOf(app, caller.workspaceId));
  // A call cycle (call-cycles.ts) is refused even in a draft: the runs would recurse.
  const cycles = await workflowCallCycles(app.store, caller.workspaceId, self?.workflowId ?? null, checked.graph);
  if (cycles.length) throw invalid(cycles);
  const problems = [...checked.problems, ...refs];
  if (!allowDraft && problems.length) throw invalid(problems);
  return { graph: checked.graph, problems, warnings: checked.warnings };
}

/**
 * validateGraph plus the workspace's references, as POST /api/workflows/:id/validate answers: `ok` when nothing is
 * in `errors`; `warnings` (a path that reaches no End node) never make it not ok.
 */
export async function validateWorkflow(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  graph: unknown,
  engine: EngineChoice,
  self?: { workflowId: string },
): Promise<{ ok: boolean; engine: string; errors: Problem[]; warnings: Problem[] }> {
  const v = validateGraph(graph, app.registry, engine);
  const refs = v.graph ? await checkReferences(v.graph, referenceSourcesOf(app, caller.workspaceId)) : [];
  const cycles = v.graph
    ? await workflowCallCycles(app.store, caller.workspaceId, self?.workflowId ?? null, v.graph)
    : [];
  const errors = [...v.errors, ...refs, ...cycles];
  return { ok: errors.length === 0, engine: v.engine, errors, warnings: v.warnings };
}

export function newWorkflowId(): string {
  return `wf_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** The caller's workspace's workflow `id`; another workspace's is 404, as if it did not exist. */
export async function getWorkflowOr404(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  id: string,
): Promise<WorkflowRecord> {
  const wf = await app.store.getWorkflow(id, caller.workspaceId);
  if (!wf) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${id} not found`);
  return wf;
}

/** A run of the caller's workspace; another workspace's is 404. */
export async function getRunOr404(app: App, caller: Pick<Caller, 'workspaceId'>, id: string): Promise<RunRecord> {
  const run = await app.store.getRun(id, caller.workspaceId);
  if (!run) throw new PaiError('RUN_NOT_FOUND', `run ${id} not found`);
  return run;
}

/** A run's token usage: its nodes' summed. */
export function usageOf(snapshots: NodeRunRecord[]) {
  return snapshots.reduce(
    (acc, s) => ({
      inputTokens: acc.inputTokens + (s.usage?.inputTokens ?? 0),
      outputTokens: acc.outputTokens + (s.usage?.outputTokens ?? 0),
    }),
    { inputTokens: 0, outputTokens: 0 },
  );
}

/** The run as GET /api/runs/:id returns it: every node of the run's graph, with its snapshot or `pending`. */
export function presentRun(run: RunRecord, snapshots: NodeRunRecord[]) {
  const byId = new Map(snapshots.map((s) => [s.nodeId, s]));
  const nodes = run.graph.nodes.map((n) => {
    const s = byId.get(n.id);
    return {
      nodeId: n.id,
      type: n.type,
      label: n.data.label ?? null,
      status: s?.status ?? 'pending',
      attempt: s?.attempt ?? 0,
      input: s?.input ?? null,
      output: s?.output ?? null,
      error: s?.error ?? null,
      startedAt: s?.startedAt ?? null,
      finishedAt: s?.finishedAt ?? null,
      durationMs: s?.durationMs ?? null,
      usage: s?.usage ?? null,
    };
  });
  // Tokens and cost (null when a node's price is unknown) of every node.
  const usage = totalUsage(snapshots.map((s) => s.usage));
  return {
    id: run.id,
    workflowId: run.workflowId,
    versionId: run.versionId,
    engine: run.engine,
    status: run.status,
    inputs: run.inputs,
    outputs: run.outputs,
    error: run.error,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    /** The run's cost in USD: its nodes' summed; null when a node's price is unknown (engine/llm/prices.ts). */
    costUsd: usage.costUsd,
    usage,
    /** The offline demo model answered some node (each such node's `usage.demo` is true): not a real model's work. */
    demo: usage.demo === true,
    nodes,
    graph: run.graph,
    singleNode: singleNodeOf(run),
  };
}

/** A single-node run's node (engine/runtime/single-node-run.ts), for history's "single node: <label>"; else null. */
export function singleNodeOf(run: RunRecord): { nodeId: string; label: string | null } | null {
  const only = run.debug?.only;
  if (!only) return null;
  return { nodeId: only, label: run.graph.nodes.find((n) => n.id === only)?.data.label ?? null };
}
