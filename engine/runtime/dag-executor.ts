/**
 * The DAG engine: runs a node as soon as every incoming edge is decided, independent branches in parallel
 * (bounded), and propagates skips from untaken condition branches. When a node fails, its descendants are not
 * started but independent branches finish, so a resume re-runs only the failed node and what depends on it.
 */
import type { ErrorJson } from '../errors';
import type { Graph, GraphEdge, GraphNode } from '../graph/schema';
import { buildTopology } from '../graph/topology';
import type { NodeRegistry } from '../nodes/registry';
import type { NodeRunRecord } from '../store/types';
import type { TemplateScope } from '../template/resolve';
import { StoreWriteError, type RunJournal } from './run-journal';
import { nextTurn, turnIsDue } from './event-loop-turns';
import { persistWithNextIn, runNode, type NodeServices } from './run-node';

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
  /** Set when status is `waiting`: which node waits, what it asks, and the checkpoint thread to resume. */
  waiting?: { nodeId: string; prompt: unknown; threadId: string };
}

type State = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

function branchesOf(output: unknown, branch: unknown): string[] | undefined {
  const b = branch ?? (output && typeof output === 'object' ? (output as { branch?: unknown }).branch : undefined);
  if (b === undefined || b === null) return undefined;
  return Array.isArray(b) ? b.map(String) : [String(b)];
}

export async function executeDag(a: ExecuteArgs): Promise<ExecuteResult> {
  const t = buildTopology(a.graph);
  const nodes = new Map<string, GraphNode>(a.graph.nodes.map((n) => [n.id, n]));
  const state = new Map<string, State>();
  const taken = new Map<string, string[] | undefined>(); // chosen source handles of branching nodes
  const scope: TemplateScope = { inputs: a.inputs, nodes: {} };
  const concurrency = Math.max(1, a.concurrency ?? Number(process.env.DAG_CONCURRENCY ?? 8));
  const persistWithNext = persistWithNextIn(t, nodes, a.registry);

  for (const n of a.graph.nodes) {
    const prev = a.previous.get(n.id);
    if (a.reuse.has(n.id) && prev?.status === 'succeeded' && prev.type === n.type) {
      state.set(n.id, 'succeeded');
      scope.nodes[n.id] = { output: prev.output, status: 'succeeded' };
      const def = a.registry.has(n.type) ? a.registry.get(n.type, n.data.version) : undefined;
      taken.set(n.id, def?.outputsFor ? branchesOf(prev.output, undefined) : undefined);
    } else {
      state.set(n.id, 'pending');
    }
  }

  /** live | dead | undecided for one edge. */
  const edgeState = (e: GraphEdge): 'live' | 'dead' | 'open' => {
    const s = state.get(e.source);
    if (s === 'skipped') return 'dead';
    if (s !== 'succeeded') return 'open';
    const chosen = taken.get(e.source);
    if (!chosen) return 'live';
    return chosen.includes(e.sourceHandle ?? '') ? 'live' : 'dead';
  };

  const ready: string[] = [];
  const queued = new Set<string>();
  const consider = (id: string) => {
    if (state.get(id) !== 'pending' || queued.has(id)) return;
    const inc = t.incoming.get(id)!;
    const states = inc.map(edgeState);
    if (states.includes('open')) return;
    if (inc.length > 0 && !states.includes('live')) {
      state.set(id, 'skipped');
      scope.nodes[id] = { output: undefined, status: 'skipped' };
      const prev = a.previous.get(id);
      const now = new Date().toISOString();
      a.journal.stageNode({
        runId: a.runId,
        nodeId: id,
        type: nodes.get(id)!.type,
        status: 'skipped',
        attempt: prev?.attempt ?? 0,
        input: null,
        output: null,
        error: null,
        usage: null,
        startedAt: null,
        finishedAt: now,
        durationMs: null,
      });
      a.journal.emit('node.skipped', { type: nodes.get(id)!.type }, { nodeId: id });
      for (const e of t.outgoing.get(id)!) consider(e.target);
      return;
    }
    queued.add(id);
    ready.push(id);
  };

  for (const id of t.ids) consider(id);
  // Reused nodes may unblock successors that are pending.
  for (const id of t.ids) if (state.get(id) === 'succeeded') for (const e of t.outgoing.get(id)!) consider(e.target);

  const inflight = new Map<string, Promise<void>>();
  let firstError: ErrorJson | null = null;
  let storeError: StoreWriteError | null = null;

  const launch = (id: string) => {
    const node = nodes.get(id)!;
    state.set(id, 'running');
    const def = a.registry.get(node.type, node.data.version);
    const p = runNode({
      runId: a.runId,
      node,
      def,
      scope,
      previousAttempts: a.previous.get(id)?.attempt ?? 0,
      signal: a.signal,
      journal: a.journal,
      services: a.services,
      persistWithNext: persistWithNext.has(id),
    })
      .then(
        (out) => {
          state.set(id, out.status);
          if (out.status === 'succeeded') {
            scope.nodes[id] = { output: out.output, status: 'succeeded' };
            taken.set(id, def.outputsFor ? branchesOf(out.output, out.branch) : undefined);
            for (const e of t.outgoing.get(id)!) consider(e.target);
          } else if (out.status === 'failed' && !firstError) {
            firstError = {
              ...out.error!,
              details: { nodeId: id, ...(out.error?.details ? { cause: out.error.details } : {}) },
            };
          }
        },
        (err) => {
          state.set(id, 'failed');
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

  if (storeError) {
    return {
      status: 'failed',
      outputs: null,
      error: { code: 'STORE_WRITE_FAILED', message: (storeError as Error).message },
    };
  }
  if (a.signal.aborted)
    return { status: 'cancelled', outputs: null, error: { code: 'CANCELLED', message: 'the run was cancelled' } };
  if (firstError) return { status: 'failed', outputs: null, error: firstError };
  const unfinished = [...state.entries()].filter(([, s]) => s === 'pending');
  if (unfinished.length) {
    return {
      status: 'failed',
      outputs: null,
      error: {
        code: 'UNREACHED_NODES',
        message: `nodes never became ready: ${unfinished.map(([id]) => id).join(', ')}`,
      },
    };
  }
  let outputs: Record<string, unknown> = {};
  for (const n of a.graph.nodes) {
    if (n.type === 'end' && state.get(n.id) === 'succeeded')
      outputs = { ...outputs, ...(scope.nodes[n.id]?.output as Record<string, unknown>) };
  }
  return { status: 'succeeded', outputs, error: null };
}
