/**
 * Evaluations (issue 36): every row of one dataset version run on one version of a workflow (or its draft) and
 * scored. The rows are copied into the evaluation when it is created, so its results stay readable and reproducible
 * whatever happens to the dataset later. A row keeps the id of its run as soon as the run exists and its scores once
 * they are computed, so a process that takes over an evaluation after a crash skips what is scored and resumes what
 * was running, never running a finished row again.
 *
 * Evaluations are driven by one process at a time: `claim` makes a process the owner, which `heartbeat` renews; an
 * evaluation whose owner stopped renewing is an orphan another process may claim. Every read names the workspace.
 */
import type { EngineChoice, Graph } from '../graph/schema';
import type { DatasetRow } from './datasets';

export type EvaluationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const EVALUATION_ACTIVE: readonly EvaluationStatus[] = ['queued', 'running'];
/** `scored`: the run ended and the scorers ran (a failed run is scored too, as a fail); `failed`: it could not run. */
export type EvaluationRowStatus = 'pending' | 'running' | 'scored' | 'failed' | 'cancelled';

export interface RowScore {
  score: number;
  passed: boolean;
  reason?: string;
  /** The offline demo model judged this score (an `llm_judge` with no model server configured). */
  demo?: true;
}

export interface EvaluationError {
  code: string;
  message: string;
}

export interface EvaluationRecord {
  id: string;
  workspaceId: string;
  workflowId: string;
  /** The published version's number; null: the draft, whose graph is `graph`. */
  version: number | null;
  versionId: string | null;
  graph: Graph | null;
  /** The engine the rows' runs use (`auto`, `dag` or `langgraph`). */
  engine: EngineChoice;
  datasetId: string;
  datasetVersion: number;
  datasetName: string;
  /** The scorer specs as validated (engine/evaluation/scorers.ts). */
  scorers: Array<Record<string, unknown> & { name: string; type: string }>;
  concurrency: number;
  status: EvaluationStatus;
  /** `gate`: started by a publish that the workflow's gate checks. */
  purpose: 'manual' | 'gate';
  error: EvaluationError | null;
  createdBy: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Rows by status. */
  progress: { total: number; done: number; running: number; pending: number };
}

export interface EvaluationRowRecord {
  index: number;
  inputs: Record<string, unknown>;
  expected: unknown;
  tags: string[];
  runId: string | null;
  status: EvaluationRowStatus;
  outputs: Record<string, unknown> | null;
  scores: Record<string, RowScore> | null;
  error: EvaluationError | null;
  durationMs: number | null;
  /** The run's cost plus the judges'; null when a model has no known price. */
  costUsd: number | null;
}

export type NewEvaluation = Omit<
  EvaluationRecord,
  'status' | 'error' | 'createdAt' | 'startedAt' | 'finishedAt' | 'progress'
> & { rows: DatasetRow[] };

export interface RowResult {
  status: 'scored' | 'failed' | 'cancelled';
  outputs: Record<string, unknown> | null;
  scores: Record<string, RowScore> | null;
  error: EvaluationError | null;
  durationMs: number | null;
  costUsd: number | null;
}

export interface EvaluationGate {
  datasetId: string;
  scorers: EvaluationRecord['scorers'];
  minMean?: Record<string, number>;
  maxDrop?: Record<string, number>;
  concurrency?: number;
}

export interface EvaluationStore {
  create(evaluation: NewEvaluation): Promise<EvaluationRecord>;
  get(workspaceId: string, id: string): Promise<EvaluationRecord | null>;
  /** In index order. */
  rows(id: string): Promise<EvaluationRowRecord[]>;
  /** A workflow's evaluations, newest first; with `after`, those that come after that one in this order. */
  list(
    workspaceId: string,
    workflowId: string,
    limit: number,
    after?: { createdAt: Date; id: string },
  ): Promise<EvaluationRecord[]>;
  /**
   * Makes `ownerId` the evaluation's driver when it is active and has no live owner (none, itself, or one whose
   * heartbeat is older than `staleBefore`); marks it running. False: someone else drives it, or it has ended.
   */
  claim(id: string, ownerId: string, staleBefore: Date): Promise<boolean>;
  /** Renews the owner's claim. False when it is no longer the owner's or no longer active (cancelled, say). */
  heartbeat(id: string, ownerId: string): Promise<boolean>;
  /** Active evaluations without a live owner. */
  orphans(staleBefore: Date): Promise<Array<{ id: string; workspaceId: string }>>;
  /** Records the run a row started (its status becomes running). */
  setRowRun(id: string, index: number, runId: string): Promise<void>;
  /** Records a row's end, once: a row already ended keeps its first result. */
  finishRow(id: string, index: number, result: RowResult): Promise<void>;
  /** Ends an active evaluation (rows not ended become cancelled when it is cancelled). Null: not active. */
  finish(id: string, status: 'succeeded' | 'failed' | 'cancelled', error?: EvaluationError): Promise<boolean>;
  getGate(workflowId: string): Promise<EvaluationGate | null>;
  /** null removes the gate. */
  setGate(workflowId: string, gate: EvaluationGate | null): Promise<void>;
}
