/**
 * What an engine is given and what it answers: the contract between RunManager (which decides when a run executes),
 * run-execution.ts (which records the outcome) and the two engines (dag-executor.ts, langgraph-executor.ts).
 */
import type { ErrorJson } from '../errors';
import type { Graph } from '../graph/schema';
import type { NodeRegistry } from '../node-kit/registry';
import type { NodeRunRecord, RunDebug } from '../store/types';
import type { RunJournal } from './run-journal';
import type { RunLimits } from './run-limits';
import type { NodeServices } from './run-node';

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
  /** The limits the run executes under (the RunManager's): the engine's concurrency, and each node's (runNode). */
  limits: RunLimits;
  /**
   * The paused node a person just answered, its operation key (where the answer is stored beside its checkpoint)
   * and, on a cycle, the pass it paused in: it runs again in that pass.
   */
  answered?: AnsweredPause;
  /**
   * The values the run's conversation holds (conversation-state.ts); absent: the run belongs to no conversation and
   * its conversation variables start at their defaults.
   */
  conversation?: Record<string, unknown> | null;
  /** An editor test run's breakpoints and step mode (breakpoints.ts). */
  debug?: RunDebug | null;
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
   * Set when status is `waiting`: the node that paused (NodePause: a person's answer, a tool approval, a
   * breakpoint), what it asks, and its operation key, where the answer is stored beside its checkpoint. Its
   * snapshot is stored; it runs again when answered.
   */
  waiting?: { nodeId: string; prompt: unknown; nodeKey: string; pass?: number };
  /** Set when status is `succeeded`: the conversation variables the run wrote (name → value), to store. */
  conversation?: Record<string, unknown>;
}

/** A pause a person answered: which node, where its answer is stored, and (on a cycle) the pass it paused in. */
export interface AnsweredPause {
  nodeId: string;
  nodeKey: string;
  pass?: number;
}
