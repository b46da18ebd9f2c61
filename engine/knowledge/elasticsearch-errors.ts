/**
 * Elasticsearch failures as PaiErrors, each kind with its own code and the fix in the message:
 * - licence (403 non-compliant): KNOWLEDGE_LICENSE_REQUIRED;
 * - version (unknown media type, retriever or query syntax; the 9.x client's compatible-with=9 on an 8.x server):
 *   KNOWLEDGE_VERSION_UNSUPPORTED;
 * - permission (403 security_exception, not a licence one): KNOWLEDGE_STORE_FORBIDDEN, naming the privileges;
 *   bad credentials (401): KNOWLEDGE_STORE_UNAUTHORIZED;
 * - mapping (strict mapping, mapper/document parsing): KNOWLEDGE_INDEX_MISMATCH (409);
 * - a missing index: KNOWLEDGE_INDEX_NOT_FOUND (404);
 * - anything else keeps its status and reason as KNOWLEDGE_STORE_ERROR (502, retryable for 5xx and 429); a connection
 *   problem is KNOWLEDGE_STORE_UNAVAILABLE (503, retryable).
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
/** A document or mapping the index's mapping refuses. */
const MAPPING_ERROR_TYPES = new Set([
  'strict_dynamic_mapping_exception',
  'mapper_parsing_exception',
  'document_parsing_exception',
  'mapper_exception',
]);

/** The privileges the knowledge store needs (docs/operations.md has the role). */
export const PRIVILEGES_HINT =
  'the API key (ELASTICSEARCH_API_KEY) needs the cluster privilege monitor and the index privileges ' +
  'create_index, manage, read, write (or all) on ELASTICSEARCH_INDEX_PREFIX* (default paiflow-kb-*)';

/** A PaiError for an Elasticsearch error of a known kind (type, reason), or null. Also used for bulk items. */
export function classifiedError(
  type: string,
  reason: string,
  status: number | undefined,
  what: string,
  cause?: unknown,
): PaiError | null {
  if (MAPPING_ERROR_TYPES.has(type) || (type === 'illegal_argument_exception' && /mapp(er|ing)/i.test(reason))) {
    return new PaiError(
      'KNOWLEDGE_INDEX_MISMATCH',
      `Elasticsearch ${what}: the index mapping refuses it (${type}: ${reason}); the index was not made by this ` +
        'PaiFlow version: delete it and upload the documents again, or use another ELASTICSEARCH_INDEX_PREFIX',
      { cause },
    );
  }
  if (type === 'index_not_found_exception' || (status === 404 && !type)) {
    return new PaiError(
      'KNOWLEDGE_INDEX_NOT_FOUND',
      `Elasticsearch ${what}: the index does not exist (${reason}); it was deleted, or the knowledge base was ` +
        'never indexed: create the knowledge base again',
      { cause },
    );
  }
  if (status === 401) {
    return new PaiError(
      'KNOWLEDGE_STORE_UNAUTHORIZED',
      `Elasticsearch refused the credentials (${what}: ${reason}); check ELASTICSEARCH_API_KEY (or the user and ` +
        'password in ELASTICSEARCH_URL)',
      { cause },
    );
  }
  if (status === 403 && type === 'security_exception') {
    return new PaiError(
      'KNOWLEDGE_STORE_FORBIDDEN',
      `Elasticsearch ${what} is not allowed (${reason}); ${PRIVILEGES_HINT}`,
      {
        cause,
      },
    );
  }
  if (type === 'media_type_header_exception' && /found 9|compatible-with=9/.test(reason)) {
    return new PaiError(
      'KNOWLEDGE_VERSION_UNSUPPORTED',
      `Elasticsearch ${what}: the server is 8.x and refuses the 9.x client's compatible-with=9 headers (${reason}); ` +
        'the client must be made with createElasticsearchClient (engine/knowledge/elasticsearch-client.ts)',
      { cause },
    );
  }
  if (VERSION_ERROR_TYPES.has(type) && VERSION_REASON.test(reason)) {
    return new PaiError(
      'KNOWLEDGE_VERSION_UNSUPPORTED',
      `Elasticsearch ${what} failed: the server does not understand this request (${reason}); ` +
        'PaiFlow needs Elasticsearch 8.15 or later, 8.x or 9.x',
      { cause },
    );
  }
  return null;
}

/** The error for a bulk response with `errors: true`, from its first failed item (a mapping one, a dropped index…). */
export function bulkError(
  items: Array<Partial<Record<string, { status?: number; error?: { type?: string; reason?: string | null } }>>>,
  batchSize: number,
  index: string,
): PaiError {
  const failed = items.map((it) => Object.values(it)[0]).filter((r) => r?.error);
  const first = failed[0];
  const type = first?.error?.type ?? 'error';
  const reason = first?.error?.reason ?? '';
  const what = `indexing ${failed.length} of ${batchSize} chunks into ${index}`;
  return (
    classifiedError(type, reason, first?.status, what) ??
    new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch rejected ${what}: ${type}: ${reason}`, {
      retryable: (first?.status ?? 500) >= 500 || first?.status === 429,
    })
  );
}

/** ES's reason for a response error: the root cause's, then what caused it (media-type refusals say why there). */
export function reasonOf(e: unknown): string {
  if (!isResponseError(e)) return (e as Error)?.message ?? String(e);
  const err = errorBodyOf(e)?.error;
  const causedBy = (err as { caused_by?: { reason?: string } } | undefined)?.caused_by?.reason;
  return [err?.root_cause?.[0]?.reason ?? err?.reason ?? e.message, causedBy].filter(Boolean).join(': ');
}

export function esError(e: unknown, what: string): PaiError {
  if (e instanceof PaiError) return e;
  if (isResponseError(e)) {
    const err = errorBodyOf(e)?.error;
    const reason = reasonOf(e);
    if (isLicenceError(e)) {
      return new PaiError(
        'KNOWLEDGE_LICENSE_REQUIRED',
        `Elasticsearch ${what} needs a licence feature the cluster lacks (${reason}); ` +
          'set KNOWLEDGE_FUSION=rescore, or use an Enterprise or trial licence',
        { cause: e },
      );
    }
    const known = classifiedError(err?.type ?? '', reason, e.statusCode, what, e);
    if (known) return known;
    return new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch ${what} failed (${e.statusCode}): ${reason}`, {
      retryable: (e.statusCode ?? 500) >= 500 || e.statusCode === 429,
      cause: e,
    });
  }
  if (CONNECTION_ERRORS.has((e as Error)?.name)) {
    return new PaiError(
      'KNOWLEDGE_STORE_UNAVAILABLE',
      `Elasticsearch is unreachable (${what}): ${(e as Error).message}`,
      { retryable: true, cause: e },
    );
  }
  return new PaiError('KNOWLEDGE_STORE_ERROR', `Elasticsearch ${what} failed: ${(e as Error)?.message ?? String(e)}`, {
    cause: e,
  });
}
