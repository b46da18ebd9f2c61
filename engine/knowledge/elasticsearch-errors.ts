/**
 * Elasticsearch failures as PaiErrors: a response error keeps its status and reason (502, retryable for 5xx and
 * 429), a connection problem is KNOWLEDGE_STORE_UNAVAILABLE (503, retryable).
 *
 * Errors are recognised by name, not instanceof: @elastic/elasticsearch ships CJS and ESM builds, and a client from
 * one build (or a test double) throws error classes the other build's `errors` does not know.
 */
import { PaiError } from '../errors';

/** The part of an Elasticsearch error body we read. */
interface EsErrorBody {
  error?: { type?: string; reason?: string; root_cause?: Array<{ reason?: string }> };
}

type EsResponseError = Error & { statusCode?: number; body?: unknown };

/** The body as an error body when it is an object (a string body has no `error` either way). */
const errorBodyOf = (e: EsResponseError) => e.body as EsErrorBody | undefined;

export const isResponseError = (e: unknown): e is EsResponseError => (e as Error)?.name === 'ResponseError';
const CONNECTION_ERRORS = new Set([
  'ConnectionError',
  'TimeoutError',
  'NoLivingConnectionsError',
  'RequestAbortedError',
]);
export const errorType = (e: unknown) => (isResponseError(e) ? errorBodyOf(e)?.error?.type : undefined);

export function esError(e: unknown, what: string): PaiError {
  if (e instanceof PaiError) return e;
  if (isResponseError(e)) {
    const body = errorBodyOf(e);
    const reason = body?.error?.root_cause?.[0]?.reason ?? body?.error?.reason ?? e.message;
    return new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch ${what} failed (${e.statusCode}): ${reason}`, {
      status: 502,
      retryable: (e.statusCode ?? 500) >= 500 || e.statusCode === 429,
      cause: e,
    });
  }
  if (CONNECTION_ERRORS.has((e as Error)?.name)) {
    return new PaiError(
      'KNOWLEDGE_STORE_UNAVAILABLE',
      `Elasticsearch is unreachable (${what}): ${(e as Error).message}`,
      { status: 503, retryable: true, cause: e },
    );
  }
  return new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch ${what} failed: ${(e as Error)?.message ?? String(e)}`, {
    status: 502,
    cause: e,
  });
}
