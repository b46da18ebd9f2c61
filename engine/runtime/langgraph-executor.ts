/**
 * The state-graph engine: compiles our stored graph into a @langchain/langgraph StateGraph whose nodes call the
 * same runNode() as the DAG engine (same snapshots, events, retry/timeout).
 *
 * Every edge is a conditional edge whose router returns the targets the source node chose to trigger; each target
 * checks its own readiness (all forward inputs decided) when triggered, so joins after skipped branches work like
 * on the DAG engine, and back-edges (cycles, loop nodes) re-trigger their target only on the chosen branch.
 * Human-input nodes pause with interrupt() and continue with Command({ resume }) from a checkpoint in our own
 * database. Resumes after a failure or a crash start from our node snapshots (the source of truth) with
 * Command({ goto, update }), so completed nodes are never executed again.
 */
import { Annotation, Command, END, START, StateGraph, interrupt, type BaseCheckpointSaver } from '@langchain/langgraph';
import { Runnable, type RunnableConfig } from '@langchain/core/runnables';
import { PaiError, type ErrorJson } from '../errors';
import type { GraphEdge, GraphNode } from '../graph/schema';
import type { NodeRegistry } from '../nodes/registry';
import { parallelLoopsOf, releaseLoopBodies } from '../loop/body-plan';
import { loopBodyRunner } from '../loop/body-runner';
import { renderText } from '../template/resolve';
import { breakpointAnswered, pausesBefore, type ExecuteArgs, type ExecuteResult } from './dag-executor';
import { StoreWriteError } from './run-journal';
import { planGraph, type Plan } from './langgraph-plan';
import { runNode } from './run-node';
import { nextTurn, turnIsDue } from './event-loop-turns';
import {
  cancelledResult,
  chosenBranches,
  failedResult,
  nodeFailure,
  RunState,
  stageSkipped,
  storeFailedResult,
} from './scheduler-core';

// The LangGraph state holds only what must survive a pause: the human answers. Node statuses, outputs and chosen
// branches live in the executor (seeded from our node snapshots, the source of truth), because LangGraph copies
// its whole state on every step: keeping per-node maps there made long chains O(n²).
const State = Annotation.Root({
  answers: Annotation<Record<string, unknown>>({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
});
type S = typeof State.State;

/** What the executor tracks per run besides the shared decisions (scheduler-core.ts RunState). */
interface Local {
  /** What each block triggered last: its router's answer. */
  trig: Record<string, string[]>;
  failure: ErrorJson | null;
  /** A node that paused itself (NodePause): the run waits once every independent branch has finished. */
  paused?: ExecuteResult['waiting'];
}

const gname = (id: string) => `n__${id}`;

/** One execution's state, found by the compiled graph's nodes through their thread id. */
interface RunCtx {
  a: ExecuteArgs;
  L: Local;
  state: RunState;
  attempts: Map<string, number>;
  /**
   * The node snapshot writes in flight. A node returns to LangGraph as soon as its outcome is known and its
   * snapshot write is sent; every node awaits the writes in flight before it runs, so a snapshot is still durable
   * before any successor starts, while the database round trip overlaps LangGraph's own step.
   */
  inFlight: Promise<void>;
  storeError: StoreWriteError | null;
  /** The result announced to the manager (ExecuteArgs.finish) before LangGraph wound down. */
  announced?: ExecuteResult;
}

async function settle(R: RunCtx): Promise<boolean> {
  try {
    await R.inFlight;
    return true;
  } catch (e) {
    R.storeError ??= e instanceof StoreWriteError ? e : new StoreWriteError(e);
    return false;
  }
}

/**
 * After an End node: if every node is decided and nothing failed, the result is final, so it is announced to the
 * manager at once (its final commit then overlaps LangGraph's wind-down). Only for graphs without cycles (a cycle's
 * untaken exits are decided only at the end) that cannot pause.
 */
function announceIfDone(plan: Plan, R: RunCtx) {
  if (!R.a.finish || plan.inCycle.size > 0 || plan.canPause || R.L.failure || R.storeError || R.a.signal.aborted)
    return;
  for (const id of plan.nodes.keys()) {
    const s = R.state.status.get(id);
    if (s !== 'succeeded' && s !== 'skipped') return;
  }
  R.announced = { status: 'succeeded', outputs: R.state.outputs(plan.nodes.values()), error: null };
  R.a.finish(R.announced);
}

type App = {
  invoke(input: unknown, cfg: Record<string, unknown>): Promise<S & { __interrupt__?: Array<{ value: unknown }> }>;
  getState(
    cfg: Record<string, unknown>,
  ): Promise<{ next: string[]; tasks: Array<{ interrupts: Array<{ value: unknown }> }> }>;
};

/** A graph compiled once and reused by every execution of the same graph: its nodes find their run by thread id. */
interface Compiled {
  plan: Plan;
  app: App;
  checkpointed: boolean;
}

/** Node body: runs one graph node for the execution `R` and returns the targets to trigger. */
function nodeBody(plan: Plan, registry: NodeRegistry, id: string, node: GraphNode) {
  const def = registry.get(node.type, node.data.version);
  const branching = !!def.outputsFor;
  const fwdTargets = () => plan.forwardOut.get(id)!.map((e) => e.target);
  const persistWithNext = plan.persistWithNext.has(id);
  // A loop that runs its items in parallel runs its body itself (engine/loop/): LangGraph never enters it.
  const parallelBody = node.type === 'loop' ? parallelLoopsOf(plan, registry).get(id) : undefined;
  return async (R: RunCtx, st: S): Promise<string[]> => {
    const { a, L, state, attempts } = R;
    if (!(await settle(R)) || a.signal.aborted) return [];
    // A chain of pure nodes never waits for I/O: give other requests a turn every ~10 ms (event-loop-turns.ts).
    if (turnIsDue()) await nextTurn();
    const readiness = state.readiness(plan.forwardIn.get(id)!);
    if (readiness === 'wait') return []; // not ready: a later trigger runs it
    if (readiness === 'skip') {
      if (state.status.get(id) === 'skipped') return [];
      stageSkipped(a, state, id, node.type, attempts.get(id) ?? 0);
      return fwdTargets();
    }
    const iteration = state.passes.get(id) ?? 0;
    const limit = plan.maxIter.get(id);
    if (limit !== undefined && iteration >= limit) {
      const error = {
        code: 'LOOP_LIMIT',
        message:
          `node "${id}" would run a ${iteration + 1}th time; the limit is ` +
          `${limit} (set data.maxIterations or the loop's maxIterations)`,
        details: { nodeId: id },
      };
      a.journal.emit('node.failed', { type: node.type, error, attempt: attempts.get(id) ?? 0 }, { nodeId: id });
      L.failure ??= error;
      return [];
    }
    let resume: unknown;
    if (node.type === 'human_input') {
      if (Object.prototype.hasOwnProperty.call(st.answers ?? {}, id)) resume = st.answers[id];
      else {
        const prompt = renderText(String((node.data.config as { prompt?: string })?.prompt ?? ''), state.scope);
        resume = interrupt({ nodeId: id, prompt }); // throws GraphInterrupt until answered
      }
    }
    let out;
    try {
      out = await runNode({
        runId: a.runId,
        node,
        def,
        scope: state.scope,
        previousAttempts: attempts.get(id) ?? 0,
        signal: a.signal,
        journal: a.journal,
        services: a.services,
        iteration,
        resume,
        deferDurable: true,
        persistWithNext,
        pauseBefore: pausesBefore(a, node),
        breakpointAnswered: breakpointAnswered(a, node),
        loopBody: parallelBody && loopBodyRunner({ a, plan, body: parallelBody, state, attempts }),
      });
      if (out.durable) {
        R.inFlight = Promise.all([R.inFlight, out.durable]).then(() => undefined);
        R.inFlight.catch(() => {}); // awaited by the next settle()
        // LangGraph's step runs as one long microtask chain, and node-postgres sends the write from a
        // process.nextTick callback, which runs only once the microtasks are drained: wait for one tick so the
        // write is on the wire before LangGraph's step starts (a whole event-loop turn here cost 5–10 %).
        await new Promise<void>((r) => process.nextTick(r));
      }
    } catch (e) {
      if (e instanceof StoreWriteError) {
        R.storeError = e;
        return [];
      }
      throw e;
    }
    attempts.set(id, out.attempt);
    if (out.status !== 'succeeded') {
      state.settled(id, out.status);
      if (out.status === 'failed') L.failure ??= nodeFailure(id, out.error);
      if (out.status === 'waiting')
        L.paused ??= { nodeId: id, nodeKey: out.nodeKey, prompt: out.pause, threadId: '', paused: true };
      return [];
    }
    const chosen = branching ? chosenBranches(out.output, out.branch) : null;
    state.succeeded(id, out.output, chosen);
    if (node.type === 'end') announceIfDone(plan, R);
    state.passes.set(id, iteration + 1);
    const pick = (edges: GraphEdge[]) =>
      edges.filter((e) => !chosen || chosen.includes(e.sourceHandle ?? '')).map((e) => e.target);
    // Acyclic branching: trigger every forward target so unchosen ones record `skipped` (as on the DAG engine).
    // Inside a cycle only the chosen branch is triggered; untaken exits are swept to `skipped` at the end.
    return [
      ...new Set([
        ...(branching && plan.inCycle.has(id) ? pick(plan.forwardOut.get(id)!) : fwdTargets()),
        ...pick(plan.backOut.get(id)!),
      ]),
    ];
  };
}

/**
 * Runs a straight-line block's members in order (langgraph-plan.ts straightLineBlocks) and returns what its last
 * member triggers. A member that does not trigger the next one (it failed, was cancelled, or is not ready) ends the
 * block. A member already succeeded (reused on a resume that starts inside the block) is passed over, not re-run.
 */
async function runBlock(
  R: RunCtx,
  st: S,
  members: string[],
  bodies: Array<(R: RunCtx, st: S) => Promise<string[]>>,
): Promise<string[]> {
  let targets: string[] = [];
  for (let i = 0; i < members.length; i++) {
    const next = members[i + 1];
    if (next !== undefined && R.state.status.get(members[i]) === 'succeeded') continue;
    targets = await bodies[i](R, st);
    if (next !== undefined && !targets.includes(next)) return [];
  }
  return targets;
}

const COMPILED_CACHE_SIZE = 64;

/**
 * A graph node as a plain Runnable. A function given to addNode() is wrapped by LangGraph in a RunnableCallable,
 * which sets up LangChain's async-local context for every call and builds a langsmith RunTree for it (a uuid v7,
 * environment lookups, timestamps) even with tracing off: measured, ~10 % of the main thread on a chain. Our nodes
 * trace themselves through the journal and read their run from `config`, so they need none of it.
 */
class NodeRunnable extends Runnable<S, Partial<S>> {
  lc_namespace = ['paiflow'];
  constructor(
    name: string,
    private readonly fn: (s: S, config: unknown) => Promise<Partial<S>>,
  ) {
    super();
    this.name = name;
  }
  invoke(input: S, config?: RunnableConfig): Promise<Partial<S>> {
    return this.fn(input, config);
  }
}

export function createLangGraphExecutor(opts: { checkpointer?: () => Promise<BaseCheckpointSaver> } = {}) {
  // Executions in progress, by LangGraph thread id; compiled graphs by their graph's JSON (most recent last).
  const running = new Map<string, RunCtx>();
  const ctxOf = (config: unknown) =>
    running.get((config as { configurable: { thread_id: string } }).configurable.thread_id)!;
  const cache = new Map<string, Compiled>();
  // The same graph object again (a published version's, kept by its cache) skips the JSON.stringify for its key.
  // Graphs handed to a run are not edited in place: an edited workflow is read back from the store as a new object.
  let keys = new WeakMap<ExecuteArgs['graph'], string>();
  let registryOfCache: NodeRegistry | undefined;

  async function compile(a: ExecuteArgs): Promise<Compiled> {
    if (registryOfCache !== a.registry) {
      cache.clear();
      keys = new WeakMap();
      registryOfCache = a.registry;
    }
    let key = keys.get(a.graph);
    if (key === undefined) keys.set(a.graph, (key = JSON.stringify(a.graph)));
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const plan = planGraph(a);
    const g = new StateGraph(State) as unknown as {
      addNode(name: string, fn: ((s: S, config: unknown) => Promise<Partial<S>>) | Runnable<S, Partial<S>>): void;
      addEdge(a: string, b: string): void;
      addConditionalEdges(src: string, fn: (s: S, config: unknown) => string | string[], pathMap?: string[]): void;
      compile(o: { checkpointer?: BaseCheckpointSaver }): App;
    };
    for (const [id, members] of plan.blocks) {
      const node = plan.nodes.get(id)!;
      const tail = plan.nodes.get(members[members.length - 1])!;
      const bodies = members.map((m) => nodeBody(plan, a.registry, m, plan.nodes.get(m)!));
      const fn = async (st: S, config: unknown) => {
        const R = ctxOf(config);
        R.L.trig[id] = await runBlock(R, st, members, bodies);
        return {};
      };
      // A human-input node calls interrupt(), which finds its run through LangChain's async-local config: it keeps
      // LangGraph's own wrapper (and is always a block of its own). Every other block is a NodeRunnable (see there).
      g.addNode(gname(id), node.type === 'human_input' ? fn : new NodeRunnable(gname(id), fn));
      const possible = [...new Set(plan.t.outgoing.get(tail.id)!.map((e) => gname(e.target)))];
      if (!a.registry.get(tail.type, tail.data.version).outputsFor && plan.backOut.get(tail.id)!.length === 0) {
        // Plain forward edges: a static edge is cheaper than a router. A successor triggered after this node failed
        // or was not ready yet simply finds its inputs undecided and does nothing.
        for (const target of possible) g.addEdge(gname(id), target);
      } else {
        // The path map lists the only possible targets; without it LangGraph wires every node as a possible target.
        g.addConditionalEdges(
          gname(id),
          (_st, config) => {
            const targets = ctxOf(config).L.trig[id] ?? [];
            return targets.length ? targets.map(gname) : END;
          },
          [...possible, END],
        );
      }
    }
    g.addEdge(START, gname(plan.startId));
    // Only runs that can pause need LangGraph checkpoints: resumes after failures and crashes start from our node
    // snapshots, and per-task checkpoint writes would cost a database transaction per node.
    const checkpointer = opts.checkpointer && plan.canPause ? await opts.checkpointer() : undefined;
    const compiled = { plan, app: g.compile({ checkpointer }), checkpointed: !!checkpointer };
    cache.set(key, compiled);
    if (cache.size > COMPILED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return compiled;
  }

  return async function executeLangGraph(a: ExecuteArgs): Promise<ExecuteResult> {
    const { plan, app, checkpointed } = await compile(a);
    const state = new RunState(a.inputs);
    // Seed what earlier executions of this run established, from our snapshots.
    state.seed(a, plan.nodes);
    releaseLoopBodies(plan, a.registry, state);
    const R: RunCtx = {
      a,
      L: { trig: {}, failure: null },
      state,
      attempts: new Map([...a.previous.values()].map((n) => [n.nodeId, n.attempt])),
      inFlight: Promise.resolve(),
      storeError: null,
    };
    const { L } = R;

    const threadId = a.answer?.threadId ?? `${a.runId}:${a.journal.lastSeq}`;
    const limitSteps = Math.min(100_000, plan.nodes.size * (Math.max(0, ...plan.maxIter.values()) + 2) + 25);
    const cfg = {
      configurable: { thread_id: threadId },
      recursionLimit: limitSteps,
      signal: a.signal,
      durability: 'exit',
    };

    let input: unknown;
    if (a.answer) {
      const snap = checkpointed ? await app.getState({ configurable: { thread_id: threadId } }) : undefined;
      const waitingHere = !!snap?.tasks.some((t) =>
        t.interrupts?.some((i) => (i.value as { nodeId?: string })?.nodeId === a.answer!.nodeId),
      );
      input = waitingHere
        ? new Command({ resume: a.answer.value })
        : new Command({ goto: [gname(a.answer.nodeId)], update: { answers: { [a.answer.nodeId]: a.answer.value } } });
    } else if (state.status.size > 0) {
      // Resume: (re)start every node whose forward inputs are decided, with one live, and which has not succeeded.
      const goto = [...plan.nodes.keys()].filter(
        (id) =>
          state.status.get(id) !== 'succeeded' &&
          (id === plan.startId ||
            (plan.forwardIn.get(id)!.length > 0 && state.readiness(plan.forwardIn.get(id)!) === 'run')),
      );
      input = new Command({ goto: [...new Set(goto.map((id) => plan.blockOf.get(id)!))].map(gname) });
    } else {
      input = {};
    }

    if (checkpointed && a.journal.runStored) {
      // LangGraph writes its checkpoint through its own connection, not the journal: only for a stored run.
      try {
        await a.journal.runStored;
      } catch (e) {
        return storeFailedResult(e);
      }
    }
    let final: S & { __interrupt__?: Array<{ value: unknown }> };
    running.set(threadId, R);
    try {
      final = (await app.invoke(input, cfg)) ?? ({} as typeof final);
      await settle(R);
    } catch (e) {
      await settle(R);
      if (R.announced) return R.announced;
      if (R.storeError) return storeFailedResult(R.storeError);
      if (a.signal.aborted) return cancelledResult();
      const name = (e as Error)?.name;
      if (name === 'GraphRecursionError') {
        return failedResult({
          code: 'RECURSION_LIMIT',
          message: `the run exceeded ${limitSteps} steps without finishing; check for an endless loop`,
        });
      }
      if (e instanceof PaiError) return failedResult(e.toJSON());
      return failedResult({ code: 'ENGINE_ERROR', message: (e as Error).message });
    } finally {
      running.delete(threadId);
    }
    if (R.announced) return R.announced;
    if (R.storeError) return storeFailedResult(R.storeError);
    if (a.signal.aborted) return cancelledResult();
    if (final.__interrupt__?.length) {
      const v = final.__interrupt__[0].value as { nodeId: string; prompt: unknown };
      return {
        status: 'waiting',
        outputs: null,
        error: null,
        waiting: { nodeId: v.nodeId, prompt: v.prompt, threadId },
      };
    }
    if (L.failure) return failedResult(L.failure);
    if (L.paused) return { status: 'waiting', outputs: null, error: null, waiting: L.paused };
    // Untaken exits of loops / cyclic branches were never triggered: record them as skipped.
    for (const [id, node] of plan.nodes)
      if (!state.status.has(id)) stageSkipped(a, state, id, node.type, R.attempts.get(id) ?? 0);
    return { status: 'succeeded', outputs: state.outputs(plan.nodes.values()), error: null };
  };
}
