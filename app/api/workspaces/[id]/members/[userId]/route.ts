import { readJson } from '@/lib/http/body';
import { guarded } from '@/lib/server/auth/guard';
import { clientIp } from '@/lib/server/auth/request-info';
import { roleSchema } from '@/lib/server/auth/schemas';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string; userId: string }> };

/** `{ role }`: changes a member's role (owners only make or unmake owners; the last owner stays). */
export const PATCH = guarded(
  'admin',
  async (req, { params }: Ctx, { app, caller }) => {
    const { userId } = await params;
    const body = await readJson(req, roleSchema);
    await app.accounts.setRole(
      { ...caller.user, role: caller.role },
      caller.workspaceId,
      userId,
      body.role,
      clientIp(req),
    );
    return Response.json({ userId, role: body.role });
  },
  { workspace: async ({ params }) => (await params).id },
);
