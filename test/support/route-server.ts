/**
 * A real HTTP server (node:http on 127.0.0.1) in front of the Next route handlers, for tests that must go over the
 * wire (fetch, curl) without building Next. It maps paths to the same route modules Next would and serves them with
 * the same bridge as the production server's direct routes (lib/http/node-bridge.mjs).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { matchPath, serveWithHandler, type WebHandler } from '@/lib/http/node-bridge.mjs';
import { getApp } from '@/lib/server/app';
import { ownerToken } from './owner';

type RouteModule = Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', WebHandler>>;

/** Patterns like "/api/runs/:runId/events", in the order they are tried. */
export async function defaultRoutes(): Promise<Array<[string, RouteModule]>> {
  return [
    ['/api/workflows', await import('@/app/api/workflows/route')],
    ['/api/workflows/:id', await import('@/app/api/workflows/[id]/route')],
    ['/api/workflows/:id/runs', await import('@/app/api/workflows/[id]/runs/route')],
    ['/api/workflows/:id/publish', await import('@/app/api/workflows/[id]/publish/route')],
    ['/api/workflows/:id/versions', await import('@/app/api/workflows/[id]/versions/route')],
    ['/api/workflows/:id/versions/:version', await import('@/app/api/workflows/[id]/versions/[version]/route')],
    [
      '/api/workflows/:id/versions/:version/rollback',
      await import('@/app/api/workflows/[id]/versions/[version]/rollback/route'),
    ],
    ['/api/workflows/:id/api-keys', await import('@/app/api/workflows/[id]/api-keys/route')],
    ['/api/api-keys/:id', await import('@/app/api/api-keys/[id]/route')],
    ['/api/runs/:runId', await import('@/app/api/runs/[runId]/route')],
    ['/api/runs/:runId/events', await import('@/app/api/runs/[runId]/events/route')],
    ['/api/runs/:runId/resume', await import('@/app/api/runs/[runId]/resume/route')],
    ['/api/v1/workflows/:slug/run', await import('@/app/api/v1/workflows/[slug]/run/route')],
    ['/api/v1/workflows/:slug/openapi.json', await import('@/app/api/v1/workflows/[slug]/openapi.json/route')],
    ['/api/v1/runs/:runId', await import('@/app/api/v1/runs/[runId]/route')],
    ['/api/v1/runs/:runId/events', await import('@/app/api/v1/runs/[runId]/events/route')],
    ['/api/v1/chat/completions', await import('@/app/api/v1/chat/completions/route')],
  ];
}

async function handle(
  routes: Array<[string, RouteModule]>,
  req: IncomingMessage,
  res: ServerResponse,
  signIn?: () => Promise<string>,
) {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  // The harness signs in once: management routes without credentials are called as the app's owner.
  if (signIn && !url.pathname.startsWith('/api/v1/') && !req.headers.authorization && !req.headers.cookie)
    req.headers.authorization = `Bearer ${await signIn()}`;
  let found: { mod: RouteModule; params: Record<string, string> } | undefined;
  for (const [pattern, mod] of routes) {
    const params = matchPath(pattern, url.pathname);
    if (params) {
      found = { mod, params };
      break;
    }
  }
  const handler = found?.mod[req.method as keyof RouteModule];
  if (!found || !handler) {
    res.writeHead(found ? 405 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { code: found ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND', message: `${req.method} ${url.pathname}` },
      }),
    );
    return;
  }
  await serveWithHandler(handler, found.params, req, res);
}

export interface RouteServer {
  server: Server;
  baseUrl: string;
  close(): Promise<void>;
}

/** `opts.anonymous`: send management requests without credentials as they come (default: as the app's owner). */
export async function startRouteServer(
  routes?: Array<[string, RouteModule]>,
  opts: { anonymous?: boolean } = {},
): Promise<RouteServer> {
  const table = routes ?? (await defaultRoutes());
  const signIn = opts.anonymous ? undefined : async () => ownerToken(await getApp());
  const server = createServer((req, res) => {
    handle(table, req, res, signIn).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: (e as Error).message } }));
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
