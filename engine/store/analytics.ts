/**
 * Reports over runs, computed in the database: the workspace's run list (filters, search, keyset pages), a
 * workflow's stats and spend, each run's cost, the runs waiting for a person, and each workflow's latest run. Every
 * query names the caller's workspace(s): a run belongs to one through its workflow, so another workspace's runs are
 * never read. Implemented in SQL shared by PGlite and PostgreSQL (engine/store/prisma/run-analytics.ts and its
 * neighbours).
 */
import type { EngineKind } from '../graph/schema';
import type { RunStatus } from './types';

/**
 * How a run was started: a trigger's kind where one started it (webhook, schedule, MCP client, evaluation), else the
 * published endpoint when it bore an API key, else the editor. In this order: the first that holds names the run.
 */
export const RUN_TRIGGER_NAMES = ['webhook', 'schedule', 'mcp', 'evaluation', 'chat', 'api', 'editor'] as const;
export type RunTrigger = (typeof RUN_TRIGGER_NAMES)[number];

export interface RunListQuery {
  workspaceId: string;
  workflowId?: string;
  status?: RunStatus;
  engine?: EngineKind;
  /** A published version's number, or `draft` (a run of the editor's draft: no version). */
  version?: number | 'draft';
  trigger?: RunTrigger;
  /** createdAt range, `from` inclusive, `to` exclusive. */
  from?: Date;
  to?: Date;
  /** A run id prefix, or a case-insensitive substring of the inputs' JSON text. */
  q?: string;
  /** The last row of the previous page. */
  after?: { createdAt: string; id: string };
  limit: number;
}

export interface RunListRow {
  id: string;
  workflowId: string;
  workflowName: string;
  versionId: string | null;
  version: number | null;
  engine: string;
  status: string;
  trigger: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  error?: { code: string; message: string };
  /** The inputs' JSON text, cut at INPUTS_PREVIEW_CHARS (the editor's run history shows it on one line). */
  inputsPreview: string;
  /** A single-node run's node (the editor's "run this node"); null for a run of the whole workflow. */
  singleNodeId: string | null;
  /**
   * A single-node run: its node's label (in the run's graph) and the input that node ran with (its snapshot's input,
   * which is the edited input when one was given), as JSON text cut at INPUTS_PREVIEW_CHARS; null otherwise.
   */
  singleNode: { nodeId: string; label: string | null; inputPreview: string | null } | null;
}

export const INPUTS_PREVIEW_CHARS = 200;

export interface StatsBucket {
  runs: number;
  succeeded: number;
  failed: number;
  p50Ms: number | null;
  p95Ms: number | null;
  inputTokens: number;
  outputTokens: number;
  /** Summed `usage.costUsd` of the nodes; null when no node reported a cost. */
  costUsd: number | null;
}

export interface WorkflowStats {
  perDay: Array<{ day: string } & StatsBucket>;
  /** `successRate`: succeeded / (succeeded + failed); null when no run has ended either way. */
  totals: StatsBucket & { successRate: number | null };
  slowestNodes: Array<{ nodeId: string; type: string; p95Ms: number; runs: number }>;
  failingNodes: Array<{
    nodeId: string;
    type: string;
    failures: number;
    lastError: { code: string; message: string } | null;
  }>;
}

export interface WorkflowCost {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unknownPriceRuns: number;
}

export interface RunCost {
  inputTokens: number;
  outputTokens: number;
  /** The sum of the nodes' costs; null when a node with usage has no numeric cost (its price is unknown). */
  costUsd: number | null;
}

export type WaitingKind = 'human_input' | 'tool_approval' | 'breakpoint' | 'other';

export interface WaitingRunRow {
  id: string;
  workflowId: string;
  workflowName: string;
  workspaceId: string;
  createdAt: string;
  /** When the run paused (its last run.waiting event); null if that event is not stored. */
  waitingSince: string | null;
  kind: WaitingKind;
  node: { id: string; label: string | null; type: string | null } | null;
  /** The human-input prompt (cut at DETAIL_CHARS) or the tool waiting for approval; null otherwise. */
  detail: string | null;
}

export const DETAIL_CHARS = 200;

/** A workflow's latest run (the workflow list's `lastRun`). */
export interface LatestRun {
  id: string;
  status: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface RunAnalyticsStore {
  /** One page, newest first; `hasMore` says a next page exists. */
  listRuns(q: RunListQuery): Promise<{ rows: RunListRow[]; hasMore: boolean }>;
  /** Null when the workspace has no such workflow. */
  workflowStats(workspaceId: string, workflowId: string, from: Date, to: Date): Promise<WorkflowStats | null>;
  /** Spend of the workflow's runs created in [from, to); a workflow of another workspace has no runs. */
  workflowCost(q: { workflowId: string; workspaceId: string; from: Date; to: Date }): Promise<WorkflowCost>;
  /**
   * The tokens and cost of each of `runIds` (whose workspace the caller checked): a run without nodes that report
   * usage costs 0; one missing from the answer has no snapshots at all.
   */
  runCosts(runIds: string[]): Promise<Map<string, RunCost>>;
  /** The runs waiting for a person in `workspaceIds` (optionally one workflow), newest first, and how many in all. */
  waitingRuns(q: {
    workspaceIds: string[];
    workflowId?: string;
    limit: number;
  }): Promise<{ rows: WaitingRunRow[]; total: number }>;
  /**
   * The latest run of each of `workflowIds` that has one, in one query; another workspace's workflows have none. A
   * single-node test run (`debug.only`) is not a run of the workflow and never its latest.
   */
  latestRuns(workspaceId: string, workflowIds: string[]): Promise<Map<string, LatestRun>>;
}
