import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { clientIp } from '@/lib/server/auth/request-info';
import { tokenSchema } from '@/lib/server/auth/schemas';
import { signedIn } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** The user's personal access tokens (prefix, last used; never the token). */
export const GET = route(async (req) => {
  const app = await getApp();
  const who = await signedIn(app, req);
  return Response.json(await app.accounts.listTokens(who.user.id));
});

/** `{ name, workspaceId? }` → 201 `{ id, token }`: the only time the token is shown. */
export const POST = route(async (req) => {
  const app = await getApp();
  const who = await signedIn(app, req, { sessionOnly: true });
  const body = await readJson(req, tokenSchema);
  const t = await app.accounts.createToken(who.user, body.name, body.workspaceId, clientIp(req));
  return Response.json(t, { status: 201, headers: { 'cache-control': 'no-store' } });
});
