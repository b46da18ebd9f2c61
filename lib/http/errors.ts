/**
 * The one place that maps errors to HTTP. Every handler is wrapped with `route()`: PaiError → its status and
 * `{ error: { code, message, path? } }`; anything unexpected → 500 INTERNAL with a generic message (the detail
 * goes to the server log only, never to the client).
 */
import { ZodError } from 'zod';
import { PaiError } from '@/engine/errors';
import { toJsonPath } from '@/engine/graph/schema';

/** `extra`: more fields for the error object (e.g. OpenAI's `type` / `param` on the chat-completions facade). */
export function errorResponse(err: PaiError, headers?: HeadersInit, extra?: Record<string, unknown>): Response {
  const details = err.details as { errors?: unknown } | undefined;
  const body = {
    error: {
      code: err.code,
      message: err.message,
      ...(err.path !== undefined ? { path: err.path } : {}),
      ...extra,
      ...(details?.errors ? { errors: details.errors } : {}),
    },
  };
  return Response.json(body, { status: err.status, headers });
}

export function toPaiError(e: unknown): PaiError | null {
  if (e instanceof PaiError) return e;
  if (e instanceof ZodError) {
    const i = e.issues[0];
    return new PaiError('VALIDATION_ERROR', i.message, {
      status: 400,
      path: toJsonPath(i.path),
      details: {
        errors: e.issues.map((x) => ({ code: 'VALIDATION_ERROR', message: x.message, path: toJsonPath(x.path) })),
      },
    });
  }
  return null;
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

export function route<C>(fn: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      return await fn(req, ctx);
    } catch (e) {
      const pe = toPaiError(e);
      if (pe) return errorResponse(pe);
      console.error('[paiflow] unhandled error in', req.method, new URL(req.url).pathname, (e as Error)?.message);
      return Response.json(
        { error: { code: 'INTERNAL', message: 'internal error; see the server log' } },
        { status: 500 },
      );
    }
  };
}
