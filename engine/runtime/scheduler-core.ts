/**
 * What both engines decide the same way, in one place: the state of each edge (live, dead, still open), whether a
 * node is ready, skipped or must wait, which branches a node chose, the reuse of stored snapshots on a resume, skipped
 * snapshots, the run's outputs (its End nodes'), and the error results. The DAG engine schedules with it directly;
 * the state-graph engine keeps only LangGraph's graph build, interrupts and checkpoints (langgraph-executor.ts).
 */
import type { ErrorJson } from '../errors';
import type { GraphEdge, GraphNode } from '../graph/schema';
import type { NodeStatus } from '../store/types';
import type { TemplateScope } from '../template/resolve';
import type { ExecuteArgs, ExecuteResult } from './dag-executor';

export type EdgeState = 'live' | 'dead' | 'open';

/** The branches a node chose (its `branch`, or its output's), as handle ids; null when it chose none. */
export function chosenBranches(output: unknown, branch?: unknown): string[] | null {
  const b = branch ?? (output && typeof output === 'object' ? (output as { branch?: unknown }).branch : undefined);
  if (b === undefined || b === null) return null;
  return Array.isArray(b) ? b.map(String) : [String(b)];
}

/** One execution's decisions so far: node statuses, chosen branches, outputs (in the template scope) and passes. */
export class RunState {
  /** Absent: not decided yet (pending). */
  readonly status = new Map<string, NodeStatus>();
  readonly branch = new Map<string, string[] | null>();
  /** Completed passes per node (nodes on cycles run more than once). */
  readonly passes = new Map<string, number>();
  readonly scope: TemplateScope;

  constructor(inputs: Record<string, unknown>) {
    this.scope = { inputs, nodes: {} };
  }

  edgeState(e: GraphEdge): EdgeState {
    const s = this.status.get(e.source);
    if (s === 'skipped') return 'dead';
    if (s !== 'succeeded') return 'open';
    const chosen = this.branch.get(e.source);
    if (!chosen) return 'live';
    return chosen.includes(e.sourceHandle ?? '') ? 'live' : 'dead';
  }

  /** `wait` while an incoming edge is undecided; `skip` when every one is dead; else `run`. */
  readiness(incoming: GraphEdge[]): 'wait' | 'skip' | 'run' {
    let live = incoming.length === 0;
    for (const e of incoming) {
      const s = this.edgeState(e);
      if (s === 'open') return 'wait';
      if (s === 'live') live = true;
    }
    return live ? 'run' : 'skip';
  }

  succeeded(id: string, output: unknown, branch: string[] | null) {
    this.status.set(id, 'succeeded');
    this.branch.set(id, branch);
    this.scope.nodes[id] = { output, status: 'succeeded' };
  }

  /** A node that ended without an output: failed, cancelled, skipped (or, on the DAG engine, running). */
  settled(id: string, status: NodeStatus) {
    this.status.set(id, status);
    if (status !== 'running') this.scope.nodes[id] = { output: undefined, status };
  }

  /**
   * Seeds what earlier executions of this run established: the stored snapshots listed in `reuse` that succeeded as
   * the same node type are not executed again (and a loop node's completed passes are counted from its index).
   */
  seed(a: Pick<ExecuteArgs, 'previous' | 'reuse' | 'registry'>, nodes: Map<string, GraphNode>): void {
    for (const id of a.reuse) {
      const prev = a.previous.get(id);
      const node = nodes.get(id);
      if (!prev || prev.status !== 'succeeded' || !node || node.type !== prev.type) continue;
      const def = a.registry.has(node.type) ? a.registry.get(node.type, node.data.version) : undefined;
      this.succeeded(id, prev.output, def?.outputsFor ? chosenBranches(prev.output) : null);
      const index = (prev.output as { index?: unknown } | null)?.index;
      this.passes.set(id, node.type === 'loop' && typeof index === 'number' ? index + 1 : 1);
    }
  }

  /** The run's outputs: what its End nodes produced. */
  outputs(graphNodes: Iterable<GraphNode>): Record<string, unknown> {
    let outputs: Record<string, unknown> = {};
    for (const n of graphNodes)
      if (n.type === 'end' && this.status.get(n.id) === 'succeeded')
        outputs = { ...outputs, ...(this.scope.nodes[n.id]?.output as Record<string, unknown>) };
    return outputs;
  }
}

/** Records a node as skipped: a snapshot staged with the run's next commit and a `node.skipped` event. */
export function stageSkipped(a: ExecuteArgs, state: RunState, id: string, type: string, attempt: number) {
  a.journal.stageNode({
    runId: a.runId,
    nodeId: id,
    type,
    status: 'skipped',
    attempt,
    input: null,
    output: null,
    error: null,
    usage: null,
    startedAt: null,
    finishedAt: new Date().toISOString(),
    durationMs: null,
  });
  a.journal.emit('node.skipped', { type }, { nodeId: id });
  state.settled(id, 'skipped');
}

/** A failed node's error as the run's error: which node, and the node's own details as the cause. */
export function nodeFailure(nodeId: string, error: ErrorJson | null | undefined): ErrorJson {
  const e = error ?? { code: 'NODE_FAILED', message: `node "${nodeId}" failed` };
  return { ...e, details: { nodeId, ...(e.details ? { cause: e.details } : {}) } };
}

export const failedResult = (error: ErrorJson): ExecuteResult => ({ status: 'failed', outputs: null, error });

export const storeFailedResult = (e: unknown): ExecuteResult =>
  failedResult({ code: 'STORE_WRITE_FAILED', message: (e as Error).message });

export const cancelledResult = (): ExecuteResult => ({
  status: 'cancelled',
  outputs: null,
  error: { code: 'CANCELLED', message: 'the run was cancelled' },
});
