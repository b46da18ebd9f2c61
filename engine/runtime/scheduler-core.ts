/**
 * The one runtime every way of running nodes shares — the DAG engine, the state-graph engine's nodes, a parallel
 * loop's items and the planning of a single-node run: the state of each edge (live, dead, still open), whether a node
 * is ready, skipped or must wait (the frontier, also on a resume), which branches a node chose, the reuse of stored
 * snapshots, skipped snapshots, the launch loop (ready → in flight, bounded), the order in which outcomes decide a
 * result (store failure → cancelled → failed → waiting → succeeded) and the run's outputs (its terminal nodes'), or
 * NO_END_REACHED when no terminal node ran.
 * The state-graph engine keeps only LangGraph's graph build (langgraph-executor.ts).
 */
import type { ErrorJson } from '../errors';
import type { GraphEdge, GraphNode } from '../graph/schema';
import type { Topology } from '../graph/topology';
import type { NodeDefinition } from '../node-kit/define';
import type { NodeRegistry } from '../node-kit/registry';
import type { NodeStatus } from '../store/types';
import type { TemplateScope } from '../template/resolve';
import { pausesBefore, breakpointAnswered } from './breakpoints';
import { nextTurn, turnIsDue } from './event-loop-turns';
import { StoreWriteError } from './run-journal';
import type { NodeOutcome, RunNodeArgs } from './run-node';
import type { ExecuteArgs, ExecuteResult } from './types';
import { writtenBy, type ConversationState } from './conversation-state';

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
  /** The conversation variables (conversation-state.ts); a loop item shares its run's. */
  readonly conversation: ConversationState | undefined;

  /**
   * `maxOutputChars`: what the scope's templates may render to (the run's TEMPLATE_MAX_OUTPUT_CHARS).
   * `conversation`: the run's conversation variables, when its graph declares any.
   */
  constructor(inputs: Record<string, unknown>, maxOutputChars?: number, conversation?: ConversationState) {
    this.conversation = conversation;
    this.scope = {
      inputs,
      nodes: {},
      maxOutputChars,
      ...(conversation ? { conversation: conversation.values, conversationDeclared: conversation.declared } : {}),
    };
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

  /** `written`: the conversation variables the node wrote (writtenBy), seen by the nodes after it. */
  succeeded(id: string, output: unknown, branch: string[] | null, written?: Record<string, unknown> | null) {
    this.status.set(id, 'succeeded');
    this.branch.set(id, branch);
    this.scope.nodes[id] = { output, status: 'succeeded' };
    if (written && this.conversation)
      for (const [name, value] of Object.entries(written)) {
        this.conversation.values[name] = value;
        this.conversation.writes.set(name, value);
      }
  }

  /** A node that ended without an output: failed, cancelled, skipped (or, on the DAG engine, running). */
  settled(id: string, status: NodeStatus) {
    this.status.set(id, status);
    if (status !== 'running') this.scope.nodes[id] = { output: undefined, status };
  }

  /**
   * Seeds what earlier executions of this run established: the stored snapshots listed in `reuse` that succeeded as
   * the same node type are not executed again (and a loop node's completed passes are counted from its index).
   * `answered`: the paused node a person answered, which runs again in the pass it paused in.
   */
  seed(a: Pick<ExecuteArgs, 'previous' | 'reuse' | 'registry' | 'answered'>, nodes: Map<string, GraphNode>): void {
    for (const id of a.reuse) {
      const prev = a.previous.get(id);
      const node = nodes.get(id);
      if (!prev || prev.status !== 'succeeded' || !node || node.type !== prev.type) continue;
      const def = a.registry.has(node.type) ? a.registry.get(node.type, node.data.version) : undefined;
      this.succeeded(
        id,
        prev.output,
        def?.outputsFor ? chosenBranches(prev.output) : null,
        writtenBy(def, prev.output),
      );
      const index = (prev.output as { index?: unknown } | null)?.index;
      const iterates = !!def?.capabilities?.iterates;
      this.passes.set(id, iterates && typeof index === 'number' ? index + 1 : 1);
    }
    // A node answered in a later pass of its cycle runs again in that pass.
    if (a.answered?.pass) this.passes.set(a.answered.nodeId, a.answered.pass);
  }

  /** The run's outputs: what its terminal (End) nodes produced. */
  outputs(graphNodes: Iterable<GraphNode>, registry: NodeRegistry): Record<string, unknown> {
    let outputs: Record<string, unknown> = {};
    for (const n of graphNodes)
      if (this.status.get(n.id) === 'succeeded' && registry.capabilitiesOf(n).terminal)
        outputs = { ...outputs, ...(this.scope.nodes[n.id]?.output as Record<string, unknown>) };
    return outputs;
  }

  /** The nodes where the run stopped: succeeded, and no edge that leaves them was taken. */
  endedAt(t: Topology): string[] {
    return t.ids.filter(
      (id) =>
        this.status.get(id) === 'succeeded' && !(t.outgoing.get(id) ?? []).some((e) => this.edgeState(e) === 'live'),
    );
  }
}

/**
 * The result of an execution whose every node ended without a failure or a pause: succeeded with what its End nodes
 * produced — unless no End node ran (each path it took ended elsewhere: a branch leading nowhere, see
 * graph/paths-without-end.ts). Then it has no outputs, and passing that off as a success would hide it from the
 * caller: the run fails with NO_END_REACHED, naming where it stopped. A single-node run runs one node, not a path to
 * an End: it succeeds.
 */
export function finishedResult(
  a: Pick<ExecuteArgs, 'registry' | 'debug'>,
  state: RunState,
  nodes: Iterable<GraphNode>,
  t: Topology,
): ExecuteResult {
  const list = [...nodes];
  const reachedEnd = list.some((n) => state.status.get(n.id) === 'succeeded' && a.registry.capabilitiesOf(n).terminal);
  if (reachedEnd || a.debug?.only)
    return {
      status: 'succeeded',
      outputs: state.outputs(list, a.registry),
      error: null,
      ...(state.conversation?.writes.size ? { conversation: Object.fromEntries(state.conversation.writes) } : {}),
    };
  const endedAt = state.endedAt(t);
  const where = endedAt.length ? ` at ${endedAt.map((id) => `"${id}"`).join(', ')}` : '';
  return failedResult({
    code: 'NO_END_REACHED',
    message:
      `the run ended${where} without reaching an End node, so it has no outputs: ` +
      'connect the path it took to an End node',
    details: { endedAt },
  });
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

/**
 * Which nodes can run now, and the skips that follow: a node is looked at once every incoming edge is decided; when
 * every one is dead it is skipped (`onSkip` records it) and its successors are looked at in turn; else it is ready.
 * Built over a run's state after its stored snapshots were seeded, `consider`-ing every node gives the resume
 * frontier: what (re)starts, with the skips already decided by what was reused.
 *
 * `'defer'` (or `onSkip` answering false for a node — the state-graph engine's nodes on a cycle, which may be skipped
 * on one pass and run on the next): a node whose inputs are all dead is left undecided, for the node itself to decide
 * when it is triggered.
 */
export class Frontier {
  private readonly ready: string[] = [];
  private readonly queued = new Set<string>();

  constructor(
    private readonly state: RunState,
    private readonly incoming: Map<string, GraphEdge[]>,
    private readonly outgoing: Map<string, GraphEdge[]>,
    /** Records a skip; returning false leaves that node undecided (as 'defer' does every one). */
    private readonly onSkip: ((id: string) => void | false) | 'defer',
  ) {}

  consider(id: string): void {
    if (this.state.status.has(id) || this.queued.has(id)) return;
    const readiness = this.state.readiness(this.incoming.get(id)!);
    if (readiness === 'wait') return;
    if (readiness === 'skip') {
      if (this.onSkip === 'defer' || this.onSkip(id) === false) return;
      this.after(id);
      return;
    }
    this.queued.add(id);
    this.ready.push(id);
  }

  /** A node was decided: its successors (among the nodes this frontier knows) may now be ready or skipped. */
  after(id: string): void {
    for (const e of this.outgoing.get(id) ?? []) if (this.incoming.has(e.target)) this.consider(e.target);
  }

  /** Every node of `ids` (in this order), then the successors of the ones already decided: a start or a resume. */
  considerAll(ids: Iterable<string>): this {
    const list = [...ids];
    for (const id of list) this.consider(id);
    for (const id of list) if (this.state.status.get(id) === 'succeeded') this.after(id);
    return this;
  }

  /** The next ready node, or undefined. */
  take(): string | undefined {
    const id = this.ready.shift();
    if (id !== undefined) this.queued.delete(id);
    return id;
  }

  /** The ready nodes, in the order they became ready (not taken). */
  peek(): readonly string[] {
    return this.ready;
  }
}

/**
 * The one launch loop: takes ready nodes from the frontier and starts them, at most `concurrency` at a time, until
 * nothing is ready or in flight (or `stopped()`: no new node starts). A chain of pure nodes never waits for I/O, so
 * it gives other requests a turn every ~10 ms (event-loop-turns.ts).
 */
export async function launchAll(o: {
  frontier: Frontier;
  concurrency: number;
  stopped: () => boolean;
  launch: (id: string) => Promise<void>;
}): Promise<void> {
  const inflight = new Map<string, Promise<void>>();
  for (;;) {
    if (turnIsDue()) await nextTurn();
    while (!o.stopped() && inflight.size < o.concurrency) {
      const id = o.frontier.take();
      if (id === undefined) break;
      inflight.set(
        id,
        o.launch(id).finally(() => inflight.delete(id)),
      );
    }
    if (inflight.size === 0) return;
    await Promise.race(inflight.values());
  }
}

/**
 * What the nodes of one execution (or one loop item) came to, and the one order in which it decides the result:
 * a snapshot that could not be stored → cancelled → the first failure → the first pause → succeeded.
 */
export class Outcomes {
  storeError: StoreWriteError | null = null;
  /** Thrown by a node's runtime other than a store failure (a bug): the first one. */
  thrown: unknown = undefined;
  failure: ErrorJson | null = null;
  /** The first node that failed, and its outcome. */
  failed?: { nodeId: string; outcome: NodeOutcome };
  /** The first node that was cancelled on its own (its attempt aborted). */
  cancelled?: { nodeId: string; outcome: NodeOutcome };
  waiting?: NonNullable<ExecuteResult['waiting']>;

  /**
   * Records a node's outcome in `state` and here; true when it succeeded (its successors may be ready).
   * `branching`: the node's type chooses branches (its output's `branch`); `def`: its type (what it writes).
   */
  node(
    state: RunState,
    id: string,
    out: NodeOutcome,
    branching: boolean,
    def?: Pick<NodeDefinition, 'capabilities'>,
  ): boolean {
    if (out.status === 'succeeded') {
      const branch = branching ? chosenBranches(out.output, out.branch) : null;
      state.succeeded(id, out.output, branch, writtenBy(def, out.output));
      return true;
    }
    state.settled(id, out.status);
    if (out.status === 'failed') {
      this.failure ??= nodeFailure(id, out.error);
      this.failed ??= { nodeId: id, outcome: out };
    }
    if (out.status === 'cancelled') this.cancelled ??= { nodeId: id, outcome: out };
    if (out.status === 'waiting')
      this.waiting ??= {
        nodeId: id,
        nodeKey: out.nodeKey ?? id,
        prompt: out.pause,
        ...(out.pass ? { pass: out.pass } : {}),
      };
    return false;
  }

  /** A node's runtime threw: a store failure stops the run; anything else fails it as ENGINE_ERROR. */
  threw(state: RunState, id: string, err: unknown): void {
    state.settled(id, 'failed');
    if (err instanceof StoreWriteError) this.storeError ??= err;
    else {
      this.thrown ??= err;
      this.failure ??= { code: 'ENGINE_ERROR', message: (err as Error).message, details: { nodeId: id } };
    }
  }

  /** A failure not tied to a node's own outcome (a loop limit, the engine's own error). */
  fail(error: ErrorJson): void {
    this.failure ??= error;
  }

  /** Whether no new node may start: a snapshot could not be stored. */
  get stopping(): boolean {
    return this.storeError !== null;
  }

  /** The result, in the one order; `succeeded()` builds the success (it may still find nodes left undecided). */
  result(signal: AbortSignal, succeeded: () => ExecuteResult): ExecuteResult {
    if (this.storeError) return storeFailedResult(this.storeError);
    if (signal.aborted) return cancelledResult();
    if (this.failure) return failedResult(this.failure);
    // Paused for a person: its descendants wait for the answer; every independent branch has finished.
    if (this.waiting) return { status: 'waiting', outputs: null, error: null, waiting: this.waiting };
    return succeeded();
  }
}

/** The arguments of runNode() that every way of running a node passes alike; callers add what is theirs. */
export function nodeRunArgs(
  a: ExecuteArgs,
  node: GraphNode,
  def: NodeDefinition,
  scope: TemplateScope,
  o: { previousAttempts: number; persistWithNext: boolean },
): RunNodeArgs {
  return {
    runId: a.runId,
    node,
    def,
    scope,
    previousAttempts: o.previousAttempts,
    signal: a.signal,
    journal: a.journal,
    services: a.services,
    limits: a.limits,
    persistWithNext: o.persistWithNext,
    pauseBefore: pausesBefore(a, node),
    breakpointAnswered: breakpointAnswered(a, node),
    // A single-node run's edited input, when given, is what its node runs with (single-node-run.ts).
    configOverride: a.debug?.only === node.id ? a.debug.input : undefined,
  };
}
