/**
 * What a loop node that runs its items in parallel (list mode, concurrency > 1) gets from the state-graph engine:
 * a way to run its body once for one item, as a nested execution of the body's nodes through the same runNode()
 * (their own snapshots, trace events, retries, timeouts and idempotency keys `runId:nodeId:pass`). The loop node
 * decides which items run, how many at once, and what is kept of them (engine/nodes/loop/parallel-loop.ts); the
 * engine decides how one item's body runs (engine/runtime/loop-body-runner.ts).
 */
import type { ErrorJson } from '../errors';
import type { NodeRunRecord } from '../store/types';
import type { TemplateScope } from '../template/resolve';

/** A body node's run in one item: its final snapshot (the output is `record.output`). */
export interface LoopNodeRun {
  index: number;
  record: NodeRunRecord;
}

export type LoopItemOutcome =
  /** `scope`: the item's values (the loop's pass, the body's outputs), for the loop's `collect`. */
  | { status: 'succeeded'; scope: TemplateScope; ran: Record<string, LoopNodeRun> }
  /** `record`: the failing node's snapshot in this item (the run shows it once the loop has failed). */
  | { status: 'failed' | 'cancelled'; nodeId: string; error: ErrorJson; record?: NodeRunRecord };

export interface LoopBody {
  /** Why this loop's body cannot run per item (the loop fails with it before running any); undefined if it can. */
  problem?: ErrorJson;
  /**
   * Runs the body once: its nodes see `{{<loop>.output}}` as `pass`, and the outputs of the nodes before the loop.
   * Never throws for a node's failure (it is the outcome); throws StoreWriteError when a snapshot could not be stored.
   */
  run(index: number, pass: Record<string, unknown>, signal: AbortSignal): Promise<LoopItemOutcome>;
  /**
   * The loop has finished its `items` items: each body node's run in the highest item it ran in stands for that node
   * in the run (its output in `{{node.output}}`, its snapshot), as after the last pass of a sequential loop.
   */
  complete(latest: Record<string, LoopNodeRun>, items: number): void;
  /** The loop failed: these snapshots (the failing node's, of the failed item) are the ones the run shows. */
  restage(records: NodeRunRecord[]): void;
}
