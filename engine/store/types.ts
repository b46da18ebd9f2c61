import type { ErrorJson } from '../errors';
import type { TraceEvent } from '../events/types';
import type { EngineChoice, EngineKind, Graph } from '../graph/schema';
import type { Usage } from '../llm/types';
import type { ChatAppPublicSettings } from './chat';

export const RUN_STATUSES = [
  'queued',
  'running',
  'waiting',
  'succeeded',
  'failed',
  'cancelled',
  'interrupted',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const ACTIVE_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(['queued', 'running', 'waiting']);
export const NODE_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped', 'cancelled', 'waiting'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/**
 * The workspace that data from before accounts moved into (migration 0005), and the one internal callers default to.
 */
export { DEFAULT_WORKSPACE_ID } from '../config/default-workspace';

export interface WorkflowRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  graph: Graph;
  engine: EngineChoice;
  revision: number;
  slug: string | null;
  currentVersionId: string | null;
  /** Browser origins allowed to call the published endpoint (`["*"]`: any; `[]`: none); null: the server default. */
  corsOrigins: string[] | null;
  /** API-key holders may read the node trace of published runs (statuses, timings, usage; never node data). */
  publicTrace: boolean;
  /** The published workflow is offered as a tool by the MCP server (/api/mcp) to its API keys. */
  mcp: boolean;
  /** The chat app at /chat/:slug, without its secrets (engine/store/chat.ts); null: never set up. */
  chat?: ChatAppPublicSettings | null;
  createdAt: string;
  updatedAt: string;
}

export interface WorkflowVersionRecord {
  id: string;
  workflowId: string;
  version: number;
  graph: Graph;
  engine: EngineChoice;
  createdAt: string;
}

export interface RunRecord {
  id: string;
  workflowId: string;
  /** null = a run of the editor's draft. */
  versionId: string | null;
  engine: EngineKind;
  status: RunStatus;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: ErrorJson | null;
  /** The graph as it was when the run (or its latest resume) started: what the history view paints. */
  graph: Graph;
  ownerId: string | null;
  heartbeatAt: string | null;
  idempotencyKey: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** An editor test run's breakpoints; null: it never pauses for debugging. */
  debug?: RunDebug | null;
  /** The trigger that started the run (null: the editor, or the published API with a key). */
  triggerKind?: RunTriggerKind | null;
  /**
   * The trigger's id (a webhook's or schedule's; for `mcp` the API key's; for `evaluation` the evaluation's; for
   * `chat` the conversation's).
   */
  triggerId?: string | null;
}

/** Triggers that start runs besides the editor and the published API. */
export const RUN_TRIGGER_KINDS = ['webhook', 'schedule', 'mcp', 'evaluation', 'chat'] as const;
export type RunTriggerKind = (typeof RUN_TRIGGER_KINDS)[number];

/** Debugging of an editor test run: pause before the listed nodes, and (`step`) before every node. */
export interface RunDebug {
  breakpoints: string[];
  step: boolean;
  /** The node whose breakpoint was answered last: it reads its answer (an edited input) even when not paused again. */
  answered?: string;
  /** A single-node run (engine/runtime/single-node-run.ts): the one node it executes; its ancestors are seeded. */
  only?: string;
  /** With `only`: the config that node runs with instead of its own with templates resolved (the edited input). */
  input?: Record<string, unknown>;
}

export interface NodeRunRecord {
  runId: string;
  nodeId: string;
  type: string;
  status: NodeStatus;
  attempt: number;
  input: unknown;
  output: unknown;
  error: ErrorJson | null;
  usage: Usage | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
}

export type RunPatch = Partial<
  Pick<
    RunRecord,
    | 'status'
    | 'outputs'
    | 'error'
    | 'graph'
    | 'inputs'
    | 'ownerId'
    | 'heartbeatAt'
    | 'startedAt'
    | 'finishedAt'
    | 'engine'
    | 'debug'
  >
>;

export interface NewRun {
  id: string;
  workflowId: string;
  versionId: string | null;
  engine: EngineKind;
  status: RunStatus;
  inputs: Record<string, unknown>;
  graph: Graph;
  idempotencyKey?: string | null;
  apiKeyId?: string | null;
  /** Set when the creating process claims the run at once (saves a separate claim round trip). */
  ownerId?: string | null;
  debug?: RunDebug | null;
  startedAt?: string | null;
  triggerKind?: RunTriggerKind | null;
  triggerId?: string | null;
}

/** The record a NewRun is once stored: created `now`, and claimed (owner, heartbeat, start) when it names an owner. */
export function newRunRecord(run: NewRun, now: string): RunRecord {
  const claimed = !!run.ownerId;
  return {
    id: run.id,
    workflowId: run.workflowId,
    versionId: run.versionId ?? null,
    engine: run.engine,
    status: run.status,
    inputs: run.inputs,
    outputs: null,
    error: null,
    graph: run.graph,
    ownerId: claimed ? run.ownerId! : null,
    heartbeatAt: claimed ? now : null,
    idempotencyKey: run.idempotencyKey ?? null,
    createdAt: now,
    startedAt: claimed ? new Date(run.startedAt ?? now).toISOString() : null,
    finishedAt: null,
    debug: run.debug ?? null,
    triggerKind: run.triggerKind ?? null,
    triggerId: run.triggerId ?? null,
  };
}

/** A node's durable state within a run (see NodeCheckpoint in engine/node-kit/define.ts). */
export interface CheckpointRecord {
  /** The node's operation: `nodeId`, plus `:<pass>` inside loops. */
  nodeKey: string;
  /** null: nothing saved (a node that succeeded drops its checkpoint). */
  state: unknown;
  /** sha256 of the resolved config the state belongs to. */
  inputHash: string | null;
  /** A person's answer to the node's pause; a write of new state clears it. */
  answer: unknown;
  updatedAt: string;
}

export interface CommitBatch {
  nodes?: NodeRunRecord[];
  events?: TraceEvent[];
  run?: RunPatch;
  /** Written (whole rows, upserted) in the same atomic commit as the nodes and events. */
  checkpoints?: CheckpointRecord[];
}

/**
 * Runs, node snapshots and trace events. `commit` is atomic: a node's snapshot and the events that describe it
 * land together or not at all. Implementations: Prisma over PGlite (embedded) and over PostgreSQL.
 */
export interface RunStore {
  readonly kind: string;
  /** Returns the existing run when (workflowId, idempotencyKey) was already used. */
  createRun(run: NewRun): Promise<{ run: RunRecord; created: boolean }>;
  getRun(id: string, workspaceId?: string): Promise<RunRecord | null>;
  /** The workspace of a run's workflow (one small read: what the runtime scopes credentials, knowledge, memory by). */
  workspaceOfRun(runId: string): Promise<string | null>;
  listRuns(workflowId: string, opts?: { limit?: number }): Promise<RunRecord[]>;
  /**
   * Compare-and-set on status: applies the patch only if the run's status is one of `expect`. Returns whether it did.
   */
  updateRun(id: string, patch: RunPatch, expect?: RunStatus[]): Promise<boolean>;
  getNodeRuns(runId: string): Promise<NodeRunRecord[]>;
  commit(runId: string, batch: CommitBatch): Promise<void>;
  /**
   * Compare-and-set of the run's status together with what `derive` makes of the run as it then is (its node
   * records and last seq), in one transaction: readers see the run before or after, never half of it. For changes of
   * a run nobody is executing (a crashed run marked interrupted). Returns the batch written, or null when the run's
   * status was not one of `expect` (someone else changed it first).
   */
  transition(
    runId: string,
    expect: RunStatus[],
    patch: RunPatch,
    derive: (now: { nodes: NodeRunRecord[]; maxSeq: number }) => Pick<CommitBatch, 'nodes' | 'events'>,
  ): Promise<Pick<CommitBatch, 'nodes' | 'events'> | null>;
  getEvents(runId: string, afterSeq?: number, limit?: number): Promise<TraceEvent[]>;
  getCheckpoint(runId: string, nodeKey: string): Promise<CheckpointRecord | null>;
  /** Stores a person's answer beside the node's checkpoint (creating an empty one); false when the run is gone. */
  answerCheckpoint(runId: string, nodeKey: string, answer: unknown): Promise<boolean>;
  maxSeq(runId: string): Promise<number>;
  /**
   * Marks the owner's runs alive. Returns those of `runIds` that were cancelled meanwhile by another process
   * (a cancel on a shared database only flips the status; the owner stops when it sees this).
   */
  heartbeat(ownerId: string, runIds: string[]): Promise<string[]>;
  /** Active runs whose heartbeat is older than `staleBefore` (or whose owner is `deadOwner`): for crash recovery. */
  findStaleRuns(staleBefore: Date): Promise<RunRecord[]>;
}

export interface NewWorkflow {
  id: string;
  name: string;
  description: string;
  graph: Graph;
  engine: EngineChoice;
  /** Default: DEFAULT_WORKSPACE_ID. */
  workspaceId?: string;
}

/** Lookups that take `workspaceId` answer null (or nothing) for records of another workspace. */
export interface WorkflowStore {
  createWorkflow(w: NewWorkflow): Promise<WorkflowRecord>;
  getWorkflow(id: string, workspaceId?: string): Promise<WorkflowRecord | null>;
  listWorkflows(workspaceId?: string): Promise<WorkflowRecord[]>;
  /** Optimistic concurrency: with `expectRevision`, fails (returns null) when someone else saved in between. */
  updateWorkflow(
    id: string,
    patch: Partial<Pick<WorkflowRecord, 'name' | 'description' | 'graph' | 'engine'>>,
    expectRevision?: number,
  ): Promise<WorkflowRecord | null | 'conflict'>;
  deleteWorkflow(id: string): Promise<boolean>;
  getVersion(id: string): Promise<WorkflowVersionRecord | null>;
}
