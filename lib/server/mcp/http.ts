/**
 * /api/mcp over HTTP: the MCP Streamable HTTP transport in stateless mode (no Mcp-Session-Id), answering each POST
 * with JSON. The API key is checked before anything of MCP is read: a missing, malformed, wrong or revoked key is a
 * plain HTTP 401 with a Bearer challenge, and a spent rate limit a 429 with Retry-After, exactly as on /api/v1 (one
 * token per HTTP request). GET (a server-initiated stream) and DELETE (ending a session) have nothing to serve
 * without sessions, so they answer 405, which the spec allows and clients expect from a stateless server.
 */
import * as streamableHttp from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authorize } from '../publishing/api-keys';
import { getApp } from '../app';
import { httpError } from '@/lib/http/errors';
import { originOf, preflight } from '../publishing/v1-http';
import { mcpServerFor } from './server';

const METHODS = 'POST';
/** What MCP clients send besides the API's usual headers (browsers ask for them in the preflight). */
const MCP_ALLOW_HEADERS =
  'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id, idempotency-key';

/** POST /api/mcp: one JSON-RPC message (or batch) in, its answer out. */
export async function mcpPost(req: Request): Promise<Response> {
  const app = await getApp();
  const key = await authorize(app, req);
  const server = mcpServerFor({ app, key, origin: originOf(req), signal: req.signal });
  const transport = new streamableHttp.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: app.config.maxBodyBytes,
  });
  await server.connect(transport);
  try {
    // In JSON mode this resolves once every request in the message has its response: nothing is left to send.
    return await transport.handleRequest(req);
  } finally {
    await server.close();
  }
}

/** GET and DELETE /api/mcp: 405, no sessions and no server-sent stream here. */
export async function mcpMethodNotAllowed(req: Request): Promise<Response> {
  throw httpError(
    'METHOD_NOT_ALLOWED',
    `${req.method} is not served: this MCP server is stateless (no sessions, no server-sent stream); ` +
      'POST JSON-RPC messages',
    405,
    { allow: `${METHODS}, OPTIONS` },
  );
}

const options = preflight('slug', METHODS);

/** The CORS preflight, allowing the headers MCP clients send. */
export async function mcpPreflight(req: Request): Promise<Response> {
  const res = await options(req);
  res.headers.set('access-control-allow-headers', MCP_ALLOW_HEADERS);
  return res;
}
