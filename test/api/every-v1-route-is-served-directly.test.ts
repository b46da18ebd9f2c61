// Guarantees: every route of the published API (app/api/v1/**/route.ts) is served by the production server's direct
// dispatch (server.mjs, without Next's router): the module registers, through lib/http/direct-routes.ts, the pattern
// that its folder stands for, with exactly the methods it exports (the same functions); nothing else is registered;
// and server.mjs loads it at start-up (its warm-up list has a path the pattern matches). A new v1 route that forgets
// any of these fails here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { matchPath } from '@/lib/http/node-bridge.mjs';

const ROOT = path.resolve(__dirname, '../..');
const V1 = path.join(ROOT, 'app/api/v1');
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const REGISTRY = Symbol.for('paiflow.directRoutes');

/** The route files under `dir`, as paths relative to app/. */
function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === 'route.ts' ? [full] : [];
  });
}

/** The URL pattern a route file's folder stands for, in server.mjs's syntax: `[runId]` → `:runId`. */
function patternOf(file: string): string {
  const segments = path
    .relative(path.join(ROOT, 'app'), path.dirname(file))
    .split(path.sep)
    .filter((s) => !/^\(.*\)$/.test(s)) // a route group adds nothing to the URL
    .map((s) => {
      if (s.startsWith('[...') || s.startsWith('[['))
        throw new Error(`${file}: catch-all segments cannot be served directly`);
      return s.startsWith('[') ? `:${s.slice(1, -1)}` : s;
    });
  return `/${segments.join('/')}`;
}

const files = routeFiles(V1).sort();
const modules = new Map<string, Record<string, unknown>>();
const registered = () =>
  (globalThis as unknown as Record<symbol, Map<string, Record<string, unknown>> | undefined>)[REGISTRY] ?? new Map();

beforeAll(async () => {
  for (const f of files) modules.set(f, await import(pathToFileURL(f).href));
}, 120_000);

it('finds the v1 routes', () => {
  expect(files.length).toBeGreaterThanOrEqual(5);
});

describe.each(files.map((f) => [path.relative(ROOT, f), f]))('%s', (_rel, file) => {
  const pattern = patternOf(file);

  it(`registers ${pattern} with exactly the methods it exports`, () => {
    const mod = modules.get(file)!;
    const exported = HTTP_METHODS.filter((m) => typeof mod[m] === 'function');
    expect(exported.length).toBeGreaterThan(0);
    const methods = registered().get(pattern);
    expect(methods, `${pattern} is not registered: call serveDirectly('${pattern}', { … }) in the route`).toBeDefined();
    expect(Object.keys(methods!).sort()).toEqual(exported.sort());
    for (const m of exported) expect(methods![m], `${m} of ${pattern}`).toBe(mod[m]);
  });

  it('is loaded by server.mjs at start-up (a warm-up path matches it)', () => {
    const server = readFileSync(path.join(ROOT, 'server.mjs'), 'utf8');
    const warmUp = [...server.matchAll(/'(\/api\/v1\/[^']*)'/g)].map((m) => m[1]);
    expect(
      warmUp.some((p) => matchPath(pattern, p)),
      `add a path for ${pattern} to the warm-up list in server.mjs`,
    ).toBe(true);
  });
});

it('registers no pattern without a route file', () => {
  expect([...registered().keys()].sort()).toEqual(files.map(patternOf).sort());
});
