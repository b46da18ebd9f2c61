import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** The workspace's members and their roles. */
export const GET = guarded(
  'read',
  async (_req, _ctx: Ctx, { app, caller }) => Response.json(await app.accounts.listMembers(caller.workspaceId)),
  { workspace: async ({ params }) => (await params).id },
);
