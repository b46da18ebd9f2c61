import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';

/** The registry the engine validates with, so the palette never offers a type the server would refuse. */
export const GET = guarded('read', async (_req, _ctx: unknown, { app }) => Response.json(app.registry.describe()));
