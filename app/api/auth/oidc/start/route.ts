import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { startSignIn } from '@/lib/server/sso/sso-flow';

export const dynamic = 'force-dynamic';

/**
 * Single sign-on, first leg: 302 to the OpenID Connect issuer (PKCE, state and nonce in a sealed cookie). `?next=`
 * is where the browser goes once signed in. A failure is a 302 to /login?error=<CODE>.
 */
export const GET = route((req) => startSignIn(getApp, req));
