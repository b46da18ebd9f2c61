/**
 * Route handlers the production server (server.mjs) may call directly, without Next's router: the published API's
 * routes, whose per-request cost matters to the apps that call them, and artifacts, whose Content-Length Next's
 * router would drop. A route module lists itself here when Next
 * first loads it (server.mjs loads them at start-up); until then, and under `next dev`, Next serves them as usual.
 * The handler is the same function either way, from Next's own build of the module.
 */
import type { WebHandler } from './node-bridge.mjs';

type Methods = Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS', WebHandler>>;
const KEY = Symbol.for('paiflow.directRoutes');

/** `pattern` like "/api/v1/runs/:runId" (segments, `:name` for a parameter), as server.mjs matches it. */
export function serveDirectly(pattern: string, methods: Methods): void {
  const g = globalThis as unknown as Record<symbol, Map<string, Methods> | undefined>;
  (g[KEY] ??= new Map()).set(pattern, methods);
}
