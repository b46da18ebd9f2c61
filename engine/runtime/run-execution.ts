/**
 * One execution of a run, from its `run.started` event to its recorded outcome: sets up the journal, calls the
 * engine, and commits the terminal (or waiting) status with its event in one commit — as soon as the engine
 * announces the outcome, else when it returns. RunManager decides when a run executes; this decides how.
 */
import type { EventBus } from '../events/types';
import type { Graph } from '../graph/schema';
import type { NodeRegistry } from '../nodes/registry';
import type { NodeRunRecord, RunPatch, RunRecord, RunStore } from '../store/types';
import type { ExecuteArgs, ExecuteResult } from './dag-executor';
import { RunJournal } from './run-journal';
import type { NodeServices } from './run-node';

export interface LaunchInfo {
  resumed: boolean;
  /** A brand-new run: it has no events yet, so the journal starts at seq 0 without asking the store. */
  fresh?: boolean;
  fromNodeId?: string;
  answer?: { nodeId: string; value: unknown; threadId?: string };
  /** The node a person answered (a human-input node, or a node that paused itself and reads its answer itself). */
  answeredNodeId?: string;
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
  concurrency?: number;
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

/** Records the outcome: the terminal (or waiting) event and status in one commit. */
function commitOutcome(
  j: RunJournal,
  { run, graph, previous }: Launch,
  result: ExecuteResult,
): { patch?: RunPatch; stored: Promise<RunRecord> } {
  if (result.status === 'waiting' && result.waiting) {
    const w = result.waiting;
    const node = graph.nodes.find((n) => n.id === w.nodeId);
    // A node that paused itself has stored its own `waiting` snapshot (with its input).
    if (!w.paused)
      j.stageNode({
        runId: run.id,
        nodeId: w.nodeId,
        type: node?.type ?? 'human_input',
        status: 'waiting',
        attempt: previous.get(w.nodeId)?.attempt ?? 0,
        input: { prompt: w.prompt },
        output: null,
        error: null,
        usage: null,
        startedAt: new Date().toISOString(),
        finishedAt: null,
        durationMs: null,
      });
    j.emit(
      'run.waiting',
      w.paused
        ? { nodeId: w.nodeId, nodeKey: w.nodeKey ?? w.nodeId, prompt: w.prompt }
        : { nodeId: w.nodeId, prompt: w.prompt, threadId: w.threadId },
      { nodeId: w.nodeId, afterFlush: true },
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
  j.emit(type, result.status === 'succeeded' ? { outputs: result.outputs } : { error: result.error }, {
    afterFlush: true,
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
  let journal: RunJournal | undefined;
  let final: RunPatch | undefined; // set once the terminal event is emitted: a retry must record the same outcome
  let finishing: Promise<RunRecord> | undefined;
  let announced: ExecuteResult | undefined;
  const finish = (j: RunJournal, result: ExecuteResult) => {
    const { patch, stored } = commitOutcome(j, launch, result);
    final = patch;
    return stored;
  };
  try {
    const j = (journal = new RunJournal(
      run.id,
      deps.store,
      deps.bus,
      info.fresh ? 0 : await deps.store.maxSeq(run.id),
      info.created,
    ));
    journal.startAutoFlush();
    journal.emit('run.started', {
      engine: run.engine,
      workflowId: run.workflowId,
      versionId: run.versionId,
      resumed: info.resumed,
      ...(info.fromNodeId ? { fromNodeId: info.fromNodeId } : {}),
      ...(info.answeredNodeId ? { answeredNodeId: info.answeredNodeId, answeredBy: info.answeredBy ?? null } : {}),
      reused: [...reuse],
    });
    const result = await deps.executor({
      runId: run.id,
      graph,
      inputs: run.inputs,
      registry: deps.registry,
      services: deps.services,
      journal,
      signal: controller.signal,
      previous,
      reuse,
      concurrency: deps.concurrency,
      answer: info.answer,
      debug: run.debug ?? null,
      fromNodeId: info.fromNodeId,
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
    if (journal && !final) journal.emit('run.failed', { error }, { afterFlush: true });
    await (
      journal
        ? journal.flush(final ?? { status: 'failed', error, finishedAt: new Date().toISOString() })
        : deps.store.updateRun(run.id, { status: 'failed', error })
    ).catch(() => {});
    return null;
  }
}
