import { PaiError } from '@/engine/errors';
import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { switchWorkspaceSchema } from '@/lib/server/auth/schemas';
import { signedIn } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** Switches the browser session to another of the user's workspaces. */
export const POST = route(async (req) => {
  const app = await getApp();
  const who = await signedIn(app, req);
  const body = await readJson(req, switchWorkspaceSchema);
  const role = await app.accounts.roleIn(who.user.id, body.workspaceId);
  if (!role)
    throw new PaiError('WORKSPACE_NOT_FOUND', `workspace ${body.workspaceId} not found`, {
      path: 'workspaceId',
    });
  if (!who.sessionId)
    throw new PaiError('SESSION_REQUIRED', 'tokens choose a workspace with the X-Workspace-Id header');
  await app.accounts.setSessionWorkspace(who.sessionId, body.workspaceId);
  return Response.json({ workspaceId: body.workspaceId, role });
});
