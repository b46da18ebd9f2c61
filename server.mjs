#!/usr/bin/env node
// The production server (`npm start`, after `npm run build`). Next.js serves the editor and the management API as
// usual; the published API's routes (/api/v1/…, the webhooks under /api/hooks/) and artifacts are dispatched straight
// to their route handlers — the same functions, from Next's own build — without Next's router, which costs about a
// millisecond of CPU per request (and drops a handler's Content-Length). Those route modules list themselves in
// lib/http/direct-routes.ts when loaded; this server loads them at start-up, and Next serves anything not listed (or
// any method a route does not export).
//
//   node server.mjs [--port 3000] [--hostname localhost]      (or PORT / HOSTNAME)
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { matchPath, serveWithHandler } from './lib/http/node-bridge.mjs';
import { hostChecker, hostRefusal } from './lib/http/public-origins.mjs';

process.env.NODE_ENV ??= 'production';
// PaiFlow finds its migrations and database-thread scripts here, whatever the working directory
// (engine/config/app-root.ts).
process.env.PAIFLOW_ROOT ||= path();
const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } },
});
// Plain JavaScript, run before any TypeScript is loaded, so it reads its few variables itself, with the names,
// defaults and "empty = unset" of engine/config/variables.ts (PORT, HOSTNAME, PAIFLOW_CLIENT_IP_TAG, PUBLIC_URL and
// TRUST_PROXY in hostChecker); the app validates every variable when it starts (createApp).
const port = Number(values.port ?? (process.env.PORT || 3000));
const hostname = values.hostname ?? (process.env.HOSTNAME || 'localhost');

const { default: next } = await import('next');
const app = next({ dev: false, hostname, port, dir: path() });
const handle = app.getRequestHandler();
await app.prepare();

// Marks the client address header as ours: a request's own X-PaiFlow-Client-Ip without this process's tag is ignored.
const CLIENT_IP_TAG = (process.env.PAIFLOW_CLIENT_IP_TAG ||= randomBytes(16).toString('hex'));

const DIRECT = Symbol.for('paiflow.directRoutes');
// The published API and webhooks (per-request cost), and artifacts: Next's route handling drops a handler's
// Content-Length, which audio players and downloads use to show length and progress.
const DIRECT_PREFIXES = ['/api/v1/', '/api/hooks/', '/api/artifacts/'];
/** The listed handler for this request, if any. */
function direct(req) {
  const routes = globalThis[DIRECT];
  if (!routes || !DIRECT_PREFIXES.some((p) => req.url?.startsWith(p))) return null;
  const q = req.url.indexOf('?');
  const pathname = q < 0 ? req.url : req.url.slice(0, q);
  for (const [pattern, methods] of routes) {
    const params = matchPath(pattern, pathname);
    if (params) return methods[req.method] ? { handler: methods[req.method], params } : null;
  }
  return null;
}

// DNS rebinding: answer only for our own host names (PUBLIC_URL), localhost and IP literals.
const hostAllowed = hostChecker(process.env);

const server = createServer((req, res) => {
  const forwardedHost = req.headers['x-forwarded-host'];
  if (!hostAllowed(req.headers.host, Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost)) {
    res.writeHead(421, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
    res.end(hostRefusal(req.headers.host));
    return;
  }
  // The connecting address, for sign-in and API-key/webhook failure throttling (lib/server/auth/request-info.ts); a
  // client's own value is replaced, never trusted.
  req.headers['x-paiflow-client-ip'] = `${CLIENT_IP_TAG} ${req.socket.remoteAddress ?? ''}`;
  const d = direct(req);
  if (d) void serveWithHandler(d.handler, d.params, req, res);
  else void handle(req, res);
});

server.listen(port, hostname, async () => {
  const addr = server.address();
  const base = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  // Have Next load the published API's route modules now (a preflight touches no data), so that the first real
  // call already takes the direct path.
  for (const p of [
    '/api/v1/workflows/_/run',
    '/api/v1/workflows/_/openapi.json',
    '/api/v1/runs/_',
    '/api/v1/runs/_/events',
    '/api/v1/runs/_/artifacts/_',
    '/api/v1/chat/completions',
    '/api/v1/chat/_',
    '/api/v1/chat/_/session',
    '/api/v1/chat/_/messages',
    '/api/v1/chat/_/messages/_/feedback',
    '/api/v1/chat/_/conversations/_/messages',
    '/api/hooks/_',
    '/api/v1/models',
    '/api/artifacts/_',
  ]) {
    await fetch(`${base}${p}`, { method: 'OPTIONS' }).catch(() => {});
  }
  // Start the app now (database, migrations, configuration): a bad setting stops the server here, with its message,
  // instead of answering every request with it.
  const health = await fetch(`${base}/api/health`).catch(() => null);
  const failure = health && health.status >= 500 ? await health.json().catch(() => null) : null;
  if (failure?.error?.code === 'INVALID_CONFIG') {
    console.error(`> PaiFlow cannot start: ${failure.error.message}`);
    process.exit(1);
  }
  console.log(`> PaiFlow ready on http://${hostname}:${port}`);
});

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 3_000).unref();
    Promise.resolve(globalThis.__paiflowApp?.then?.((a) => a.close()))
      .catch(() => {})
      .finally(() => process.exit(0));
  });
}

function path() {
  return new URL('.', import.meta.url).pathname;
}
