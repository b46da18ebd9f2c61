/**
 * The DAG engine: runs a node as soon as every incoming edge is decided, independent branches in parallel
 * (bounded), and propagates skips from untaken condition branches. When a node fails, its descendants are not
 * started but independent branches finish, so a resume re-runs only the failed node and what depends on it.
 */
import type { ErrorJson } from '../errors';
import type { Graph, GraphNode } from '../graph/schema';
import { buildTopology } from '../graph/topology';
import type { NodeRegistry } from '../nodes/registry';
import type { NodeRunRecord, RunDebug } from '../store/types';
import { StoreWriteError, type RunJournal } from './run-journal';
import { nextTurn, turnIsDue } from './event-loop-turns';
import { persistWithNextIn, runNode, type NodeServices } from './run-node';
import {
  cancelledResult,
  chosenBranches,
  failedResult,
  nodeFailure,
  RunState,
  stageSkipped,
  storeFailedResult,
} from './scheduler-core';
import { settings } from '../config/settings';

export interface ExecuteArgs {
  runId: string;
  graph: Graph;
  inputs: Record<string, unknown>;
  registry: NodeRegistry;
  services: NodeServices;
  journal: RunJournal;
  signal: AbortSignal;
  /** Stored snapshots: succeeded ones listed in `reuse` are not executed again; attempts continue from them. */
  previous: Map<string, NodeRunRecord>;
  reuse: Set<string>;
  concurrency?: number;
  /** State-graph engine: the answer for a run paused on a human-input node. */
  answer?: { nodeId: string; value: unknown; threadId?: string };
  /** An editor test run's breakpoints and step mode (breakpoints.ts). */
  debug?: RunDebug | null;
  /** Nodes to (re)start from on a resume; computed by the engine when absent. */
  fromNodeId?: string;
  /**
   * An engine may announce the run's result before it returns, once nothing can change it (every node decided):
   * the manager then starts the run's final commit at once, overlapping the engine's own wind-down. The engine
   * must return the result it announced.
   */
  finish?: (result: ExecuteResult) => void;
}

export interface ExecuteResult {
  status: 'succeeded' | 'failed' | 'cancelled' | 'waiting';
  outputs: Record<string, unknown> | null;
  error: ErrorJson | null;
  /**
   * Set when status is `waiting`: which node waits, what it asks, and the checkpoint thread to resume. `paused`: the
   * node paused itself (NodePause) and its snapshot is stored; it runs again when answered (no LangGraph thread).
   */
  waiting?: { nodeId: string; prompt: unknown; threadId: string; paused?: boolean; nodeKey?: string };
}

/** Whether a debugging run pauses before this node: a breakpoint on it, or step mode (never before Start). */
export function pausesBefore(a: Pick<ExecuteArgs, 'debug'>, node: GraphNode): boolean {
  const d = a.debug;
  return !!d && node.type !== 'start' && (d.step || d.breakpoints.includes(node.id));
}

/** The node whose breakpoint was just answered: it takes its answer (an edited input) even if it would not pause. */
export const breakpointAnswered = (a: Pick<ExecuteArgs, 'debug'>, node: GraphNode): boolean =>
  a.debug?.answered === node.id;

export async function executeDag(a: ExecuteArgs): Promise<ExecuteResult> {
  const t = buildTopology(a.graph);
  const nodes = new Map<string, GraphNode>(a.graph.nodes.map((n) => [n.id, n]));
  const state = new RunState(a.inputs);
  const concurrency = Math.max(1, a.concurrency ?? settings().DAG_CONCURRENCY);
  const persistWithNext = persistWithNextIn(t, nodes, a.registry);
  state.seed(a, nodes);

  const ready: string[] = [];
  const queued = new Set<string>();
  const consider = (id: string) => {
    if (state.status.has(id) || queued.has(id)) return;
    const readiness = state.readiness(t.incoming.get(id)!);
    if (readiness === 'wait') return;
    if (readiness === 'skip') {
      stageSkipped(a, state, id, nodes.get(id)!.type, a.previous.get(id)?.attempt ?? 0);
      for (const e of t.outgoing.get(id)!) consider(e.target);
      return;
    }
    queued.add(id);
    ready.push(id);
  };

  for (const id of t.ids) consider(id);
  // Reused nodes may unblock successors that are pending.
  for (const id of t.ids)
    if (state.status.get(id) === 'succeeded') for (const e of t.outgoing.get(id)!) consider(e.target);

  const inflight = new Map<string, Promise<void>>();
  let firstError: ErrorJson | null = null;
  let waiting: ExecuteResult['waiting'];
  let storeError: StoreWriteError | null = null;

  const launch = (id: string) => {
    const node = nodes.get(id)!;
    state.settled(id, 'running');
    const def = a.registry.get(node.type, node.data.version);
    const p = runNode({
      runId: a.runId,
      node,
      def,
      scope: state.scope,
      previousAttempts: a.previous.get(id)?.attempt ?? 0,
      signal: a.signal,
      journal: a.journal,
      services: a.services,
      persistWithNext: persistWithNext.has(id),
      pauseBefore: pausesBefore(a, node),
      breakpointAnswered: breakpointAnswered(a, node),
      // A single-node run's edited input, when given, is what its node runs with (single-node-run.ts).
      configOverride: a.debug?.only === id ? a.debug.input : undefined,
    })
      .then(
        (out) => {
          if (out.status === 'succeeded') {
            state.succeeded(id, out.output, def.outputsFor ? chosenBranches(out.output, out.branch) : null);
            for (const e of t.outgoing.get(id)!) consider(e.target);
          } else {
            state.settled(id, out.status);
            if (out.status === 'failed') firstError ??= nodeFailure(id, out.error);
            if (out.status === 'waiting')
              waiting ??= { nodeId: id, nodeKey: out.nodeKey, prompt: out.pause, threadId: '', paused: true };
          }
        },
        (err) => {
          state.settled(id, 'failed');
          if (err instanceof StoreWriteError) storeError ??= err;
          else firstError ??= { code: 'ENGINE_ERROR', message: (err as Error).message, details: { nodeId: id } };
        },
      )
      .finally(() => inflight.delete(id));
    inflight.set(id, p);
  };

  while (true) {
    // A chain of pure nodes never waits for I/O: give other requests a turn every ~10 ms (event-loop-turns.ts).
    if (turnIsDue()) await nextTurn();
    while (!storeError && !a.signal.aborted && ready.length && inflight.size < concurrency) {
      const id = ready.shift()!;
      queued.delete(id);
      launch(id);
    }
    if (inflight.size === 0) break;
    await Promise.race(inflight.values());
  }

  if (storeError) return storeFailedResult(storeError);
  if (a.signal.aborted) return cancelledResult();
  if (firstError) return failedResult(firstError);
  // Paused for a person: its descendants wait for the answer; every independent branch has finished.
  if (waiting) return { status: 'waiting', outputs: null, error: null, waiting };
  const unfinished = t.ids.filter((id) => !state.status.has(id));
  if (unfinished.length)
    return failedResult({
      code: 'UNREACHED_NODES',
      message: `nodes never became ready: ${unfinished.join(', ')}`,
    });
  return { status: 'succeeded', outputs: state.outputs(a.graph.nodes), error: null };
}
