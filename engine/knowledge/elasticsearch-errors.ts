/**
 * Elasticsearch failures as PaiErrors: a response error keeps its status and reason (502, retryable for 5xx and
 * 429), a connection problem is KNOWLEDGE_STORE_UNAVAILABLE (503, retryable).
 *
 * Licence (403 non-compliant) and version (unknown media type / request syntax) errors get their own codes,
 * KNOWLEDGE_LICENSE_REQUIRED and KNOWLEDGE_VERSION_UNSUPPORTED, with the fix in the message.
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

/** A 403 from a feature the cluster's licence lacks (ES: security_exception "current license is non-compliant"). */
export function isLicenceError(e: unknown): boolean {
  if (!isResponseError(e) || e.statusCode !== 403) return false;
  const err = errorBodyOf(e)?.error as Record<string, unknown> | undefined;
  return !!err && ('license.expired.feature' in err || /licen[cs]e/i.test(String(err.reason ?? '')));
}

/** Answers of a server too old (or too new) for our requests: unknown media type, retriever or query syntax. */
const VERSION_ERROR_TYPES = new Set(['media_type_header_exception', 'x_content_parse_exception', 'parsing_exception']);
const VERSION_REASON = /compatible-with|unknown (retriever|key|query)|\[retriever\]|\[rrf\]|unrecognized parameter/i;

export function esError(e: unknown, what: string): PaiError {
  if (e instanceof PaiError) return e;
  if (isResponseError(e)) {
    const body = errorBodyOf(e);
    const reason = body?.error?.root_cause?.[0]?.reason ?? body?.error?.reason ?? e.message;
    if (isLicenceError(e)) {
      return new PaiError(
        'KNOWLEDGE_LICENSE_REQUIRED',
        `Elasticsearch ${what} needs a licence feature the cluster lacks (${reason}); ` +
          'set KNOWLEDGE_FUSION=rescore, or use an Enterprise or trial licence',
        { status: 502, cause: e },
      );
    }
    const type = body?.error?.type ?? '';
    if (VERSION_ERROR_TYPES.has(type) && VERSION_REASON.test(reason)) {
      return new PaiError(
        'KNOWLEDGE_VERSION_UNSUPPORTED',
        `Elasticsearch ${what} failed: the server does not understand this request (${reason}); ` +
          'PaiFlow needs Elasticsearch 8.15 or later',
        { status: 502, cause: e },
      );
    }
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
