import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { clientIp } from '@/lib/server/auth/request-info';
import { changePasswordSchema } from '@/lib/server/auth/schemas';
import { signedIn } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** Changes the password; every other session of the user is signed out and all their tokens revoked. */
export const POST = route(async (req) => {
  const app = await getApp();
  const who = await signedIn(app, req);
  const body = await readJson(req, changePasswordSchema);
  await app.accounts.changePassword(who.user, body.currentPassword, body.newPassword, who.sessionId, clientIp(req));
  return new Response(null, { status: 204 });
});
