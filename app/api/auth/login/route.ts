import { readJson } from '@/lib/http/body';
import { errorResponse, route, toPaiError } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { checkSameOrigin, clientIp } from '@/lib/server/auth/request-info';
import { loginSchema } from '@/lib/server/auth/schemas';
import { withSession } from '@/lib/server/auth/session-routes';

export const dynamic = 'force-dynamic';

/** Signs in: 200 + session cookie; 401 INVALID_CREDENTIALS; 429 TOO_MANY_ATTEMPTS with Retry-After. */
export const POST = route(async (req) => {
  const app = await getApp();
  checkSameOrigin(req);
  const body = await readJson(req, loginSchema);
  try {
    const { user, token } = await app.accounts.login(body.email, body.password, clientIp(req));
    return withSession(app, req, token, { user: user });
  } catch (e) {
    const pe = toPaiError(e);
    const retryAfter = (pe?.details as { retryAfter?: number } | undefined)?.retryAfter;
    if (pe && retryAfter) return errorResponse(pe, { 'retry-after': String(retryAfter) });
    throw e;
  }
});
