import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { workspaceSchema } from '@/lib/server/auth/schemas';
import { signedIn } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** The workspaces you belong to, with your role in each. */
export const GET = route(async (req) => {
  const app = await getApp();
  const who = await signedIn(app, req);
  return Response.json(await app.accounts.workspacesOf(who.user.id));
});

/** `{ name }` → 201 `{ id, name }`; you are its owner. */
export const POST = route(async (req) => {
  const app = await getApp();
  const who = await signedIn(app, req);
  const body = await readJson(req, workspaceSchema);
  return Response.json(await app.accounts.createWorkspace(who.user, body.name), { status: 201 });
});
