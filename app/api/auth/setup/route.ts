import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { checkSameOrigin, clientIp } from '@/lib/server/auth/request-info';
import { setupSchema } from '@/lib/server/auth/schemas';
import { withSession } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** Creates the owner account, only while no user exists (else 409 SETUP_DONE), and signs them in. */
export const POST = route(async (req) => {
  const app = await getApp();
  checkSameOrigin(req);
  const body = await readJson(req, setupSchema);
  const user = await app.accounts.setup(body, clientIp(req));
  const token = await app.accounts.createSession(user.id);
  return withSession(app, req, token, { user: user }, 201);
});
