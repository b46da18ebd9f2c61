/**
 * The shape of the run shown on the canvas: per-node state, the trace as a tree of spans, and run-level facts.
 * Shared by the store that holds it (run-store.ts), the pure fold that builds it (apply-events.ts) and the views.
 */
import type { ErrorJson, NodeStatus, RunStatus } from '@/components/api/types';

export interface NodeRunState {
  status: NodeStatus;
  attempt: number;
  /** Streamed `node.token` text of the latest attempt. */
  tokens: string;
  input?: unknown;
  output?: unknown;
  error?: ErrorJson | null;
  durationMs?: number | null;
  /** `demo`: the offline demo model answered this node, not a real model. */
  usage?: { inputTokens?: number; outputTokens?: number; demo?: boolean } | null;
}

export interface TraceSpan {
  spanId: string;
  kind: 'node' | 'child' | 'marker';
  nodeId?: string;
  /** Node type for node spans, the event type (agent.step, tool.called …) for child spans. */
  type: string;
  name: string;
  status: NodeStatus;
  attempt?: number;
  /** A loop pass (0 = the first) of a node on a cycle: shown as "pass N", not as a retry. */
  iteration?: number;
  input?: unknown;
  output?: unknown;
  error?: ErrorJson | null;
  durationMs?: number | null;
  usage?: { inputTokens?: number; outputTokens?: number; demo?: boolean } | null;
  tokens: string;
  notes: string[];
  startedSeq: number;
  ts: string;
  children: TraceSpan[];
  /** A sub-workflow node's own run (`node.progress` with `childRun`), linked from the trace. */
  childRun?: ChildRunRef;
}

export interface ChildRunRef {
  runId: string;
  workflowId: string;
  version?: number | string | null;
}

/** What an Agent waits for when a tool it may call needs a person's approval (`run.waiting` prompt). */
export interface ToolApprovalPrompt {
  kind: 'tool_approval';
  round?: number;
  callId: string;
  name: string;
  /** The parsed JSON object the model sent, or its text when it was not JSON. */
  arguments: unknown;
  /** How many calls of the round still wait for a decision, this one included. */
  pendingCalls?: unknown;
}

/** What a run paused at a breakpoint shows (`run.waiting` prompt of kind `breakpoint`): the node's resolved input. */
export interface BreakpointPrompt {
  kind: 'breakpoint';
  nodeId: string;
  input: unknown;
}

/** A run's total tokens and cost in USD (null: a node's price is unknown). */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

export interface RunState {
  runId: string | null;
  status: RunStatus | 'idle';
  error: ErrorJson | null;
  outputs: Record<string, unknown> | null;
  inputs: Record<string, unknown> | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** The run's total as its end event (or its stored view) states it; null while it runs (run-cost.ts sums). */
  usage: RunUsage | null;
  lastSeq: number;
  nodes: Map<string, NodeRunState>;
  spans: TraceSpan[];
  waitingNodeId: string | null;
  waitingPrompt: string | null;
  /** Set instead of a text prompt when the wait is a tool-call approval. */
  waitingApproval: ToolApprovalPrompt | null;
  /** Set when the run paused before a node with a breakpoint (or in step mode). */
  waitingBreakpoint: BreakpointPrompt | null;
  /** When the last wait began (its run.waiting), for the answer's "after 2m 5s". */
  waitingSince?: string | null;
  connection: 'idle' | 'connecting' | 'open' | 'closed' | 'reconnecting';
  /** Every seq ever applied, for the "no gaps, no duplicates" check the e2e suite makes after a dropped connection. */
  seqs: number[];
}

export const EMPTY_RUN: RunState = {
  runId: null,
  status: 'idle',
  error: null,
  outputs: null,
  inputs: null,
  startedAt: null,
  finishedAt: null,
  usage: null,
  lastSeq: 0,
  nodes: new Map(),
  spans: [],
  waitingNodeId: null,
  waitingPrompt: null,
  waitingApproval: null,
  waitingBreakpoint: null,
  connection: 'idle',
  seqs: [],
};

export const isTerminal = (s: RunState['status']) =>
  s === 'succeeded' || s === 'failed' || s === 'cancelled' || s === 'interrupted';

export const EMPTY_NODE: NodeRunState = { status: 'pending', attempt: 0, tokens: '' };
