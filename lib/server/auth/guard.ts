/**
 * `guarded(action, handler)`: every management route handler is wrapped in it. It authenticates the caller (401),
 * asks the policy whether the caller's role may do `action` in the workspace (403), and hands the handler the app
 * and the caller; lookups by id then go through the caller's workspace, so another workspace's records are 404.
 */
import { route } from '@/lib/http/errors';
import { getApp } from '../app';
import type { App } from '../app-types';
import { authenticate, type Caller } from './authenticate';
import { requireRole, type Action } from './policy';

export interface Authed {
  app: App;
  caller: Caller;
}

/** The action each guarded handler declares, for the route-walking authorization test. */
export const GUARDED = Symbol.for('paiflow.guarded');

/** `opts.workspace`: the workspace comes from the path (`/api/workspaces/:id/…`) instead of the request headers. */
export function guarded<C>(
  action: Action,
  fn: (req: Request, ctx: C, authed: Authed) => Promise<Response>,
  opts: { workspace?: (ctx: C) => Promise<string> } = {},
): ((req: Request, ctx: C) => Promise<Response>) & { [GUARDED]: Action } {
  const handler = route<C>(async (req, ctx) => {
    const app = await getApp();
    const caller = await authenticate(app.accounts, req, opts.workspace ? await opts.workspace(ctx) : undefined);
    requireRole(caller.role, action);
    return fn(req, ctx, { app, caller });
  });
  return Object.assign(handler, { [GUARDED]: action });
}
