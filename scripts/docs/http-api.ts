/**
 * Writes docs/http-api.md: every route of app/api with the methods its route file exports and the least role its
 * `guarded()` wrapper asks for (read from the source, so the page cannot list a route or method that does not
 * exist), described by ./http-api-routes.ts; then the published API as its OpenAPI document describes it
 * (lib/server/publishing/openapi.ts, the document `GET /api/v1/workflows/:slug/openapi.json` serves), rendered for an
 * example workflow; the prose around them is ./http-api.template.md. Run by `npm run docs` (scripts/docs/generate.ts);
 * test/docs/the-http-api-doc-lists-every-route.test.ts fails when the committed page differs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROLES, can, type Action } from '@/lib/server/auth/policy';
import { ROUTE_GROUPS, type RouteNote } from './http-api-routes';
import { cell } from './markdown';
import { renderOpenApi } from './openapi-markdown';

export const HTTP_API_DOC = 'docs/http-api.md';
const API_DIR = 'app/api';
const TEMPLATE = 'scripts/docs/http-api.template.md';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

export interface RouteFile {
  /** `/api/workflows/:id` */
  path: string;
  file: string;
  /** Each exported method with the action of its `guarded()` wrapper, if it has one. */
  methods: Array<{ method: string; action?: Action }>;
}

/** `app/api/workflows/[id]/route.ts` → `/api/workflows/:id`; `[...path]` → `*`; `(group)` folders drop out. */
export function urlPathOf(file: string): string {
  const dir = path.dirname(file).split(path.sep).join('/');
  return (
    '/' +
    dir
      .replace(/^app\//, '')
      .split('/')
      .filter((s) => !/^\(.*\)$/.test(s)) // a route group adds nothing to the URL
      .map((s) => (/^\[\.\.\.\w+\]$/.test(s) ? '*' : s.replace(/^\[(\w+)\]$/, ':$1')))
      .join('/')
  );
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) return routeFiles(p);
    return entry === 'route.ts' ? [p] : [];
  });
}

/** The expression an export is bound to, followed through one `const x = …` alias (`export const GET = handler`). */
function definitionOf(source: string, method: string): string | undefined {
  const start = new RegExp(`^export const ${method}\\s*=`, 'm').exec(source);
  if (!start) return new RegExp(`^export (async )?function ${method}\\b`, 'm').test(source) ? '' : undefined;
  const rest = source.slice(start.index + start[0].length);
  const expression = rest.slice(0, rest.search(/\n(export |const |\/\*\*)|$/));
  const alias = /^\s*(?:\([^)]*\)\s*=>\s*)?(\w+)\s*[;(]/.exec(expression);
  if (alias && !/^(guarded|route|v1Route|preflight)$/.test(alias[1])) {
    const local = new RegExp(`^const ${alias[1]}\\s*=([\\s\\S]*?)\\n(?:export |const |\\/\\*\\*|$)`, 'm').exec(source);
    if (local) return local[1];
  }
  return expression;
}

/** The routes of app/api as their files declare them. */
export function readRoutes(root = process.cwd()): RouteFile[] {
  return routeFiles(path.join(root, API_DIR))
    .map((abs) => {
      const file = path.relative(root, abs);
      const source = readFileSync(abs, 'utf8');
      const methods = METHODS.flatMap((method) => {
        const definition = definitionOf(source, method);
        if (definition === undefined) return [];
        const action = /^\s*guarded\(\s*'(\w+)'/.exec(definition)?.[1] as Action | undefined;
        return [{ method, action }];
      });
      return { path: urlPathOf(file), file, methods };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The least role that may do an action (lib/server/auth/policy.ts). */
export function leastRole(action: Action): string {
  return ROLES.slice()
    .reverse()
    .find((role) => can(role, action))!;
}

/** What keeps the page from describing the routes: files without a note, notes without a file, unreadable files. */
export function routeProblems(routes = readRoutes()): string[] {
  const notes = ROUTE_GROUPS.flatMap((g) => g.routes);
  const byPath = new Map(notes.map((n) => [n.path, n]));
  const problems: string[] = [];
  for (const r of routes) {
    const note = byPath.get(r.path);
    if (!note) problems.push(`${r.file}: ${r.path} has no entry in scripts/docs/http-api-routes.ts`);
    if (!r.methods.length) problems.push(`${r.file}: no exported HTTP method found`);
    const open = r.methods.filter((m) => !m.action && m.method !== 'OPTIONS');
    const unsaid = open.filter((m) => !note?.access || (typeof note.access === 'object' && !note.access[m.method]));
    if (note && unsaid.length)
      problems.push(`${r.path}: ${unsaid.map((m) => m.method)} not guarded(); say who may call it (access)`);
  }
  const paths = new Set(routes.map((r) => r.path));
  for (const n of notes) if (!paths.has(n.path)) problems.push(`${n.path}: no such route file under ${API_DIR}`);
  const seen = new Set<string>();
  for (const n of notes) {
    if (seen.has(n.path)) problems.push(`${n.path}: listed twice in scripts/docs/http-api-routes.ts`);
    seen.add(n.path);
  }
  return problems;
}

function methodsCell(route: RouteFile, note: RouteNote): string {
  const shown = route.methods.filter((m) => m.method !== 'OPTIONS');
  const guarded = shown.filter((m) => m.action).map((m) => `\`${m.method}\` ${leastRole(m.action!)}`);
  const open = shown.filter((m) => !m.action).map((m) => m.method);
  const access = note.access;
  const openParts =
    typeof access === 'string' || access === undefined
      ? open.length
        ? [`${open.map((m) => `\`${m}\``).join(' ')} ${access}`]
        : []
      : open.map((m) => `\`${m}\` ${access[m]}`);
  const parts = [...guarded, ...openParts];
  const preflight = route.methods.some((m) => m.method === 'OPTIONS') && route.path !== '/api/*';
  return parts.join(' · ') + (preflight ? ' · `OPTIONS` (CORS preflight)' : '');
}

function renderRoutes(routes: RouteFile[]): string[] {
  const byPath = new Map(routes.map((r) => [r.path, r]));
  const lines: string[] = [];
  for (const group of ROUTE_GROUPS) {
    lines.push(`### ${group.title}`, '', '| route | methods · who may call | what it does |', '|---|---|---|');
    for (const note of group.routes) {
      const route = byPath.get(note.path)!;
      lines.push(`| \`${note.path}\` | ${cell(methodsCell(route, note))} | ${cell(note.text)} |`);
    }
    lines.push('');
  }
  return lines;
}

/** The whole page, as committed. */
export function renderHttpApiDoc(root = process.cwd()): string {
  const routes = readRoutes(root);
  const problems = routeProblems(routes);
  if (problems.length) throw new Error(`docs/http-api.md cannot be generated:\n- ${problems.join('\n- ')}`);
  const template = readFileSync(path.join(root, TEMPLATE), 'utf8');
  const header = [
    '<!-- Generated by `npm run docs` (scripts/docs/http-api.ts) from the route files of app/api,',
    '     scripts/docs/http-api-routes.ts, lib/server/publishing/openapi.ts and scripts/docs/http-api.template.md.',
    '     Do not edit by hand: a test fails when this page is out of date. -->',
    '',
  ].join('\n');
  return (
    header +
    template
      .replace('<!-- routes -->\n', renderRoutes(routes).join('\n'))
      .replace('<!-- published-openapi -->\n', renderOpenApi().join('\n'))
  );
}
