// Guarantees: docs/http-api.md is what `npm run docs` renders today from the route files of app/api (each route with
// the methods its file exports and the least role its guard lets through) and from the published API's OpenAPI
// document (lib/server/publishing/openapi.ts) — a route, method, role or OpenAPI answer changed without regenerating
// the page fails here — and every route file is described, with no description left for a route that is gone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HTTP_API_DOC, leastRole, readRoutes, renderHttpApiDoc, routeProblems } from '@/scripts/docs/http-api';
import { exampleOpenApi } from '@/scripts/docs/openapi-markdown';

describe('the HTTP API page (docs/http-api.md)', () => {
  it('is up to date with the route files and the OpenAPI document (else run `npm run docs`)', () => {
    expect(readFileSync(HTTP_API_DOC, 'utf8')).toBe(renderHttpApiDoc());
  });

  it('describes every route file, and no route that does not exist', () => {
    expect(routeProblems()).toEqual([]);
  });

  it('reads the routes, methods and guards from the route files', () => {
    const routes = new Map(readRoutes().map((r) => [r.path, r]));
    expect(routes.get('/api/workflows/:id')?.methods).toEqual([
      { method: 'GET', action: 'read' },
      { method: 'PUT', action: 'edit' },
      { method: 'DELETE', action: 'edit' },
    ]);
    expect(routes.get('/api/audit')?.methods).toEqual([{ method: 'GET', action: 'admin' }]);
    expect(routes.get('/api/health')?.methods).toEqual([{ method: 'GET', action: undefined }]);
    expect(routes.get('/api/*')?.methods.map((m) => m.method)).toContain('DELETE');
    expect([leastRole('read'), leastRole('edit'), leastRole('admin')]).toEqual(['viewer', 'editor', 'admin']);
  });

  it('shows every operation of the published OpenAPI document', () => {
    const page = readFileSync(HTTP_API_DOC, 'utf8');
    for (const [path, methods] of Object.entries(exampleOpenApi().paths))
      for (const method of Object.keys(methods)) expect(page).toContain(`#### \`${method.toUpperCase()} ${path}\``);
  });
});
