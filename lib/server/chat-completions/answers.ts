/**
 * The pieces of a chat-completion answer that the JSON and the SSE reply share: errors in PaiFlow's shape plus
 * OpenAI's `type` and `param` (so SDKs raise their typed errors), the RUN_FAILED / RUN_PENDING errors of a run, its
 * token usage and its `created` time.
 */
import type { RunRecord } from '@/engine/store/types';
import { errorResponse, httpStatusOf, toPaiError } from '@/lib/http/errors';
import type { App } from '../app-types';

export const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

/** OpenAI's error `type` for a PaiFlow error, so SDKs show a proper error. */
export function openAiErrorType(status: number, code: string): string {
  if (code === 'RUN_FAILED') return 'workflow_error';
  if (code === 'RUN_PENDING') return 'workflow_pending';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function errorJson(
  status: number,
  code: string,
  message: string,
  opts: { path?: string; extra?: Record<string, unknown> } = {},
) {
  return {
    code,
    message,
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    type: openAiErrorType(status, code),
    param: opts.path ?? null,
    ...opts.extra,
  };
}

export function errorAnswer(e: unknown, req: Request): Response {
  const pe = toPaiError(e);
  if (!pe) {
    console.error('[paiflow] unhandled error in', req.method, new URL(req.url).pathname, (e as Error)?.message);
    return Response.json({ error: errorJson(500, 'INTERNAL', 'internal error; see the server log') }, { status: 500 });
  }
  const headers = (pe.details as { headers?: Record<string, string> } | undefined)?.headers;
  return errorResponse(pe, headers, { type: openAiErrorType(httpStatusOf(pe), pe.code), param: pe.path ?? null });
}

export function failedError(run: RunRecord) {
  const why =
    run.status === 'failed'
      ? `failed: ${run.error?.message ?? 'unknown error'}`
      : `ended ${run.status}${run.error?.message ? `: ${run.error.message}` : ''}`;
  return errorJson(422, 'RUN_FAILED', `run ${run.id} ${why}`, {
    extra: { runId: run.id, status: run.status, ...(run.error ? { runError: run.error } : {}) },
  });
}

export function pendingError(run: RunRecord, urls: { statusUrl: string; eventsUrl: string }) {
  const what = run.status === 'waiting' ? 'is waiting for human input' : `is still ${run.status}`;
  return errorJson(202, 'RUN_PENDING', `run ${run.id} ${what}; poll statusUrl for its outcome`, {
    extra: { runId: run.id, status: run.status, ...urls },
  });
}

/** Token usage summed over the run's node snapshots (LLM and agent nodes record it); zeros when none did. */
export async function usageOf(app: App, runId: string) {
  let prompt = 0;
  let completion = 0;
  for (const n of await app.store.getNodeRuns(runId).catch(() => [])) {
    prompt += Number(n.usage?.inputTokens) || 0;
    completion += Number(n.usage?.outputTokens) || 0;
  }
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export const createdOf = (run: RunRecord) => Math.floor((Date.parse(run.createdAt) || Date.now()) / 1000);
