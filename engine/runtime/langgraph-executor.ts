/**
 * The state-graph engine: compiles our stored graph into a @langchain/langgraph StateGraph whose nodes call the
 * same runtime as the DAG engine (scheduler-core.ts, runNode(): same snapshots, events, retry/timeout, pauses).
 *
 * Every edge is a conditional edge whose router returns the targets the source node chose to trigger; each target
 * checks its own readiness (all forward inputs decided) when triggered, so joins after skipped branches work like
 * on the DAG engine, and back-edges (cycles, loop nodes) re-trigger their target only on the chosen branch. A node
 * that pauses for a person (NodePause: human input, a tool approval, a breakpoint) ends its branch; the run waits
 * once every independent branch has finished. Every continuation — after a pause is answered, a failure, a crash —
 * starts from our node snapshots (the source of truth) with Command({ goto }) to the resume frontier, so completed
 * nodes are never executed again and LangGraph keeps no checkpoint of its own.
 */
import { Annotation, Command, END, START, StateGraph } from '@langchain/langgraph';
import { Runnable, type RunnableConfig } from '@langchain/core/runnables';
import { defaultSettings } from '../config/settings';
import { PaiError } from '../errors';
import type { GraphEdge, GraphNode } from '../graph/schema';
import type { NodeRegistry } from '../node-kit/registry';
import { parallelLoopsOf, releaseLoopBodies } from './loop-body-plan';
import { loopBodyRunner } from './loop-body-runner';
import { StoreWriteError } from './run-journal';
import { planGraph, type Plan } from './langgraph-plan';
import { runNode } from './run-node';
import { nextTurn, turnIsDue } from './event-loop-turns';
import {
  failedResult,
  finishedResult,
  Frontier,
  nodeRunArgs,
  Outcomes,
  RunState,
  stageSkipped,
} from './scheduler-core';
import type { ExecuteArgs, ExecuteResult } from './types';
import { conversationState } from './conversation-state';

// LangGraph copies its whole state on every step, so it holds nothing of ours: node statuses, outputs and chosen
// branches live in the executor (seeded from our node snapshots), and a pause is our NodePause, not interrupt().
// One channel, because a StateGraph needs one: the number of steps taken.
const State = Annotation.Root({
  steps: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});
type S = typeof State.State;
type Update = typeof State.Update;

const gname = (id: string) => `n__${id}`;

/** One execution's state, found by the compiled graph's nodes through their thread id. */
interface RunCtx {
  a: ExecuteArgs;
  state: RunState;
  outcomes: Outcomes;
  /** What each block triggered last: its router's answer. */
  trig: Record<string, string[]>;
  attempts: Map<string, number>;
  /**
   * The node snapshot writes in flight. A node returns to LangGraph as soon as its outcome is known and its
   * snapshot write is sent; every node awaits the writes in flight before it runs, so a snapshot is still durable
   * before any successor starts, while the database round trip overlaps LangGraph's own step.
   */
  inFlight: Promise<void>;
  /** The result announced to the manager (ExecuteArgs.finish) before LangGraph wound down. */
  announced?: ExecuteResult;
}

async function settle(R: RunCtx): Promise<boolean> {
  try {
    await R.inFlight;
    return true;
  } catch (e) {
    R.outcomes.storeError ??= e instanceof StoreWriteError ? e : new StoreWriteError(e);
    return false;
  }
}

/**
 * After a terminal node: if every node is decided and nothing failed or paused, the result is final, so it is
 * announced to the manager at once (its final commit then overlaps LangGraph's wind-down). Only for graphs without
 * cycles (a cycle's untaken exits are decided only at the end).
 */
function announceIfDone(plan: Plan, R: RunCtx) {
  const { outcomes } = R;
  if (!R.a.finish || plan.inCycle.size > 0 || outcomes.failure || outcomes.waiting || outcomes.stopping) return;
  if (R.a.signal.aborted) return;
  for (const id of plan.nodes.keys()) {
    const s = R.state.status.get(id);
    if (s !== 'succeeded' && s !== 'skipped') return;
  }
  R.announced = finishedResult(R.a, R.state, plan.nodes.values(), plan.t);
  R.a.finish(R.announced);
}

/** A graph compiled once and reused by every execution of the same graph: its nodes find their run by thread id. */
interface Compiled {
  plan: Plan;
  app: ReturnType<StateGraph<typeof State.spec, S, Update, string>['compile']>;
}

/** Node body: runs one graph node for the execution `R` and returns the targets to trigger. */
function nodeBody(plan: Plan, registry: NodeRegistry, id: string, node: GraphNode) {
  const def = registry.get(node.type, node.data.version);
  const caps = registry.capabilitiesOf(node);
  const branching = !!def.outputsFor;
  const fwdTargets = () => plan.forwardOut.get(id)!.map((e) => e.target);
  const persistWithNext = plan.persistWithNext.has(id);
  // A loop that runs its items in parallel runs its body itself (loop-body-runner.ts): LangGraph never
  // enters it.
  const parallelBody = caps.iterates ? parallelLoopsOf(plan, registry).get(id) : undefined;
  return async (R: RunCtx): Promise<string[]> => {
    const { a, state, attempts, outcomes } = R;
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
      outcomes.fail(error);
      return [];
    }
    let out;
    try {
      out = await runNode({
        ...nodeRunArgs(a, node, def, state.scope, { previousAttempts: attempts.get(id) ?? 0, persistWithNext }),
        iteration,
        deferDurable: true,
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
        outcomes.storeError ??= e;
        return [];
      }
      throw e;
    }
    attempts.set(id, out.attempt);
    if (!outcomes.node(state, id, out, branching, def)) return [];
    const chosen = state.branch.get(id) ?? null;
    if (caps.terminal) announceIfDone(plan, R);
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
 * member triggers. A member that does not trigger the next one (it failed, paused, was cancelled, or is not ready)
 * ends the block. A member already succeeded (reused on a resume that starts inside the block) is passed over.
 */
async function runBlock(
  R: RunCtx,
  members: string[],
  bodies: Array<(R: RunCtx) => Promise<string[]>>,
): Promise<string[]> {
  let targets: string[] = [];
  for (let i = 0; i < members.length; i++) {
    const next = members[i + 1];
    if (next !== undefined && R.state.status.get(members[i]) === 'succeeded') continue;
    targets = await bodies[i](R);
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
class NodeRunnable extends Runnable<S, Update> {
  lc_namespace = ['paiflow'];
  constructor(
    name: string,
    private readonly fn: (config: RunnableConfig | undefined) => Promise<Update>,
  ) {
    super();
    this.name = name;
  }
  invoke(_input: S, config?: RunnableConfig): Promise<Update> {
    return this.fn(config);
  }
}

/**
 * `loopMaxIterations`: how often a node on a cycle may run when neither it (`data.maxIterations`) nor a loop node on
 * its cycle says (LOOP_MAX_ITERATIONS; unset, its default).
 */
export function createLangGraphExecutor(opts: { loopMaxIterations?: number } = {}) {
  const loopMaxIterations = opts.loopMaxIterations ?? defaultSettings().LOOP_MAX_ITERATIONS;
  // Executions in progress, by LangGraph thread id; compiled graphs by their graph's JSON (most recent last).
  const running = new Map<string, RunCtx>();
  const ctxOf = (config: RunnableConfig | undefined) => running.get(config?.configurable?.thread_id as string)!;
  const cache = new Map<string, Compiled>();
  // The same graph object again (a published version's, kept by its cache) skips the JSON.stringify for its key.
  // Graphs handed to a run are not edited in place: an edited workflow is read back from the store as a new object.
  let keys = new WeakMap<ExecuteArgs['graph'], string>();
  let registryOfCache: NodeRegistry | undefined;

  function compile(a: ExecuteArgs): Compiled {
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
    const plan = planGraph(a, loopMaxIterations);
    // Node names are the graph's own ids (`n__<id>`), known only at run time: hence `string`.
    const g: StateGraph<typeof State.spec, S, Update, string> = new StateGraph(State);
    for (const [id, members] of plan.blocks) {
      const tail = plan.nodes.get(members[members.length - 1])!;
      const bodies = members.map((m) => nodeBody(plan, a.registry, m, plan.nodes.get(m)!));
      g.addNode(
        gname(id),
        new NodeRunnable(gname(id), async (config) => {
          const R = ctxOf(config);
          R.trig[id] = await runBlock(R, members, bodies);
          return {};
        }),
      );
      const possible = [...new Set(plan.t.outgoing.get(tail.id)!.map((e) => gname(e.target)))];
      if (!a.registry.get(tail.type, tail.data.version).outputsFor && plan.backOut.get(tail.id)!.length === 0) {
        // Plain forward edges: a static edge is cheaper than a router. A successor triggered after this node failed
        // or was not ready yet simply finds its inputs undecided and does nothing.
        for (const target of possible) g.addEdge(gname(id), target);
      } else {
        // The path map lists the only possible targets; without it LangGraph wires every node as a possible target.
        g.addConditionalEdges(
          gname(id),
          (_st: S, config: RunnableConfig) => {
            const targets = ctxOf(config).trig[id] ?? [];
            return targets.length ? targets.map(gname) : END;
          },
          [...possible, END],
        );
      }
    }
    g.addEdge(START, gname(plan.startId));
    const compiled = { plan, app: g.compile() };
    cache.set(key, compiled);
    if (cache.size > COMPILED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return compiled;
  }

  return async function executeLangGraph(a: ExecuteArgs): Promise<ExecuteResult> {
    const { plan, app } = compile(a);
    const state = new RunState(a.inputs, a.limits.templateMaxOutputChars, conversationState(a.graph, a.conversation));
    // Seed what earlier executions of this run established, from our snapshots.
    state.seed(a, plan.nodes);
    releaseLoopBodies(plan, a.registry, state);
    const outcomes = new Outcomes();
    const R: RunCtx = {
      a,
      state,
      outcomes,
      trig: {},
      attempts: new Map([...a.previous.values()].map((n) => [n.nodeId, n.attempt])),
      inFlight: Promise.resolve(),
    };

    const threadId = `${a.runId}:${a.journal.lastSeq}`;
    const limitSteps = Math.min(100_000, plan.nodes.size * (Math.max(0, ...plan.maxIter.values()) + 2) + 25);
    const cfg = { configurable: { thread_id: threadId }, recursionLimit: limitSteps, signal: a.signal };

    // A continuation (after a pause, a failure, a crash) starts at the resume frontier: every node not yet
    // succeeded whose forward inputs are decided, one of them live. A node off every cycle whose inputs are all dead
    // is skipped now, as on the DAG engine, so what waits for it is decided (a branch connected to an End after the
    // run stopped without one); a node on a cycle is left to decide when triggered (skipped on one pass, it may run on
    // the next). Nothing left to run (every node decided): LangGraph is not invoked.
    let input: Command<unknown, Update, string> | Update = {};
    let nothingToRun = false;
    if (state.status.size > 0) {
      const skip = (id: string) =>
        plan.inCycle.has(id) ? false : stageSkipped(a, state, id, plan.nodes.get(id)!.type, R.attempts.get(id) ?? 0);
      const frontier = new Frontier(state, plan.forwardIn, plan.forwardOut, skip).considerAll(plan.nodes.keys());
      const goto = [...new Set(frontier.peek().map((id) => plan.blockOf.get(id)!))].map(gname);
      nothingToRun = goto.length === 0;
      input = new Command({ goto });
    }

    running.set(threadId, R);
    try {
      if (!nothingToRun) await app.invoke(input, cfg);
      await settle(R);
    } catch (e) {
      await settle(R);
      if (R.announced) return R.announced;
      if (!outcomes.stopping && !a.signal.aborted) {
        if ((e as Error)?.name === 'GraphRecursionError')
          outcomes.fail({
            code: 'RECURSION_LIMIT',
            message: `the run exceeded ${limitSteps} steps without finishing; check for an endless loop`,
          });
        else if (e instanceof PaiError) outcomes.fail(e.toJSON());
        else outcomes.fail({ code: 'ENGINE_ERROR', message: (e as Error).message });
      }
      return outcomes.result(a.signal, () => failedResult(outcomes.failure!));
    } finally {
      running.delete(threadId);
    }
    if (R.announced) return R.announced;
    return outcomes.result(a.signal, () => {
      // Untaken exits of loops / cyclic branches were never triggered: record them as skipped.
      for (const [id, node] of plan.nodes)
        if (!state.status.has(id)) stageSkipped(a, state, id, node.type, R.attempts.get(id) ?? 0);
      return finishedResult(a, state, plan.nodes.values(), plan.t);
    });
  };
}
