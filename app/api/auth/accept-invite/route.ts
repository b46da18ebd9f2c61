import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { checkSameOrigin, clientIp } from '@/lib/server/auth/request-info';
import { acceptInviteSchema } from '@/lib/server/auth/schemas';
import { withSession } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** `{ token, name, password }` → 201 + session cookie, signed in to the workspace that invited you. */
export const POST = route(async (req) => {
  const app = await getApp();
  checkSameOrigin(req);
  const body = await readJson(req, acceptInviteSchema);
  const { user, workspaceId, token } = await app.accounts.acceptInvite(body, clientIp(req));
  return withSession(app, req, token, { user: user, workspaceId }, 201);
});
