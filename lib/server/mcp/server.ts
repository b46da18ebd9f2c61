/**
 * The MCP server of one request: tools/list and tools/call for the API key that bears it. A fresh server per HTTP
 * request (stateless Streamable HTTP) keeps nothing in memory between requests, so any replica can answer any
 * request and a revoked key or an opted-out workflow takes effect on the next one.
 *
 * Tools are dynamic (they follow what is published and opted in) and their schemas are plain JSON Schema from the
 * start node, so the handlers are set on the SDK's protocol-level server (`McpServer.server`) rather than through
 * `registerTool`, which wants zod shapes. A call runs the current published version exactly as
 * POST /api/v1/workflows/:slug/run in sync mode does (startRun + waitForRunToSettle, the same concurrency cap and
 * sync timeout), recorded as trigger `mcp` with the key's id.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiKeyRecord } from '@/engine/store/publishing';
import { httpStatusOf, toPaiError } from '@/lib/http/errors';
import type { App } from '../app-types';
import { runUrls, startRun } from '../publishing/published-runs';
import { waitForRunToSettle } from '../runs/run-waiter';
import { v1Settings } from '../publishing/v1-settings';
import { callableWorkflows } from './callable-workflows';
import { resultOfError, resultOfRun, slugOfTool, toolOf } from './tools';

export const SERVER_INFO = { name: 'paiflow', version: '0.1.0' };

const INSTRUCTIONS =
  'Each tool runs a published PaiFlow workflow and returns its outputs. A run that takes longer than the ' +
  "server's sync timeout returns an error result with the run's status URL, to be read with the same API key.";

export interface McpRequestContext {
  app: App;
  key: ApiKeyRecord;
  /** The origin the client used, for the status URLs in results. */
  origin: string;
  /** Aborted when the HTTP request goes away: stop waiting for the run (the run itself goes on). */
  signal: AbortSignal;
}

async function tools(ctx: McpRequestContext): Promise<Tool[]> {
  const callable = await callableWorkflows(ctx.app, ctx.key, { mcpOnly: true });
  return callable.map(toolOf).filter((t): t is Tool => t !== null);
}

async function callTool(
  ctx: McpRequestContext,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const { app, key } = ctx;
  const slug = slugOfTool(name);
  const found = (await callableWorkflows(app, key, { mcpOnly: true })).find((c) => c.workflow.slug === slug);
  // Not published, not opted in, or not this key's: as unknown as a tool that never existed.
  if (!found) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  try {
    const { run } = await startRun(app, found.workflow, found.version, key, { inputs: args, mode: 'sync' }, null, {
      kind: 'mcp',
      id: key.id,
    });
    const { statusUrl } = runUrls(ctx.origin, run.id);
    const done = (await waitForRunToSettle(app, run.id, { timeoutMs: v1Settings(app).syncTimeoutMs, signal })) ?? run;
    return resultOfRun(done, statusUrl);
  } catch (e) {
    const pe = toPaiError(e);
    if (pe && httpStatusOf(pe) < 500) return resultOfError(pe);
    // Never the internal message: it may name hosts, files or queries.
    console.error('[paiflow] MCP tool call failed:', name, (e as Error)?.message);
    throw new McpError(ErrorCode.InternalError, 'internal error; see the server log');
  }
}

/** A connected-to-nothing MCP server answering for `ctx.key`; connect it to the request's transport. */
export function mcpServerFor(ctx: McpRequestContext): McpServer {
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await tools(ctx) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
    callTool(ctx, req.params.name, req.params.arguments ?? {}, AbortSignal.any([ctx.signal, extra.signal])),
  );
  return mcp;
}
