/**
 * Runs a parallel loop's body once per item (types.ts LoopBody), for the state-graph engine: the body's nodes in
 * dependency order (independent ones at the same time), each through runNode() like any node of the run, against an
 * item scope of its own — the run's values before the loop, the loop's pass as `{{<loop>.output}}`, and this item's
 * body outputs. Branches not taken inside the body are skipped within the item only (no `skipped` snapshot, as on a
 * sequential loop's pass). A body node keeps its loop-pass identity: pass `index` (its idempotency key and
 * checkpoint are `runId:nodeId:index`, as on the sequential loop), attempt numbers continuing per item.
 */
import type { ErrorJson } from '../errors';
import type { NodeRunRecord } from '../store/types';
import type { Plan } from './langgraph-plan';
import type { RunJournal } from './run-journal';
import { runNode } from './run-node';
import { chosenBranches, Frontier, launchAll, nodeRunArgs, Outcomes, RunState } from './scheduler-core';
import type { ExecuteArgs } from './types';
import { writtenBy } from './conversation-state';
import type { LoopBodyPlan } from './loop-body-plan';
import type { LoopBody, LoopItemOutcome, LoopNodeRun } from '../node-kit/loop-body';

export interface BodyRunnerArgs {
  a: ExecuteArgs;
  plan: Plan;
  body: LoopBodyPlan;
  /** The run's state: read for the values before the loop, written by complete(). */
  state: RunState;
  /** The run's attempts per node (what the next runNode of a node continues from). */
  attempts: Map<string, number>;
}

/** The run's journal, telling `onStage` every snapshot staged through it (to know an item's final snapshots). */
function observed(journal: RunJournal, onStage: (rec: NodeRunRecord) => void): RunJournal {
  return new Proxy(journal, {
    get(target, key) {
      if (key === 'stageNode')
        return (rec: NodeRunRecord) => {
          onStage(rec);
          target.stageNode(rec);
        };
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

export function loopBodyRunner({ a, plan, body, state, attempts }: BodyRunnerArgs): LoopBody {
  const { loopId } = body;
  // Passes and attempts before this loop execution: items continue from them (0 on a fresh loop and on a resume,
  // whose body snapshots are released: body-plan.ts releaseLoopBodies).
  const basePass = new Map(body.order.map((id) => [id, state.passes.get(id) ?? 0]));
  const baseAttempt = new Map(body.order.map((id) => [id, attempts.get(id) ?? 0]));
  const breakpoint = body.order.find((id) => a.debug?.breakpoints.includes(id));
  const problem: ErrorJson | undefined =
    body.problem ??
    (breakpoint
      ? {
          code: 'LOOP_BODY_BREAKPOINT',
          message:
            `node "${breakpoint}" has a breakpoint but runs in the body of loop "${loopId}" with concurrency > 1; ` +
            'set concurrency to 1 to stop inside the body',
          details: { loopId, nodeId: breakpoint },
        }
      : undefined);

  async function run(index: number, pass: Record<string, unknown>, signal: AbortSignal): Promise<LoopItemOutcome> {
    const records = new Map<string, NodeRunRecord>();
    const journal = observed(a.journal, (rec) => records.set(rec.nodeId, rec));
    const item = new RunState(state.scope.inputs, state.scope.maxOutputChars, state.conversation);
    Object.assign(item.scope.nodes, state.scope.nodes);
    for (const id of body.order) delete item.scope.nodes[id];
    item.succeeded(loopId, pass, ['body']);

    const ran: Record<string, LoopNodeRun> = {};
    const outcomes = new Outcomes();
    // A branch not taken inside the body is skipped within this item only: no snapshot.
    const frontier = new Frontier(item, body.incoming, plan.t.outgoing, (id) => item.settled(id, 'skipped'));
    frontier.considerAll(body.order);
    const itemA = { ...a, signal, journal };

    await launchAll({
      frontier,
      concurrency: Infinity,
      stopped: () =>
        !!outcomes.failed ||
        !!outcomes.cancelled ||
        outcomes.stopping ||
        outcomes.thrown !== undefined ||
        signal.aborted,
      launch: (id) => {
        const node = plan.nodes.get(id)!;
        const def = a.registry.get(node.type, node.data.version);
        item.settled(id, 'running');
        const args = nodeRunArgs(itemA, node, def, item.scope, {
          previousAttempts: baseAttempt.get(id)! + index,
          persistWithNext: plan.persistWithNext.has(id),
        });
        return runNode({
          ...args,
          iteration: basePass.get(id)! + index,
          // Breakpoints in a parallel body are refused (`problem`); step mode does not stop inside it.
          pauseBefore: false,
          breakpointAnswered: false,
        }).then(
          (out) => {
            if (out.status === 'waiting') {
              // A pause for a person has no place among parallel items: the node fails, and its snapshot says so.
              const error = {
                code: 'LOOP_BODY_PAUSED',
                message:
                  `node "${id}" paused for a person in the body of loop "${loopId}", which runs items in parallel; ` +
                  'set concurrency to 1',
              };
              const rec = {
                ...records.get(id)!,
                status: 'failed' as const,
                error,
                finishedAt: new Date().toISOString(),
              };
              a.journal.stageNode(rec);
              records.set(id, rec);
              out = { ...out, status: 'failed', error };
            }
            if (outcomes.node(item, id, out, !!def.outputsFor, def)) {
              ran[id] = { index, record: records.get(id)! };
              frontier.after(id);
            }
          },
          (e: unknown) => outcomes.threw(item, id, e),
        );
      },
    });
    if (outcomes.storeError) throw outcomes.storeError;
    if (outcomes.thrown !== undefined) throw outcomes.thrown;
    const failed = outcomes.failed ?? outcomes.cancelled;
    if (failed) {
      const { nodeId, outcome } = failed;
      const error = outcome.error ?? { code: 'NODE_FAILED', message: `node "${nodeId}" failed` };
      if (outcome.status === 'cancelled') return { status: 'cancelled', nodeId, error };
      return { status: 'failed', nodeId, error, record: records.get(nodeId) };
    }
    if (signal.aborted)
      return { status: 'cancelled', nodeId: loopId, error: { code: 'CANCELLED', message: 'the run was cancelled' } };
    return { status: 'succeeded', scope: item.scope, ran };
  }

  return {
    problem,
    run,
    complete(latest, items) {
      for (const [id, r] of Object.entries(latest)) {
        const node = plan.nodes.get(id);
        if (!node) continue;
        const def = a.registry.get(node.type, node.data.version);
        const branch = def.outputsFor ? chosenBranches(r.record.output) : null;
        state.succeeded(id, r.record.output, branch, writtenBy(def, r.record.output));
        state.passes.set(id, (basePass.get(id) ?? 0) + items);
        attempts.set(id, r.record.attempt);
        a.journal.stageNode(r.record);
      }
    },
    restage(records) {
      for (const rec of records) a.journal.stageNode(rec);
    },
  };
}
