/**
 * Walks every route under app/api (found from the file tree, so a new route cannot be forgotten) and checks who may
 * call it: without credentials → 401; a viewer on a route that changes anything → 403; a member of another
 * workspace on a route that names a resource of workspace A → 404 (never revealing that it exists).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { GUARDED } from '@/lib/server/auth/guard';
import { call, expectNoServerErrorsOrStacks } from '../../api/api-helpers';
import { createTenancy, type Tenancy } from './tenancy';

type Handler = ((req: Request, ctx: unknown) => Promise<Response>) & { [GUARDED]?: string };
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Routes open without a session or token, and why. Everything else must answer 401 without credentials. */
const PUBLIC: Record<string, string> = {
  '/api/health': 'liveness for load balancers; reveals no secret',
  '/api/auth/state': 'tells the browser whether to show setup or sign-in',
  '/api/auth/setup': 'creates the owner while no user exists (409 afterwards)',
  '/api/auth/login': 'signing in',
  '/api/auth/logout': 'signing out a cookie (no-op without one)',
  '/api/auth/accept-invite': 'the invitation token is the credential',
  '/api/auth/oidc/start': 'single sign-on: sends the browser to the OpenID Connect issuer',
  '/api/auth/oidc/callback': "single sign-on: the issuer's verified answer is the credential",
  '/api/[...path]': 'the JSON 404 of every path no route serves (reveals nothing)',
  '/api/hooks/[hookId]': 'a webhook trigger: its unguessable id plus its own secret or HMAC signature authorise it',
  '/api/mcp': "the MCP server: authorised by a published workflow's API key (Bearer), never by a session",
};
/** Published endpoints: authorised by the workflow's API keys, never by a session (own suites). */
const isPublished = (p: string) => p.startsWith('/api/v1/');
/** Self-service routes of any signed-in user (their own tokens, password, workspaces): no workspace role needed. */
const SELF_SERVICE = new Set([
  '/api/auth/tokens',
  '/api/auth/tokens/[id]',
  '/api/auth/password',
  '/api/auth/workspace',
  '/api/workspaces',
]);

export interface RouteFile {
  urlPath: string;
  file: string;
}

export function routeFiles(dir = path.resolve('app/api')): RouteFile[] {
  const out: RouteFile[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name === 'route.ts')
        out.push({ urlPath: '/' + path.relative(path.resolve('.'), d).replace(/^app\//, ''), file: full });
    }
  };
  walk(dir);
  return out.sort((a, b) => a.urlPath.localeCompare(b.urlPath));
}

/** Fills `[param]` segments with ids of workspace A's records. */
function paramsFor(urlPath: string, t: Tenancy): Record<string, string> {
  const p: Record<string, string> = {};
  const segs = urlPath.split('/');
  segs.forEach((s, i) => {
    const m = /^\[(.+)\]$/.exec(s);
    if (!m) return;
    const owner = segs[i - 1];
    const value =
      m[1] === 'runId'
        ? t.runA
        : m[1] === 'docId'
          ? t.docA
          : m[1] === 'version'
            ? '1'
            : m[1] === 'slug'
              ? t.workflowA.slug
              : m[1] === 'userId'
                ? t.editorA.userId
                : owner === 'workflows'
                  ? t.workflowA.id
                  : owner === 'knowledge-bases'
                    ? t.kbA
                    : owner === 'api-keys'
                      ? t.keyA.id
                      : owner === 'credentials'
                        ? t.credentialA
                        : owner === 'workspaces'
                          ? t.workspaceA
                          : owner === 'tokens'
                            ? t.tokenA
                            : 'unknown';
    p[m[1]] = value;
  });
  return p;
}

const concrete = (urlPath: string, params: Record<string, string>) =>
  urlPath.replace(/\[(.+?)\]/g, (_, k: string) => encodeURIComponent(params[k]));

export function routeWalkSuite(onClose?: () => Promise<void>) {
  let t: Tenancy;
  const files = routeFiles();
  beforeAll(async () => {
    t = await createTenancy();
  }, 120_000);
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await onClose?.();
  });

  it('finds the routes in the file tree', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files.map((f) => f.urlPath)).toContain('/api/workflows/[id]/runs');
  });

  describe.each(files)('$urlPath', ({ urlPath, file }) => {
    const load = () => import(file) as Promise<Partial<Record<(typeof METHODS)[number], Handler>>>;

    it('without credentials: 401 (or public / published, by design)', async () => {
      const mod = await load();
      const params = paramsFor(urlPath, t);
      for (const m of METHODS) {
        const h = mod[m];
        if (!h) continue;
        if (PUBLIC[urlPath] || isPublished(urlPath)) continue;
        const a = await call(h, m, concrete(urlPath, params), {
          params,
          body: m === 'GET' ? undefined : {},
          anonymous: true,
        });
        expect({ method: m, status: a.status, code: a.body?.error?.code }).toEqual({
          method: m,
          status: 401,
          code: 'UNAUTHENTICATED',
        });
      }
    });

    it('as a viewer: every route that changes anything (or needs a higher role) is 403', async () => {
      const mod = await load();
      const params = paramsFor(urlPath, t);
      for (const m of METHODS) {
        const h = mod[m];
        if (!h || PUBLIC[urlPath] || isPublished(urlPath) || SELF_SERVICE.has(urlPath)) continue;
        expect(h[GUARDED], `${m} ${urlPath} must be wrapped in guarded(action, …)`).toBeDefined();
        if (h[GUARDED] === 'read') continue;
        const body = m === 'GET' ? undefined : {};
        const a = await call(h, m, concrete(urlPath, params), { params, body, headers: t.viewerA.headers });
        expect({ method: m, status: a.status, code: a.body?.error?.code }).toEqual({
          method: m,
          status: 403,
          code: 'FORBIDDEN',
        });
      }
    });

    it('as a member of another workspace: a resource of workspace A is 404', async () => {
      const mod = await load();
      const params = paramsFor(urlPath, t);
      if (!Object.keys(params).length || PUBLIC[urlPath] || isPublished(urlPath)) return;
      for (const m of METHODS) {
        const h = mod[m];
        if (!h) continue;
        const a = await call(h, m, concrete(urlPath, params), {
          params,
          body: m === 'GET' || m === 'DELETE' ? undefined : {},
          headers: t.ownerB.headers,
        });
        expect({ method: m, status: a.status }, a.text.slice(0, 300)).toEqual({ method: m, status: 404 });
      }
    });
  });
}
