import { mcpMethodNotAllowed, mcpPost, mcpPreflight } from '@/lib/server/mcp/http';
import { v1Route } from '@/lib/server/publishing/v1-http';

export const dynamic = 'force-dynamic';

/**
 * The MCP server (Streamable HTTP, stateless): `Authorization: Bearer <API key>`; the key's published workflows that
 * are opted in to MCP are its tools. Transport and checks: lib/server/mcp/http.ts; tools: lib/server/mcp/tools.ts.
 * No path parameter: CORS is the server default (CORS_ORIGINS).
 */
const post = v1Route('slug', mcpPost);
export const POST = (req: Request) => post(req, {});

const notAllowed = v1Route('slug', mcpMethodNotAllowed);
export const GET = (req: Request) => notAllowed(req, {});
export const DELETE = (req: Request) => notAllowed(req, {});

export const OPTIONS = (req: Request) => mcpPreflight(req);
