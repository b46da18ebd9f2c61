import { guarded } from '@/lib/server/auth/guard';
import { listAgentTools } from '@/lib/server/workflows/references';

export const dynamic = 'force-dynamic';

/**
 * What an Agent node may select: `{ builtin: [{ name, description }], mcp: [{ server, tools, error? }] }`. Listing
 * MCP tools connects to the configured servers (lazily, once); a server that fails is listed with its `error`.
 */
export const GET = guarded('read', async (req, _ctx: unknown, { app }) =>
  Response.json(await listAgentTools(app.agent, req.signal)),
);
