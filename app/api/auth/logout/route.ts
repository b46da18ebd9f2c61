import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { clearedSessionCookie, readCookie, SESSION_COOKIE } from '@/lib/server/auth/cookies';
import { checkSameOrigin } from '@/lib/server/auth/request-info';

export const dynamic = 'force-dynamic';

/** Revokes the session (the cookie stops working at once, also if it was copied) and clears the cookie. */
export const POST = route(async (req) => {
  const app = await getApp();
  checkSameOrigin(req);
  const token = readCookie(req, SESSION_COOKIE);
  if (token) await app.accounts.logout(token);
  return new Response(null, { status: 204, headers: { 'set-cookie': clearedSessionCookie(req) } });
});
