/**
 * One execution of a run, from its `run.started` event to its recorded outcome: sets up the journal, calls the
 * engine, and commits the terminal (or waiting) status with its event in one commit — as soon as the engine
 * announces the outcome, else when it returns. RunManager decides when a run executes; this decides how.
 */
import type { EventBus } from '../events/types';
import type { Graph } from '../graph/schema';
import { totalUsage } from '../llm/prices';
import type { Usage } from '../llm/types';
import type { NodeRegistry } from '../node-kit/registry';
import type { NodeRunRecord, RunPatch, RunRecord, RunStore } from '../store/types';
import type { AnsweredPause, ExecuteArgs, ExecuteResult } from './types';
import { RunInputRefs } from './input-refs';
import { conversationOfRun, storedValues, type ConversationVariableStore } from './conversation-state';
import { restoredForm, storedForm } from './large-values';
import { RunJournal } from './run-journal';
import type { RunLimits } from './run-limits';
import type { NodeServices } from './run-node';

export interface LaunchInfo {
  resumed: boolean;
  /** A brand-new run: it has no events yet, so the journal starts at seq 0 without asking the store. */
  fresh?: boolean;
  fromNodeId?: string;
  /** The pause a person answered: its node reads the answer beside its checkpoint when it runs again. */
  answered?: AnsweredPause;
  /** Who answered it (the trace says so). */
  answeredBy?: { userId: string; name: string } | null;
  /** The run's INSERT, still in flight: the execution prepares meanwhile but commits nothing before it is stored. */
  created?: Promise<unknown>;
}

export interface ExecutionDeps {
  store: RunStore;
  bus: EventBus;
  registry: NodeRegistry;
  services: NodeServices;
  limits: RunLimits;
  executor: (args: ExecuteArgs) => Promise<ExecuteResult>;
}

export interface Launch {
  run: RunRecord;
  graph: Graph;
  previous: Map<string, NodeRunRecord>;
  reuse: Set<string>;
  info: LaunchInfo;
  controller: AbortController;
}

/**
 * The journal of one execution that also keeps every node's latest usage (the stored snapshots it resumed from, then
 * each one staged), so the run's end event carries the run's tokens and cost without reading the snapshots back.
 */
class TalliedJournal extends RunJournal {
  private readonly usages = new Map<string, Partial<Usage> | null>();

  constructor(previous: Map<string, NodeRunRecord>, ...journal: ConstructorParameters<typeof RunJournal>) {
    super(...journal);
    for (const [nodeId, n] of previous) this.usages.set(nodeId, n.usage);
  }

  override stageNode(rec: NodeRunRecord): void {
    this.usages.set(rec.nodeId, rec.usage);
    super.stageNode(rec);
  }

  /** The run's tokens and `costUsd` (null when a node's price is unknown), as GET /api/runs/:id sums them. */
  usage() {
    return totalUsage(this.usages.values());
  }
}

/** The end event's cost fields: `costUsd` (the run's, the sum of its nodes') and the run's `usage`. */
function costData(j: TalliedJournal) {
  const usage = j.usage();
  return { costUsd: usage.costUsd, usage };
}

/** Records the outcome: the terminal (or waiting) event and status in one commit. */
function commitOutcome(
  j: TalliedJournal,
  { run }: Launch,
  result: ExecuteResult,
): { patch?: RunPatch; stored: Promise<RunRecord> } {
  if (result.status === 'waiting' && result.waiting) {
    // The paused node has stored its own `waiting` snapshot (with its input).
    const w = result.waiting;
    j.emit(
      'run.waiting',
      { nodeId: w.nodeId, nodeKey: w.nodeKey, ...(w.pass ? { pass: w.pass } : {}), prompt: w.prompt },
      { nodeId: w.nodeId },
    );
    j.stopAutoFlush();
    return { stored: j.flush({ status: 'waiting' }).then(() => ({ ...run, status: 'waiting' })) };
  }
  const type =
    result.status === 'succeeded' ? 'run.succeeded' : result.status === 'cancelled' ? 'run.cancelled' : 'run.failed';
  const patch: RunPatch = {
    status: result.status,
    outputs: result.outputs,
    error: result.error,
    finishedAt: new Date().toISOString(),
  };
  j.emit(type, {
    ...(result.status === 'succeeded' ? { outputs: result.outputs } : { error: result.error }),
    ...costData(j),
  });
  j.stopAutoFlush();
  const stored = j.flush(patch).then(
    () =>
      ({
        ...run,
        ...patch,
        outputs: patch.outputs ?? null,
        error: patch.error ?? null,
        finishedAt: patch.finishedAt ?? null,
      }) as RunRecord,
  );
  return { patch, stored };
}

/** Executes the launch; resolves to the run as stored at its end or pause, or null when that write failed. */
export async function executeRun(deps: ExecutionDeps, launch: Launch): Promise<RunRecord | null> {
  const { run, graph, previous, reuse, info, controller } = launch;
  let journal: TalliedJournal | undefined;
  let final: RunPatch | undefined; // set once the terminal event is emitted: a retry must record the same outcome
  let finishing: Promise<RunRecord> | undefined;
  let announced: ExecuteResult | undefined;
  const finish = async (j: TalliedJournal, given: ExecuteResult) => {
    // The conversation variables the run wrote are stored before the run is recorded as succeeded: whoever sees it
    // succeed (the chat turn's answer) may start the next turn, which must read them. A run that did not succeed
    // writes none; a write that fails fails the run.
    const result = await storeConversationWrites(run, given, deps.services.conversations);
    // The run record keeps its outputs as the End node's record does: large parts in artifacts (large-values.ts).
    const outputs =
      result.outputs &&
      ((await storedForm(j.inputRefs.byReference(result.outputs), 'run.outputs', {
        runId: run.id,
        nodeId: 'run',
        artifacts: deps.services.artifacts,
        memo: j.offloaded,
        maxBytes: deps.limits.nodeOutputMaxBytes,
      })) as Record<string, unknown>);
    const { patch, stored } = commitOutcome(j, launch, { ...result, outputs });
    final = patch;
    return stored;
  };
  try {
    // Inputs kept by reference (a chat's history) are read now, on every start, resume or worker alike.
    const { inputs, refs } = await RunInputRefs.resolve(run.inputs, deps.services.inputRefs);
    // Reused outputs come back whole: what the record keeps in artifacts or by reference is read back before any
    // node needs it.
    for (const id of reuse) {
      const rec = previous.get(id);
      if (rec?.output != null)
        previous.set(id, {
          ...rec,
          output: refs.resolved(await restoredForm(rec.output, run.id, deps.services.artifacts)),
        });
    }
    const j = (journal = new TalliedJournal(
      previous,
      run.id,
      deps.store,
      deps.bus,
      info.fresh ? 0 : await deps.store.maxSeq(run.id),
      info.created,
    ));
    j.inputRefs = refs;
    journal.startAutoFlush();
    journal.emit('run.started', {
      engine: run.engine,
      workflowId: run.workflowId,
      versionId: run.versionId,
      resumed: info.resumed,
      ...(info.fromNodeId ? { fromNodeId: info.fromNodeId } : {}),
      ...(info.answered ? { answeredNodeId: info.answered.nodeId, answeredBy: info.answeredBy ?? null } : {}),
      reused: [...reuse],
    });
    const result = await deps.executor({
      runId: run.id,
      graph,
      inputs,
      conversation: await storedValues(run, graph, deps.services.conversations),
      registry: deps.registry,
      services: deps.services,
      journal,
      signal: controller.signal,
      previous,
      reuse,
      limits: deps.limits,
      debug: run.debug ?? null,
      answered: info.answered,
      finish: (r) => {
        if (!finishing) {
          announced = r;
          finishing = finish(j, r);
          finishing.catch(() => {});
        }
      },
    });
    if (announced && announced.status !== result.status) {
      console.error(
        `[paiflow] run ${run.id}: the ${run.engine} engine announced "${announced.status}" ` +
          `but returned "${result.status}"; the announced result stands`,
      );
    }
    return await (finishing ??= finish(j, result));
  } catch (e) {
    // The store itself failed (or something unexpected): record what we can; a later start-up marks it interrupted
    // otherwise.
    journal?.stopAutoFlush();
    const error = { code: 'ENGINE_ERROR', message: (e as Error).message };
    if (journal && !final) journal.emit('run.failed', { error, ...costData(journal) });
    await (
      journal
        ? journal.flush(final ?? { status: 'failed', error, finishedAt: new Date().toISOString() })
        : deps.store.updateRun(run.id, { status: 'failed', error })
    ).catch(() => {});
    return null;
  }
}

/** Stores what a succeeded run wrote to its conversation's variables; a failed write fails the run instead. */
async function storeConversationWrites(
  run: RunRecord,
  result: ExecuteResult,
  store: ConversationVariableStore | undefined,
): Promise<ExecuteResult> {
  const conversationId = conversationOfRun(run);
  if (result.status !== 'succeeded' || !result.conversation || !conversationId || !store) return result;
  try {
    await store.write(conversationId, result.conversation);
    return result;
  } catch (e) {
    const error = {
      code: 'CONVERSATION_WRITE_FAILED',
      message: `the conversation variables could not be stored: ${(e as Error).message}`,
    };
    return { status: 'failed', outputs: null, error };
  }
}
