import { route } from '@/lib/http/errors';
import { getApp } from '@/lib/server/app';
import { identify } from '@/lib/server/auth/authenticate';
import { ssoButton } from '@/lib/server/sso/sso-flow';

export const dynamic = 'force-dynamic';

/**
 * Open to everyone: whether setup is still needed, who is signed in (with their workspaces), and — only when single
 * sign-on is configured — `sso: { name, startUrl }` for the login page's "Sign in with …" button.
 */
export const GET = route(async (req) => {
  const app = await getApp();
  const setupRequired = !(await app.accounts.hasUsers());
  const who = setupRequired ? null : await identify(app.accounts, req).catch(() => null);
  const sso = ssoButton();
  if (!who)
    return Response.json(
      { setupRequired, authenticated: false, ...(sso ? { sso } : {}) },
      { headers: { 'cache-control': 'no-store' } },
    );
  const workspaces = await app.accounts.workspacesOf(who.user.id);
  const current = workspaces.find((w) => w.id === who.workspaceId) ?? workspaces[0] ?? null;
  return Response.json(
    {
      setupRequired,
      authenticated: true,
      user: who.user,
      workspaces,
      workspaceId: current?.id ?? null,
      role: current?.role ?? null,
    },
    { headers: { 'cache-control': 'no-store' } },
  );
});
