import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { finishSignIn } from '@/lib/server/sso/sso-flow';

export const dynamic = 'force-dynamic';

/**
 * Single sign-on, the issuer's redirect back: checks state, PKCE, nonce and the ID token, finds or creates the user,
 * opens a session (the cookie a password sign-in sets) and sends the browser on. A failure is a 302 to
 * /login?error=<CODE>.
 */
export const GET = route((req) => finishSignIn(getApp, req));
