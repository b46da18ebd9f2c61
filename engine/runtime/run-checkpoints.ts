/**
 * Time travel over a run's node snapshots, the same on both engines: the run's checkpoints are its succeeded nodes in
 * the order they finished (step 1, 2, …), and the state at a checkpoint is the run's inputs plus the outputs of the
 * steps up to it. A fork from a checkpoint is a new run of the same graph whose nodes up to that step are seeded from
 * their snapshots (edited where the caller gives a new output), so they do not run again; everything after them runs.
 */
import type { Graph } from '../graph/schema';
import { buildTopology, descendantsOf, topologicalOrder } from '../graph/topology';
import { PaiError } from '../errors';
import type { NodeRunRecord } from '../store/types';
import type { SeededNode } from './pinned-data';

export interface RunCheckpoint {
  /** The checkpoint's id: the id of the node whose step it closes. */
  checkpointId: string;
  step: number;
  nodeId: string;
  type: string;
  /** The node's label in the graph. */
  label: string | null;
  finishedAt: string | null;
  /** What this step added to the state: the node's output. */
  output: unknown;
}

/** The run's checkpoints, oldest first. Nodes that finished in the same millisecond keep the graph's order. */
export function checkpointsOf(graph: Graph, snapshots: NodeRunRecord[]): RunCheckpoint[] {
  const sorted = topologicalOrder(buildTopology(graph));
  const order = new Map([...sorted.order, ...sorted.rest].map((id, i) => [id, i]));
  const labels = new Map(graph.nodes.map((n) => [n.id, (n.data as { label?: string }).label ?? null]));
  const time = (s: NodeRunRecord) => Date.parse(s.finishedAt ?? s.startedAt ?? '') || 0;
  return snapshots
    .filter((s) => s.status === 'succeeded' && order.has(s.nodeId))
    .sort((a, b) => time(a) - time(b) || order.get(a.nodeId)! - order.get(b.nodeId)!)
    .map((s, i) => ({
      checkpointId: s.nodeId,
      step: i + 1,
      nodeId: s.nodeId,
      type: s.type,
      label: labels.get(s.nodeId) ?? null,
      finishedAt: s.finishedAt,
      output: s.output,
    }));
}

export interface ForkPlan {
  /** The checkpoint forked from. */
  checkpoint: RunCheckpoint;
  /** The nodes recorded as succeeded before the fork's first node runs. */
  seeds: SeededNode[];
}

/**
 * Which nodes a fork from `checkpointId` reuses: the steps up to it, except any node downstream of a later step (a
 * node on a loop with a later step runs again with its loop). `state`: new outputs for some of the reused nodes.
 */
export function planFork(
  graph: Graph,
  snapshots: NodeRunRecord[],
  fork: { sourceRunId: string; checkpointId: string; state?: Record<string, unknown> },
): ForkPlan {
  const checkpoints = checkpointsOf(graph, snapshots);
  const at = checkpoints.find((c) => c.checkpointId === fork.checkpointId);
  if (!at)
    throw new PaiError('CHECKPOINT_NOT_FOUND', `the run has no checkpoint "${fork.checkpointId}"`, {
      path: 'checkpointId',
    });
  const t = buildTopology(graph);
  const rerun = new Set<string>();
  for (const later of checkpoints.slice(at.step)) for (const id of descendantsOf(t, later.nodeId)) rerun.add(id);
  const reused = checkpoints.slice(0, at.step).filter((c) => !rerun.has(c.nodeId));
  const reusedIds = new Set(reused.map((c) => c.nodeId));
  for (const id of Object.keys(fork.state ?? {})) {
    if (!reusedIds.has(id))
      throw new PaiError(
        'FORK_STATE_NOT_AT_CHECKPOINT',
        `node "${id}" has no output in the state at checkpoint "${at.checkpointId}": ` +
          'only the steps up to it can be edited',
        { path: `state.${id}` },
      );
  }
  const inputs = new Map(snapshots.map((s) => [s.nodeId, s.input]));
  const edited = fork.state ?? {};
  return {
    checkpoint: at,
    seeds: reused.map((c) => ({
      nodeId: c.nodeId,
      type: c.type,
      output: Object.hasOwn(edited, c.nodeId) ? edited[c.nodeId] : c.output,
      input: inputs.get(c.nodeId) ?? null,
      note: {
        forkedFrom: { runId: fork.sourceRunId, checkpointId: at.checkpointId },
        ...(Object.hasOwn(edited, c.nodeId) ? { edited: true } : {}),
      },
    })),
  };
}
