import { readJson } from '@/lib/http/body';
import { guarded } from '@/lib/server/auth/guard';
import { clientIp } from '@/lib/server/auth/request-info';
import { invitationSchema } from '@/lib/server/auth/schemas';
import { originOf } from '@/lib/server/publishing/v1-http';
import { settings } from '@/engine/config/settings';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** `{ email, role }` → 201 `{ token, url }`: a link that works once, for 7 days (the token is shown only now). */
export const POST = guarded(
  'admin',
  async (req, _ctx: Ctx, { app, caller }) => {
    const body = await readJson(req, invitationSchema);
    const inv = await app.accounts.invite(
      { ...caller.user, role: caller.role },
      caller.workspaceId,
      body.email,
      body.role,
      clientIp(req),
    );
    const origin = settings().PUBLIC_URL[0] ?? originOf(req);
    const url = `${origin}/invite/${encodeURIComponent(inv.token)}`;
    return Response.json({ ...inv, url }, { status: 201, headers: { 'cache-control': 'no-store' } });
  },
  { workspace: async ({ params }) => (await params).id },
);
