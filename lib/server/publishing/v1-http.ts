/**
 * HTTP plumbing shared by the published (v1) routes: CORS on every answer (errors too) and the OPTIONS preflight,
 * and response headers that some errors need (WWW-Authenticate on 401, Retry-After on 429). Errors are still mapped
 * by lib/http/errors.ts; a PaiError may carry `details.headers` for the answer, which are never sent in the body.
 *
 * CORS is per workflow: its `corsOrigins` (["*"], a list of exact origins, or [] for none), or the server default
 * (CORS_ORIGINS) when it has none. A handler that has the workflow at hand records its origins (corsOf); otherwise,
 * for a browser request (one with an Origin header), the route's workflow is looked up by slug or by run id.
 */
import { errorResponse, route, toPaiError } from '@/lib/http/errors';
import { getApp } from '../app';
import { corsOrigins } from './v1-settings';

const ALLOW_HEADERS = 'authorization, content-type, idempotency-key, last-event-id';
/** A Host header worth echoing: a name or IPv4 address, or a bracketed IPv6 address, each with an optional port. */
const HOST_HEADER_RE = /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
const EXPOSE_HEADERS = 'location, retry-after, www-authenticate, x-run-id';

/** How a route finds the workflow whose CORS origins apply: by the `slug` or the `runId` path parameter. */
export type CorsScope = 'slug' | 'run';
type Origins = string[] | null | undefined;

const known = new WeakMap<Request, Origins>();

/** Records the CORS origins of the workflow this request addresses (saves a lookup). */
export function corsOf(req: Request, workflow: { corsOrigins: string[] | null }): void {
  known.set(req, workflow.corsOrigins);
}

async function originsFor(
  req: Request,
  scope: CorsScope,
  params: Promise<Record<string, string>> | undefined,
): Promise<Origins> {
  if (known.has(req)) return known.get(req);
  if (!req.headers.get('origin') || !params) return null; // not a browser call: the default says enough
  const p = await params;
  const app = await getApp();
  return scope === 'slug'
    ? app.store.corsOriginsFor({ slug: p.slug ?? '' })
    : app.store.corsOriginsFor({ runId: p.runId ?? '' });
}

function corsHeaders(req: Request, origins: Origins): Record<string, string> {
  const allowed = origins ? (origins.includes('*') ? '*' : new Set(origins)) : corsOrigins();
  if (allowed === '*') return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE_HEADERS };
  const origin = req.headers.get('origin');
  const h: Record<string, string> = { vary: 'Origin' };
  if (origin && allowed.has(origin))
    Object.assign(h, { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS });
  return h;
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;
type ParamsCtx = { params?: Promise<Record<string, string>> };

export function v1Route<C>(scope: CorsScope, fn: Handler<C>): Handler<C> {
  const inner = route<C>(async (req, ctx) => {
    try {
      return await fn(req, ctx);
    } catch (e) {
      const pe = toPaiError(e);
      if (!pe) throw e;
      return errorResponse(pe, (pe.details as { headers?: Record<string, string> } | undefined)?.headers);
    }
  });
  return async (req, ctx) => {
    const res = await inner(req, ctx);
    const origins = await originsFor(req, scope, (ctx as ParamsCtx)?.params).catch(() => null);
    return withHeaders(res, corsHeaders(req, origins));
  };
}

/** The OPTIONS handler of every v1 route. Browsers send no credentials on a preflight, so it needs none. */
export function preflight(scope: CorsScope, methods: string) {
  return async (req: Request, ctx?: ParamsCtx) =>
    new Response(null, {
      status: 204,
      headers: {
        ...corsHeaders(req, await originsFor(req, scope, ctx?.params).catch(() => null)),
        'access-control-allow-methods': `${methods}, OPTIONS`,
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '600',
        allow: `${methods}, OPTIONS`,
      },
    });
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
  return `${scheme}://${host && HOST_HEADER_RE.test(host) ? host : url.host}`;
}
