/** What the account routes share: the signed-in user of a request (or 401), and answers that set the cookie. */
import { PaiError } from '@/engine/errors';
import type { App } from '../app-types';
import { identify, unauthenticated } from './authenticate';
import { sessionCookie } from './cookies';

/** `sessionOnly`: refuse personal access tokens (minting or revoking tokens needs a signed-in browser session). */
export async function signedIn(app: App, req: Request, opts: { sessionOnly?: boolean } = {}) {
  const who = await identify(app.accounts, req);
  if (!who) throw unauthenticated();
  if (opts.sessionOnly && who.via !== 'session')
    throw new PaiError('SESSION_REQUIRED', 'tokens are created and revoked from a signed-in session, not with a token');
  return who;
}

export function withSession(app: App, req: Request, token: string, body: unknown, status = 200): Response {
  return Response.json(body, {
    status,
    headers: {
      'set-cookie': sessionCookie(req, token, app.config.sessionMaxAgeSeconds),
      'cache-control': 'no-store',
    },
  });
}
