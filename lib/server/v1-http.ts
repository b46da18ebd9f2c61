/**
 * HTTP plumbing shared by the published (v1) routes: CORS on every answer (errors too) and the OPTIONS preflight,
 * and response headers that some errors need (WWW-Authenticate on 401, Retry-After on 429). Errors are still mapped
 * by lib/http/errors.ts; a PaiError may carry `details.headers` for the answer, which are never sent in the body.
 */
import { PaiError } from '@/engine/errors';
import { errorResponse, route, toPaiError } from '@/lib/http/errors';
import { corsOrigins } from './v1-settings';

const ALLOW_HEADERS = 'authorization, content-type, idempotency-key, last-event-id';
const EXPOSE_HEADERS = 'location, retry-after, www-authenticate, x-run-id';

function corsHeaders(req: Request): Record<string, string> {
  const allowed = corsOrigins();
  if (allowed === '*') return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE_HEADERS };
  const origin = req.headers.get('origin');
  const h: Record<string, string> = { vary: 'Origin' };
  if (origin && allowed.has(origin)) Object.assign(h, { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS });
  return h;
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

export function v1Route<C>(fn: Handler<C>): Handler<C> {
  const inner = route<C>(async (req, ctx) => {
    try {
      return await fn(req, ctx);
    } catch (e) {
      const pe = toPaiError(e);
      if (!pe) throw e;
      return errorResponse(pe, (pe.details as { headers?: Record<string, string> } | undefined)?.headers);
    }
  });
  return async (req, ctx) => withHeaders(await inner(req, ctx), corsHeaders(req));
}

/** The OPTIONS handler of every v1 route. Browsers send no credentials on a preflight, so it needs none. */
export function preflight(methods: string) {
  return async (req: Request) => new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(req),
      'access-control-allow-methods': `${methods}, OPTIONS`,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': '600',
      allow: `${methods}, OPTIONS`,
    },
  });
}

/** An error whose answer carries extra headers. */
export function httpError(code: string, message: string, status: number, headers: Record<string, string>, path?: string): PaiError {
  return new PaiError(code, message, { status, path, details: { headers } });
}

/**
 * The origin the client used, for absolute URLs in answers: the Host header (Next's req.url may say "localhost"),
 * with X-Forwarded-Proto's scheme behind a TLS-terminating proxy.
 */
export function originOf(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get('host');
  const proto = req.headers.get('x-forwarded-proto')?.split(',')[0].trim().toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1);
  return `${scheme}://${host && /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? host : url.host}`;
}
