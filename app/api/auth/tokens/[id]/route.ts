import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { clientIp } from '@/lib/server/auth/request-info';
import { signedIn } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** Revokes one of your tokens; another user's token is 404. */
export const DELETE = route(async (req, { params }: { params: Promise<{ id: string }> }) => {
  const app = await getApp();
  const who = await signedIn(app, req);
  await app.accounts.revokeToken(who.user, (await params).id, clientIp(req));
  return new Response(null, { status: 204 });
});
