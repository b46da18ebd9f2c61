/**
 * The one place that maps errors to HTTP. Every handler is wrapped with `route()`: PaiError → its status and
 * `{ error: { code, message, path? } }`; anything unexpected → 500 INTERNAL with a generic message (the detail
 * goes to the server log only, never to the client).
 *
 * Messages follow the request's language (lib/i18n/api-errors.ts; the code never changes): `route()` keeps the
 * request while the handler runs, and every errorResponse() made meanwhile — also by wrappers inside it such as
 * v1Route, the webhook and the chat-completions facade — reads its language (requestLocale()) and answers in it, with
 * `content-language` set. The language is read only when an error is answered: successful requests never pay for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ZodError } from 'zod';
import { PaiError } from '@/engine/errors';
import { toJsonPath } from '@/engine/graph/schema';
import { localizeError, rememberZodIssues } from '@/lib/i18n/api-errors';
import { DEFAULT_LOCALE, requestLocale, type Locale } from '@/lib/i18n/locales';

const currentRequest = new AsyncLocalStorage<Request>();

/** The language of the request being handled (inside route()), else English. */
export function currentErrorLocale(): Locale {
  const req = currentRequest.getStore();
  return req ? requestLocale(req) : DEFAULT_LOCALE;
}

/**
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
  const res = Response.json(body, { status: err.status, headers });
  res.headers.set('content-language', locale);
  return res;
}

export function toPaiError(e: unknown): PaiError | null {
  if (e instanceof PaiError) return e;
  if (e instanceof ZodError) {
    const i = e.issues[0];
    const pe = new PaiError('VALIDATION_ERROR', i.message, {
      status: 400,
      path: toJsonPath(i.path),
      details: {
        errors: e.issues.map((x) => ({ code: 'VALIDATION_ERROR', message: x.message, path: toJsonPath(x.path) })),
      },
    });
    return rememberZodIssues(pe, e.issues);
  }
  return null;
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

const INTERNAL_MESSAGE = 'internal error; see the server log';

export function route<C>(fn: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      return await currentRequest.run(req, () => fn(req, ctx));
    } catch (e) {
      const locale = requestLocale(req);
      const pe = toPaiError(e);
      if (pe) return errorResponse(pe, undefined, undefined, locale);
      console.error('[paiflow] unhandled error in', req.method, new URL(req.url).pathname, (e as Error)?.message);
      return errorResponse(new PaiError('INTERNAL', INTERNAL_MESSAGE, { status: 500 }), undefined, undefined, locale);
    }
  };
}
