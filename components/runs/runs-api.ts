/** Typed calls for the runs view and the workflow dashboard (GET /api/runs, GET /api/workflows/:id/stats). */
import { call } from '@/components/api/client';
import type { RunStatus } from '@/components/api/types';

export interface RunRow {
  id: string;
  workflowId: string;
  workflowName: string;
  versionId: string | null;
  version: number | null;
  engine: string;
  status: RunStatus;
  trigger: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  /** USD, the sum of the run's nodes' costs; null when a node's price is unknown. */
  costUsd: number | null;
  error?: { code: string; message: string };
  /** The run's start inputs as JSON text, cut short by the server. */
  inputsPreview?: string;
  /** A single-node run ("run this node"): its node and the input that node ran with (JSON text, cut short). */
  singleNode?: { nodeId: string; label: string | null; inputPreview: string | null } | null;
}

export interface RunFilters {
  workflowId?: string;
  status?: string;
  engine?: string;
  /** A version number or `draft`. */
  version?: string;
  trigger?: string;
  from?: string;
  to?: string;
  q?: string;
}

export interface StatsBucket {
  runs: number;
  succeeded: number;
  failed: number;
  p50Ms: number | null;
  p95Ms: number | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

export interface WorkflowStats {
  from: string;
  to: string;
  perDay: Array<{ day: string } & StatsBucket>;
  totals: StatsBucket & { successRate: number | null };
  slowestNodes: Array<{ nodeId: string; type: string; p95Ms: number; runs: number }>;
  failingNodes: Array<{ nodeId: string; type: string; failures: number; lastError: { message: string } | null }>;
}

function query(params: Record<string, string | number | undefined>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `?${s}` : '';
}

export const runsApi = {
  list: (filters: RunFilters, cursor?: string | null, limit = 50, signal?: AbortSignal) =>
    call<{ runs: RunRow[]; nextCursor: string | null }>(
      'GET',
      `/api/runs${query({ ...filters, cursor: cursor ?? undefined, limit })}`,
      undefined,
      signal,
    ),
  stats: (workflowId: string, from: string, to: string) =>
    call<WorkflowStats>('GET', `/api/workflows/${encodeURIComponent(workflowId)}/stats${query({ from, to })}`),
  versions: async (workflowId: string): Promise<number[]> => {
    const res = await call<{ versions: Array<{ version: number }> }>(
      'GET',
      `/api/workflows/${encodeURIComponent(workflowId)}/versions`,
    );
    return res.versions.map((v) => v.version);
  },
};

/** The editor with that run opened (components/editor/run/run-url.ts reads `?run=`). */
export function runHref(r: Pick<RunRow, 'workflowId' | 'id'>): string {
  return `/workflows/${encodeURIComponent(r.workflowId)}?run=${encodeURIComponent(r.id)}`;
}
