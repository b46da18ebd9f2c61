/** Typed calls to the PaiFlow HTTP API. Every non-2xx answer becomes an ApiError carrying the API's error body. */
import type { RunCheckpoint } from '@/engine/runtime/run-checkpoints';
import type {
  EngineChoice,
  Graph,
  NodeTypeInfo,
  Problem,
  RunStatus,
  RunSummary,
  RunView,
  ValidationResult,
  Workflow,
  WorkflowSummary,
} from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
    readonly errors?: Problem[],
    /** The whole `error` object of the answer, for errors that carry more (a publish gate's summary). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Browsers refuse a `keepalive` request whose body is over 64 KiB (all such requests of a page together). */
const KEEPALIVE_MAX_BYTES = 60 * 1024;

/** One API request; exported for feature modules (e.g. the publish panel) that keep their own typed calls. */
export async function call<T>(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    cache: 'no-store',
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  if (res.status === 401) redirectToLogin();
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string; path?: string; errors?: Problem[] } } | undefined)
      ?.error;
    throw new ApiError(
      res.status,
      e?.code ?? `HTTP_${res.status}`,
      e?.message ?? (text.slice(0, 200) || res.statusText),
      e?.path,
      e?.errors,
      e && typeof e === 'object' ? (e as Record<string, unknown>) : undefined,
    );
  }
  return json as T;
}

/** Pages that work signed out: a 401 there is an answer to show (wrong password), not a reason to leave. */
export const PUBLIC_PATHS = /^\/(login|setup|invite|chat)(\/|$)/;

/** The session is gone (expired, signed out elsewhere): go to the sign-in page, and come back here after. */
function redirectToLogin() {
  if (typeof window === 'undefined' || PUBLIC_PATHS.test(window.location.pathname)) return;
  const next = window.location.pathname + window.location.search;
  window.location.replace(`/login?next=${encodeURIComponent(next)}`);
}

export const api = {
  nodeTypes: () => call<NodeTypeInfo[]>('GET', '/api/node-types'),
  /** `q` keeps the workflows whose name or description contains it, any case. */
  listWorkflows: (q = '') =>
    call<WorkflowSummary[]>('GET', q ? `/api/workflows?q=${encodeURIComponent(q)}` : '/api/workflows'),
  getWorkflow: (id: string) => call<Workflow>('GET', `/api/workflows/${encodeURIComponent(id)}`),
  /** Without a graph: a blank workflow (Start → End); without a name too, the server picks a free one. */
  createWorkflow: (body: { name?: string; description?: string; graph?: Graph; engine?: EngineChoice }) =>
    call<Workflow>('POST', '/api/workflows?draft=1', body),
  /** Draft save: semantic problems are allowed and come back in `problems`; only structural corruption is refused. */
  saveWorkflow: (
    id: string,
    body: { name?: string; description?: string; engine?: EngineChoice; graph?: Graph; revision?: number },
  ) => call<Workflow & { problems: Problem[] }>('PUT', `/api/workflows/${encodeURIComponent(id)}?draft=1`, body),
  /**
   * The same draft save, sent as the page goes away (`keepalive`: the browser finishes it after the tab closes; it
   * refuses bodies over 64 KB, which then stay in the local draft). Returns false when the browser would not send it.
   */
  saveWorkflowOnLeave: (
    id: string,
    body: { name?: string; description?: string; engine?: EngineChoice; graph?: Graph; revision?: number },
  ): boolean => {
    const text = JSON.stringify(body);
    if (new Blob([text]).size > KEEPALIVE_MAX_BYTES) return false;
    void fetch(`/api/workflows/${encodeURIComponent(id)}?draft=1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: text,
      keepalive: true,
    }).catch(() => undefined);
    return true;
  },
  deleteWorkflow: (id: string) => call<void>('DELETE', `/api/workflows/${encodeURIComponent(id)}`),
  exportWorkflow: (id: string) => call<ExportDoc>('GET', `/api/workflows/${encodeURIComponent(id)}/export`),
  importWorkflow: (doc: unknown) => call<Workflow & { problems: Problem[] }>('POST', '/api/workflows/import', doc),
  validate: (id: string, graph: Graph, signal?: AbortSignal) =>
    call<ValidationResult>('POST', `/api/workflows/${encodeURIComponent(id)}/validate`, { graph }, signal),
  /** `breakpoints`: node ids the run pauses before (Continue / Step / Stop in the run panel). */
  startRun: (id: string, inputs: Record<string, unknown>, breakpoints: string[] = []) =>
    call<{ runId: string; status: RunStatus; engine: string }>(
      'POST',
      `/api/workflows/${encodeURIComponent(id)}/runs`,
      breakpoints.length ? { inputs, breakpoints } : { inputs },
    ),
  listRuns: (id: string) => call<RunSummary[]>('GET', `/api/workflows/${encodeURIComponent(id)}/runs`),
  getRun: (runId: string) => call<RunView>('GET', `/api/runs/${encodeURIComponent(runId)}`),
  resumeRun: (runId: string, fromNodeId?: string) =>
    call<{ runId: string; status: RunStatus }>(
      'POST',
      `/api/runs/${encodeURIComponent(runId)}/resume`,
      fromNodeId ? { fromNodeId } : {},
    ),
  cancelRun: (runId: string) =>
    call<{ runId: string; status: RunStatus }>('POST', `/api/runs/${encodeURIComponent(runId)}/cancel`),
  answerRun: (runId: string, nodeId: string, answer: unknown) =>
    call<unknown>('POST', `/api/runs/${encodeURIComponent(runId)}/answer`, { nodeId, answer }),
  runCheckpoints: (runId: string) => call<RunCheckpoints>('GET', `/api/runs/${encodeURIComponent(runId)}/checkpoints`),
  /** `state`: new outputs for steps up to the checkpoint (nodeId → output). */
  forkRun: (runId: string, checkpointId: string, state?: Record<string, unknown>) =>
    call<{ runId: string; status: RunStatus; forkedFrom: { runId: string; checkpointId: string; step: number } }>(
      'POST',
      `/api/runs/${encodeURIComponent(runId)}/fork`,
      state && Object.keys(state).length ? { checkpointId, state } : { checkpointId },
    ),
};

/** GET /api/runs/:id/checkpoints: one per succeeded node, in the order they finished. */
export interface RunCheckpoints {
  runId: string;
  engine: string;
  inputs: Record<string, unknown>;
  checkpoints: RunCheckpoint[];
}

export interface ExportDoc {
  format: string;
  formatVersion: number;
  exportedAt: string;
  workflow: { name: string; description: string; engine: EngineChoice; graph: Graph };
}

export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
