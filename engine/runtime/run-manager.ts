/**
 * Owns run lifecycles in this process: start, resume, cancel, heartbeats and crash recovery.
 * Status changes use compare-and-set on the stored status, so two resumes (or a resume racing a running run)
 * cannot both win: the loser gets RUN_ACTIVE.
 */
import { randomUUID } from 'node:crypto';
import { PaiError, WorkflowInvalidError } from '../errors';
import type { EventBus } from '../events/types';
import type { EngineChoice, EngineKind, Graph } from '../graph/schema';
import { descendantsOf, buildTopology } from '../graph/topology';
import { validateGraph } from '../graph/validate';
import type { NodeRegistry } from '../node-kit/registry';
import { checkRunInputs, type StartConfig } from '../nodes/start';
import {
  newRunRecord,
  type NewRun,
  type NodeRunRecord,
  type RunDebug,
  type RunRecord,
  type RunStatus,
  type RunStore,
  type WorkflowRecord,
  type WorkflowStore,
  type RunTriggerKind,
} from '../store/types';
import { executeDag } from './dag-executor';
import type { ExecuteArgs, ExecuteResult } from './types';
import { pauseAnswer, pauseWaitedOn, type AnswerAuthor } from './answers';
import { markInterrupted } from './recover-runs';
import { checkBreakpoints, type BreakpointAnswer } from './breakpoints';
import { executeRun, type LaunchInfo } from './run-execution';
import type { InputRef } from './input-refs';
import { pinnedSeeds, recordSeeded, seededRecord, type SeededNode } from './pinned-data';
import { planFork, type RunCheckpoint } from './run-checkpoints';
import { defaultRunLimits, type RunLimits } from './run-limits';
import type { NodeServices } from './run-node';

export type Executor = (args: ExecuteArgs) => Promise<ExecuteResult>;

export interface RunManagerOptions {
  store: RunStore;
  workflows: WorkflowStore;
  bus: EventBus;
  registry: NodeRegistry;
  services: NodeServices;
  ownerId?: string;
  heartbeatMs?: number;
  /** A run whose heartbeat is older than this is considered orphaned (its process died). */
  staleMs?: number;
  executors?: Partial<Record<EngineKind, Executor>>;
  /**
   * The limits runs execute under (the app's from its settings: DAG_CONCURRENCY, NODE_TIMEOUT_MS,
   * NODE_OUTPUT_MAX_BYTES, TEMPLATE_MAX_OUTPUT_CHARS); any left out is the variable's default.
   */
  limits?: Partial<RunLimits>;
  /**
   * Queue mode: when set, start() only records the run as `queued` and hands its id to this function (e.g. a
   * BullMQ queue); a worker process then calls executeQueued(runId). Unset: runs execute in this process.
   */
  dispatch?: (run: RunRecord) => Promise<void>;
}

interface Active {
  controller: AbortController;
  /** The run as stored when this execution ended or paused; null when its final write did not reach the store. */
  done: Promise<RunRecord | null>;
}

export type { AnswerAuthor } from './answers';

export function newRunId(): string {
  return `run_${randomUUID().replace(/-/g, '')}`;
}

const RESUMABLE: RunStatus[] = ['failed', 'cancelled', 'interrupted'];

export class RunManager {
  readonly ownerId: string;
  private active = new Map<string, Active>();
  private heartbeatTimer?: NodeJS.Timeout;
  private readonly executors: Partial<Record<EngineKind, Executor>>;
  private readonly staleMs: number;
  private readonly limits: RunLimits;
  private readonly validGraphs = new WeakMap<Graph, Map<EngineChoice, EngineKind>>();

  /** The node types this manager runs (what their capabilities say about a graph). */
  get registry(): NodeRegistry {
    return this.o.registry;
  }

  constructor(private readonly o: RunManagerOptions) {
    this.ownerId = o.ownerId ?? `${process.pid}-${randomUUID().slice(0, 8)}`;
    this.executors = { dag: executeDag, ...o.executors };
    this.limits = { ...defaultRunLimits(), ...o.limits };
    const hb = o.heartbeatMs ?? 5_000;
    this.staleMs = o.staleMs ?? hb * 4;
    this.heartbeatTimer = setInterval(() => {
      // A cancel received by another process only flips the stored status: stop our execution when we see it.
      this.o.store.heartbeat(this.ownerId, [...this.active.keys()]).then(
        (cancelled) => {
          for (const id of cancelled) this.active.get(id)?.controller.abort();
        },
        () => {},
      );
    }, hb);
    this.heartbeatTimer.unref?.();
  }

  isActive(runId: string): boolean {
    return this.active.has(runId);
  }

  /** Resolves when this process's execution of the run ends (immediately if none). */
  async waitFor(runId: string): Promise<void> {
    await this.active.get(runId)?.done;
  }

  /**
   * For a run executing here: resolves when it ends or pauses, with the run as its final write stored it (status,
   * outputs, error), so a caller need not read it back; null when that write failed. Undefined if not executing here.
   */
  outcome(runId: string): Promise<RunRecord | null> | undefined {
    return this.active.get(runId)?.done;
  }

  private executorFor(engine: EngineKind): Executor {
    const ex = this.executors[engine];
    if (!ex) throw new PaiError('ENGINE_UNAVAILABLE', `the ${engine} engine is not available in this build`);
    return ex;
  }

  private validated(graph: Graph, engine: EngineChoice): EngineKind {
    // A graph object validated before (a published version's, kept by its cache) is not validated again: graphs are
    // not edited in place (an edited workflow is read back from the store as a new object).
    const known = this.validGraphs.get(graph)?.get(engine);
    if (known) return known;
    const v = validateGraph(graph, this.o.registry, engine);
    if (!v.ok) {
      const first = v.errors[0];
      throw new WorkflowInvalidError(first.code, `the workflow is invalid: ${first.message}`, {
        path: first.path,
        details: { ...first.details, errors: v.errors },
      });
    }
    this.executorFor(v.engine);
    const byEngine = this.validGraphs.get(graph) ?? new Map<EngineChoice, EngineKind>();
    this.validGraphs.set(graph, byEngine.set(engine, v.engine));
    return v.engine;
  }

  async start(args: {
    /** The workflow; its draft graph is used when `graph` (e.g. a published version's) is not given. */
    workflow: Pick<WorkflowRecord, 'id' | 'engine'> & { graph?: Graph };
    versionId?: string | null;
    graph?: Graph;
    inputs: Record<string, unknown>;
    /**
     * Inputs the run keeps by reference (input-refs.ts): `inputs` has their values (checked against the Start node
     * like any other), the run record these references, resolved again whenever the run executes.
     */
    refs?: Record<string, InputRef>;
    engine?: EngineChoice;
    idempotencyKey?: string | null;
    apiKeyId?: string | null;
    /** The trigger that starts the run (a webhook, a schedule, an MCP client); recorded on the run. */
    trigger?: { kind: RunTriggerKind; id: string | null };
    /** Breakpoints of an editor test run (node ids); the run pauses before each of them (breakpoints.ts). */
    breakpoints?: string[];
  }): Promise<{ run: RunRecord; created: boolean }> {
    const graph = args.graph ?? args.workflow.graph;
    if (!graph) throw new PaiError('NO_GRAPH', 'no graph to run');
    const engine = this.validated(graph, args.engine ?? args.workflow.engine ?? 'auto');
    const start = graph.nodes.find((n) => this.o.registry.capabilitiesOf(n).entry)!;
    const { value: inputs, problems } = checkRunInputs(
      this.o.registry.get(start.type, start.data.version).configSchema.parse(start.data.config ?? {}) as StartConfig,
      args.inputs ?? {},
    );
    if (problems.length)
      throw new PaiError(problems[0].code, problems[0].message, {
        path: problems[0].path,
        details: { errors: problems },
      });
    const breakpoints = checkBreakpoints(graph, args.breakpoints ?? []);
    // Executed here: the run is created already claimed by this process (one round trip, no queued window).
    const local = !this.o.dispatch;
    const now = new Date().toISOString();
    const rec: NewRun = {
      id: newRunId(),
      workflowId: args.workflow.id,
      versionId: args.versionId ?? null,
      engine,
      status: local ? 'running' : 'queued',
      inputs: args.refs ? { ...inputs, ...args.refs } : inputs,
      graph,
      idempotencyKey: args.idempotencyKey ?? null,
      apiKeyId: args.apiKeyId ?? null,
      ...(args.trigger ? { triggerKind: args.trigger.kind, triggerId: args.trigger.id } : {}),
      ...(breakpoints.length ? { debug: { breakpoints, step: false } } : {}),
      ...(local ? { ownerId: this.ownerId, startedAt: now } : {}),
    };
    if (local && !rec.idempotencyKey) return this.startWhileCreating(rec, now);
    const { run, created } = await this.o.store.createRun(rec);
    if (!created) return { run, created };
    if (this.o.dispatch) {
      await this.o.dispatch(run);
      return { run, created };
    }
    this.launch(run, graph, new Map(), new Set(), { resumed: false, fresh: true });
    return { run, created };
  }

  /**
   * Starts a new run's execution while its INSERT is in flight: the graph is prepared and pure nodes (Start,
   * templates, conditions) run meanwhile, but nothing is committed and no node with effects runs before the run
   * is stored (RunJournal.runStored). If the INSERT fails, the execution stops having written nothing and the
   * caller gets the error, as if it had never started. (With an idempotency key the INSERT may find an existing
   * run instead, so that path waits for it first.)
   */
  private async startWhileCreating(rec: NewRun, now: string): Promise<{ run: RunRecord; created: boolean }> {
    const creating = this.o.store.createRun(rec);
    creating.catch(() => {}); // handled below, after the yield
    // Without a database thread (one core, PG_WRITE_THREAD=0) node-postgres sends the INSERT from a process.nextTick
    // callback, which runs only once the microtasks are drained, and LangGraph's setup is one long microtask chain:
    // let the INSERT go out first (measured: 5 % on 12 nodes). A thread gets it at once, by postMessage.
    await new Promise<void>((r) => process.nextTick(r));
    const run = newRunRecord(rec, now);
    this.launch(run, rec.graph, new Map(), new Set(), { resumed: false, fresh: true, created: creating });
    try {
      const stored = await creating;
      Object.assign(run, stored.run); // the execution's outcome reports the run as stored
      return stored;
    } catch (e) {
      const a = this.active.get(rec.id);
      a?.controller.abort();
      await a?.done;
      throw e;
    }
  }

  /**
   * Worker side of queue mode: claims a queued run and executes it here, resolving when it ends. A run whose owner
   * died (heartbeat older than staleMs — e.g. a killed worker whose job was re-delivered) is marked interrupted and
   * resumed from its snapshots, so completed nodes are not executed again. Returns what happened.
   */
  async executeQueued(runId: string): Promise<'executed' | 'resumed' | 'skipped'> {
    const run = await this.o.store.getRun(runId);
    if (!run) return 'skipped';
    if (run.status === 'queued') {
      const claimed = await this.o.store.updateRun(
        run.id,
        {
          status: 'running',
          ownerId: this.ownerId,
          heartbeatAt: new Date().toISOString(),
          startedAt: new Date().toISOString(),
        },
        ['queued'],
      );
      if (!claimed) return 'skipped';
      this.launch({ ...run, status: 'running' }, run.graph, new Map(), new Set(), { resumed: false });
      await this.waitFor(run.id);
      return 'executed';
    }
    if (run.status === 'running' && run.ownerId !== this.ownerId) {
      const stale = !run.heartbeatAt || Date.parse(run.heartbeatAt) < Date.now() - this.staleMs;
      if (!stale) return 'skipped';
      // Whoever marks the orphan interrupted — this call, or a reaper in another process at the same moment — the
      // job's holder resumes it below. (Returning when the reaper won left the run interrupted with its job done:
      // the handed-over runs that "did not finish within 60 s" about once in 13 under load.)
      await this.recover(new Date(Date.now() - this.staleMs), run.id);
    }
    const now = await this.o.store.getRun(runId);
    if (now?.status !== 'interrupted') return 'skipped';
    await this.resume(runId);
    await this.waitFor(runId);
    return 'resumed';
  }

  /**
   * Re-runs the failed/unfinished nodes (or `fromNodeId` and its descendants) and reuses every other succeeded
   * node's stored output. A draft run re-reads the draft's graph; a published version's run uses that version.
   */
  async resume(
    runId: string,
    opts: { fromNodeId?: string; inputs?: Record<string, unknown> } = {},
  ): Promise<RunRecord> {
    const run = await this.o.store.getRun(runId);
    if (!run) throw new PaiError('RUN_NOT_FOUND', `run ${runId} not found`);
    // Its draft's other nodes would run: a single-node run is run again instead (POST …/nodes/:nodeId/run).
    if (run.debug?.only) throw new PaiError('SINGLE_NODE_RUN', 'a single-node run is not resumed; run the node again');
    // A run this process owns but no longer executes (its final write failed) is an orphan: resumable here.
    const orphanHere =
      (run.status === 'running' || run.status === 'queued') && run.ownerId === this.ownerId && !this.active.has(runId);
    if (
      this.active.has(runId) ||
      !(orphanHere || RESUMABLE.concat(opts.fromNodeId ? ['succeeded'] : []).includes(run.status))
    ) {
      throw new PaiError(
        'RUN_ACTIVE',
        run.status === 'succeeded'
          ? 'the run succeeded; give fromNodeId to re-run part of it'
          : `the run is ${run.status} and cannot be resumed now`,
      );
    }
    let graph: Graph;
    if (run.versionId) {
      const v = await this.o.workflows.getVersion(run.versionId);
      if (!v) throw new PaiError('VERSION_NOT_FOUND', `workflow version ${run.versionId} no longer exists`);
      graph = v.graph;
    } else {
      const wf = await this.o.workflows.getWorkflow(run.workflowId);
      if (!wf) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${run.workflowId} no longer exists`);
      graph = wf.graph;
    }
    const engine = this.validated(graph, run.engine);
    if (opts.fromNodeId && !graph.nodes.some((n) => n.id === opts.fromNodeId)) {
      throw new PaiError('NODE_NOT_FOUND', `node "${opts.fromNodeId}" is not in the workflow`, {
        path: 'fromNodeId',
      });
    }
    const previous = new Map(
      (await this.o.store.getNodeRuns(runId)).map((n) => [n.nodeId, n] as [string, NodeRunRecord]),
    );
    const rerun = opts.fromNodeId ? descendantsOf(buildTopology(graph), opts.fromNodeId) : new Set<string>();
    const reuse = new Set(
      [...previous.values()].filter((n) => n.status === 'succeeded' && !rerun.has(n.nodeId)).map((n) => n.nodeId),
    );
    const inputs = opts.inputs ? { ...run.inputs, ...opts.inputs } : run.inputs;
    const now = new Date().toISOString();
    const ok = await this.o.store.updateRun(
      runId,
      {
        status: 'running',
        ownerId: this.ownerId,
        heartbeatAt: now,
        error: null,
        outputs: null,
        finishedAt: null,
        graph,
        inputs,
        engine,
      },
      [run.status],
    );
    if (!ok) throw new PaiError('RUN_ACTIVE', 'the run changed state meanwhile; try again');
    const resumed: RunRecord = { ...run, status: 'running', graph, inputs, engine, error: null, outputs: null };
    this.launch(resumed, graph, previous, reuse, { resumed: true, fromNodeId: opts.fromNodeId });
    return resumed;
  }

  /**
   * A new run of `runId`'s graph (the same workflow version, engine and inputs) that starts from one of its
   * checkpoints (run-checkpoints.ts): the steps up to it are seeded from their snapshots, `state` replacing the
   * outputs it names, and only what came after runs. The run forked from is not changed. Executes in this process.
   */
  async fork(
    runId: string,
    opts: { checkpointId: string; state?: Record<string, unknown> },
  ): Promise<{ run: RunRecord; checkpoint: RunCheckpoint; seeded: string[] }> {
    const source = await this.o.store.getRun(runId);
    if (!source) throw new PaiError('RUN_NOT_FOUND', `run ${runId} not found`);
    if (source.debug?.only) throw new PaiError('SINGLE_NODE_RUN', 'a single-node run has no checkpoints to fork from');
    const plan = planFork(source.graph, await this.o.store.getNodeRuns(runId), { sourceRunId: runId, ...opts });
    const { run } = await this.o.store.createRun({
      id: newRunId(),
      workflowId: source.workflowId,
      versionId: source.versionId,
      engine: source.engine,
      status: 'running',
      inputs: source.inputs,
      graph: source.graph,
      ownerId: this.ownerId,
      startedAt: new Date().toISOString(),
    });
    // A draft's pins stand in for the nodes that run again, as in any test run of the draft.
    const pinned = source.versionId
      ? []
      : pinnedSeeds(source.graph, this.o.registry, new Set(plan.seeds.map((s) => s.nodeId)));
    this.launch(run, source.graph, new Map(), new Set(), { resumed: false, fresh: true }, [...plan.seeds, ...pinned]);
    return { run, checkpoint: plan.checkpoint, seeded: plan.seeds.map((s) => s.nodeId) };
  }

  async cancel(runId: string): Promise<RunRecord> {
    const run = await this.o.store.getRun(runId);
    if (!run) throw new PaiError('RUN_NOT_FOUND', `run ${runId} not found`);
    const a = this.active.get(runId);
    if (a) {
      a.controller.abort();
      return { ...run, status: 'running' };
    }
    if (run.status === 'queued' || run.status === 'running' || run.status === 'waiting') {
      // Not ours (another process, or orphaned): mark it; a live owner sees the status, stops and writes
      // run.cancelled itself (its journal owns the run's seq); for an orphan we write the event.
      const ownerAlive =
        !!run.ownerId &&
        run.ownerId !== this.ownerId &&
        !!run.heartbeatAt &&
        Date.parse(run.heartbeatAt) > Date.now() - this.staleMs;
      const seq = await this.o.store.maxSeq(runId);
      const ok = await this.o.store.updateRun(
        runId,
        {
          status: 'cancelled',
          finishedAt: new Date().toISOString(),
          error: { code: 'CANCELLED', message: 'the run was cancelled' },
        },
        [run.status],
      );
      if (ok && !ownerAlive) {
        const ev = {
          seq: seq + 1,
          runId,
          ts: new Date().toISOString(),
          type: 'run.cancelled' as const,
          spanId: 'run',
          data: {},
        };
        await this.o.store.commit(runId, { events: [ev] });
        this.o.bus.publish(ev);
      }
      return { ...run, status: 'cancelled' };
    }
    throw new PaiError('RUN_NOT_ACTIVE', `the run is already ${run.status}`);
  }

  /**
   * Marks runs whose process died as `interrupted` (resumable). At start-up of the embedded store, pass
   * staleBefore = now.
   */
  async recover(staleBefore = new Date(Date.now() - this.staleMs), onlyRunId?: string): Promise<string[]> {
    const stale = (await this.o.store.findStaleRuns(staleBefore)).filter(
      (r) => (!onlyRunId || r.id === onlyRunId) && !this.active.has(r.id),
    );
    return markInterrupted(this.o.store, this.o.bus, stale);
  }

  /**
   * Continues a run paused on a node with the person's answer (a human-input node's question, an agent's tool call
   * waiting for approval, a breakpoint): the answer is checked by what was asked, stored beside the node's
   * checkpoint, and the run continues from its snapshots, the node running again. `by`: who answered (the trace
   * shows it).
   */
  async answer(runId: string, nodeId: string, value: unknown, by?: AnswerAuthor): Promise<RunRecord> {
    const run = await this.o.store.getRun(runId);
    if (!run) throw new PaiError('RUN_NOT_FOUND', `run ${runId} not found`);
    if (run.status !== 'waiting' || this.active.has(runId)) {
      throw new PaiError('RUN_NOT_WAITING', `the run is ${run.status}, not waiting for input`);
    }
    const pause = await pauseWaitedOn(this.o.store, runId, nodeId);
    const node = run.graph.nodes.find((n) => n.id === nodeId);
    if (!node) throw new PaiError('NODE_NOT_FOUND', `node "${nodeId}" is not in the run`, { path: 'nodeId' });
    const stored = pauseAnswer(this.o.registry, node, pause.event, value, by);
    const breakpoint =
      (stored as { kind?: string }).kind === 'breakpoint' ? (stored as unknown as BreakpointAnswer) : null;
    if (breakpoint?.action === 'stop') return this.cancel(runId);
    // Step: pause before the next node too; Continue: only at the breakpoints.
    const debug =
      breakpoint && run.debug ? { ...run.debug, step: breakpoint.action === 'step', answered: nodeId } : undefined;
    const ok = await this.o.store.updateRun(
      runId,
      { status: 'running', ownerId: this.ownerId, heartbeatAt: new Date().toISOString(), ...(debug ? { debug } : {}) },
      ['waiting'],
    );
    if (!ok) throw new PaiError('RUN_NOT_WAITING', 'the run is no longer waiting');
    try {
      if (!(await this.o.store.answerCheckpoint(runId, pause.nodeKey, stored)))
        throw new PaiError('RUN_NOT_FOUND', `run ${runId} not found`);
    } catch (e) {
      await this.o.store.updateRun(runId, { status: 'waiting' }, ['running']).catch(() => {});
      throw e;
    }
    const previous = new Map(
      (await this.o.store.getNodeRuns(runId)).map((n) => [n.nodeId, n] as [string, NodeRunRecord]),
    );
    const reuse = new Set([...previous.values()].filter((n) => n.status === 'succeeded').map((n) => n.nodeId));
    const resumed: RunRecord = { ...run, status: 'running', ...(debug ? { debug } : {}) };
    this.launch(resumed, run.graph, previous, reuse, {
      resumed: true,
      answered: { nodeId, nodeKey: pause.nodeKey, ...(pause.pass ? { pass: pause.pass } : {}) },
      answeredBy: by ?? null,
    });
    return resumed;
  }

  /**
   * Starts a run of a graph the caller prepared (single-node-run.ts): not validated (an internal graph, acyclic),
   * on the DAG engine, executed in this process even in queue mode, with `seeded` nodes recorded as succeeded
   * instead of executing (pinned-data.ts). Resolves once the run is stored; `outcome(run.id)` settles at its end.
   */
  async startSeeded(args: {
    workflowId: string;
    graph: Graph;
    inputs: Record<string, unknown>;
    debug: RunDebug;
    seeded: SeededNode[];
  }): Promise<RunRecord> {
    const now = new Date().toISOString();
    const { run } = await this.o.store.createRun({
      id: newRunId(),
      workflowId: args.workflowId,
      versionId: null,
      engine: 'dag',
      status: 'running',
      inputs: args.inputs,
      graph: args.graph,
      debug: args.debug,
      ownerId: this.ownerId,
      startedAt: now,
    });
    this.launch(run, args.graph, new Map(), new Set(), { resumed: false, fresh: true }, args.seeded);
    return run;
  }

  /**
   * `seeded`: nodes recorded as succeeded before any node executes. Default: a new run of the draft (no versionId)
   * seeds its pinned nodes; a resumed run finds them among its stored snapshots.
   */
  private launch(
    run: RunRecord,
    graph: Graph,
    previous: Map<string, NodeRunRecord>,
    reuse: Set<string>,
    info: LaunchInfo,
    seeded: SeededNode[] = !run.versionId && !info.resumed && !run.debug?.only
      ? pinnedSeeds(graph, this.o.registry)
      : [],
  ) {
    const controller = new AbortController();
    for (const s of seeded) {
      previous.set(s.nodeId, seededRecord(run.id, s));
      reuse.add(s.nodeId);
    }
    const deps = {
      store: this.o.store,
      bus: this.o.bus,
      registry: this.o.registry,
      services: this.o.services,
      limits: this.limits,
      executor: (args: ExecuteArgs) => {
        const execute = this.executorFor(run.engine); // an unknown engine fails the run
        return seeded.length ? recordSeeded(args.journal, run.id, seeded).then(() => execute(args)) : execute(args);
      },
    };
    const done = executeRun(deps, { run, graph, previous, reuse, info, controller }).finally(() => {
      this.active.delete(run.id);
      this.o.bus.release(run.id);
    });
    this.active.set(run.id, { controller, done });
  }

  async close(): Promise<void> {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    for (const a of this.active.values()) a.controller.abort();
    await Promise.allSettled([...this.active.values()].map((a) => a.done));
  }
}
