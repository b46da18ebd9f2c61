/**
 * The one place that maps errors to HTTP. Every handler is wrapped with `route()`: PaiError → its status and
 * `{ error: { code, message, path? } }`; anything unexpected → 500 INTERNAL with a generic message (the detail
 * goes to the server log only, never to the client).
 *
 * Messages follow the request's language (lib/i18n/api-errors.ts; the code never changes): `route()` keeps what the
 * language is chosen from while the handler runs, and every errorResponse() made meanwhile — also by wrappers inside
 * it such as v1Route, the webhook and the chat-completions facade — reads its language (requestLocale()) and answers
 * in it, with `content-language` set. The language is worked out only when an error is answered: a successful
 * request costs two header reads.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ZodError, type z } from 'zod';
import { PaiError, WorkflowInvalidError } from '@/engine/errors';
import { isDatabaseUnreachable } from '@/engine/store/app/errors';
import { zodProblems } from '@/engine/validation/zod-problems';
import { localizeError, rememberZodIssues } from '@/lib/i18n/api-errors';
import { DEFAULT_LOCALE, requestLocale, type Locale } from '@/lib/i18n/locales';
import { DEFAULT_ERROR_STATUS, STATUS_OF_CODE, WORKFLOW_INVALID_STATUS } from './error-statuses';
import { refuseNulInQuery } from './refused-input';

/**
 * What a request's language is chosen from, copied out of the Request: the async-local store must not hold the
 * Request itself. Every promise made while a handler runs keeps the store, and on Node 20 some of those promises
 * (a web stream's closed-promise) outlive the request: holding the Request there kept each one — its response, its
 * socket, ~13 KB — until the server ran out of heap (bench/soak.bench.ts).
 */
interface LanguageSource {
  url: string;
  cookie: string | null;
  acceptLanguage: string | null;
}
const currentRequest = new AsyncLocalStorage<LanguageSource>();

/** Plain strings, and no closure: a closure made here could share its scope with the caller's `req`. */
function languageSource(req: Request): LanguageSource {
  return { url: req.url, cookie: req.headers.get('cookie'), acceptLanguage: req.headers.get('accept-language') };
}

/** The language of the request being handled (inside route()), else English. */
export function currentErrorLocale(): Locale {
  const source = currentRequest.getStore();
  if (!source) return DEFAULT_LOCALE;
  const { url, cookie, acceptLanguage } = source;
  const headers = {
    get: (name: string) => (name === 'cookie' ? cookie : name === 'accept-language' ? acceptLanguage : null),
  };
  return requestLocale({ url, headers });
}

/** Statuses a handler chose for an error because its context gives the code another meaning (see answerWith). */
const chosenStatus = new WeakMap<PaiError, number>();

/**
 * Answers `err` with `status` instead of its code's status in the table: for a handler whose context gives the code
 * another meaning (a graph problem in the body of a save is the request's fault, 400, not the stored workflow's, 422).
 */
export function answerWith<E extends PaiError>(err: E, status: number): E {
  chosenStatus.set(err, status);
  return err;
}

/**
 * The HTTP status `err` is answered with: the handler's choice; else 422 for a stored workflow that cannot run or be
 * published (whatever its problem's code); else its code's in the one table; else 400.
 */
export function httpStatusOf(err: PaiError): number {
  const chosen = chosenStatus.get(err);
  if (chosen !== undefined) return chosen;
  if (err instanceof WorkflowInvalidError) return WORKFLOW_INVALID_STATUS;
  return STATUS_OF_CODE[err.code] ?? DEFAULT_ERROR_STATUS;
}

/** An error whose answer carries extra headers (`details.headers`: errorResponse sends them, never in the body). */
export function httpError(
  code: string,
  message: string,
  status: number,
  headers: Record<string, string>,
  path?: string,
): PaiError {
  return answerWith(new PaiError(code, message, { path, details: { headers } }), status);
}

/**
 * The answer for `err`: its status, `{ error: { code, message, path? } }` in the request's language, Retry-After
 * when the error has `details.retryAfter`, and the headers in `details.headers` (never sent in the body).
 * `extra`: more fields for the error object (e.g. OpenAI's `type` / `param` on the chat-completions facade).
 * `locale`: the language of the message; by default the request's (see route()).
 */
export function errorResponse(
  err: PaiError,
  headers?: HeadersInit,
  extra?: Record<string, unknown>,
  locale: Locale = currentErrorLocale(),
): Response {
  const { errors, ...error } = localizeError(err, locale);
  const body = { error: { ...error, ...extra, ...(errors ? { errors } : {}) } };
  const res = Response.json(body, { status: httpStatusOf(err), headers });
  res.headers.set('content-language', locale);
  const own = (err.details as { headers?: unknown } | undefined)?.headers;
  if (own && typeof own === 'object')
    for (const [name, value] of Object.entries(own)) if (!res.headers.has(name)) res.headers.set(name, String(value));
  // An error that says when to try again (`details.retryAfter`, seconds) says it in the standard header too.
  const retryAfter = (err.details as { retryAfter?: unknown } | undefined)?.retryAfter;
  if (typeof retryAfter === 'number' && !res.headers.has('retry-after'))
    res.headers.set('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
  return res;
}

/** Seconds a client is told to wait before retrying while the database does not answer. */
const DB_RETRY_AFTER_S = 5;

export function toPaiError(e: unknown): PaiError | null {
  if (e instanceof PaiError) return e;
  if (e instanceof ZodError) return invalidInputError(e.issues);
  if (isDatabaseUnreachable(e))
    return new PaiError('DB_UNAVAILABLE', 'the database is not answering right now; retry shortly', {
      retryable: true,
      details: { retryAfter: DB_RETRY_AFTER_S },
    });
  return null;
}

/**
 * A 400 naming every issue of a request's input: UNKNOWN_KEY for a key the (strict) schema does not know, with
 * `details.suggestion` when the `schema` (if given) knows a close one; VALIDATION_ERROR for the rest. `base` prefixes
 * the paths (the part of the body the input came from).
 */
export function invalidInputError(
  issues: readonly z.core.$ZodIssue[],
  from: { schema?: z.ZodType; input?: unknown; base?: string } = {},
): PaiError {
  const problems = zodProblems(from.schema, from.input, issues, { code: 'VALIDATION_ERROR', base: from.base });
  const [first] = problems;
  const err = new PaiError(first.code, first.message, {
    path: first.path,
    details: { ...first.details, errors: problems },
  });
  return answerWith(rememberZodIssues(err, issuesInOrderOf(issues)), 400);
}

/** The issue behind each of zodProblems' problems (unknown keys first, one per key), for their Chinese wording. */
function issuesInOrderOf(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const unknown = issues.filter((i) => i.code === 'unrecognized_keys');
  return [...unknown.flatMap((i) => i.keys.map(() => i)), ...issues.filter((i) => i.code !== 'unrecognized_keys')];
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

const INTERNAL_MESSAGE = 'internal error; see the server log';

export function route<C>(fn: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      refuseNulInQuery(req.url);
      return await currentRequest.run(languageSource(req), () => fn(req, ctx));
    } catch (e) {
      const locale = requestLocale(req);
      const pe = toPaiError(e);
      if (pe) return errorResponse(pe, undefined, undefined, locale);
      console.error('[paiflow] unhandled error in', req.method, new URL(req.url).pathname, (e as Error)?.message);
      return errorResponse(new PaiError('INTERNAL', INTERNAL_MESSAGE), undefined, undefined, locale);
    }
  };
}
