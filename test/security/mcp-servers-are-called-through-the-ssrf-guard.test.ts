/**
 * Guarantee: the operator's MCP_SERVERS URLs go through the SSRF guard like every other outbound call. The exact
 * host:port an operator configured may be on loopback or the LAN without HTTP_ALLOWLIST, but its name is resolved,
 * checked and pinned on every request: a name that resolves — or starts resolving — to a link-local or cloud metadata
 * address is refused with SSRF_BLOCKED before anything is sent, and a redirect to any other host:port is checked as
 * an ordinary URL. DNS is stood in for by the guard's resolver; the MCP servers are real, on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '@/engine/agent/mcp/mcp-manager';
import type { ToolContext } from '@/engine/node-kit/agent-services';

interface TestServer {
  port: number;
  hits: number;
  close(): Promise<void>;
}

/** A stateless Streamable HTTP MCP server with one tool, `ping`; `redirectTo`: answers every request with a 307. */
async function startMcpServer(redirectTo?: () => string): Promise<TestServer> {
  const state = { hits: 0 };
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    state.hits++;
    if (redirectTo) {
      res.writeHead(307, { location: redirectTo() }).end();
      return;
    }
    const mcp = new McpServer({ name: 'guarded', version: '1.0.0' });
    mcp.registerTool('ping', { description: 'Answers pong', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: 'pong' }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    get hits() {
      return state.hits;
    },
    set hits(n: number) {
      state.hits = n;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Every name the guard resolves, from this table; a test changes an entry to re-bind a name. */
const dns: Record<string, string[]> = {};
const resolver = async (host: string) => {
  const a = dns[host];
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return a;
};

const ctx: ToolContext = {
  signal: AbortSignal.timeout(10_000),
  fetch: globalThis.fetch as never,
  runId: 'r',
  nodeId: 'n',
  idempotencyKey: 'k',
  callId: 'c',
  timeoutMs: 10_000,
};

let mcpServer: TestServer;
let other: TestServer;
let redirecting: TestServer;
const managers: McpManager[] = [];
const manager = (url: string, allowlist: string[] = []) => {
  const m = new McpManager([{ name: 'srv', url }], { resolver, allowlist, retryAfterMs: 0, connectTimeoutMs: 5000 });
  managers.push(m);
  return m;
};

beforeAll(async () => {
  mcpServer = await startMcpServer();
  other = await startMcpServer();
  redirecting = await startMcpServer(() => `http://127.0.0.1:${other.port}/mcp`);
});
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
  await Promise.all([mcpServer, other, redirecting].map((s) => s?.close()));
});

describe("an operator's MCP server URL", () => {
  it('on loopback, by name and by address, is reached without HTTP_ALLOWLIST', async () => {
    dns['mcp.test'] = ['127.0.0.1'];
    for (const url of [`http://mcp.test:${mcpServer.port}/mcp`, `http://127.0.0.1:${mcpServer.port}/mcp`]) {
      const { tools, errors } = await manager(url).listTools();
      expect(errors).toEqual([]);
      expect(tools.map((t) => t.name)).toEqual(['mcp__srv__ping']);
      expect(await tools[0].execute({}, ctx)).toBe('pong');
    }
  });

  it.each([
    ['a link-local (metadata) address', '169.254.169.254', /link-local/],
    ['the Alibaba Cloud metadata address', '100.100.100.200', /cloud metadata/],
    ['the AWS IPv6 metadata address', 'fd00:ec2::254', /cloud metadata/],
  ])('whose name resolves to %s is refused before anything is sent', async (_what, address, words) => {
    dns['meta.test'] = [address];
    const { tools, errors } = await manager(`http://meta.test:${mcpServer.port}/mcp`).listTools();
    expect(tools).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/Blocked request to meta\.test:\d+/);
    expect(errors[0].message).toMatch(words);
  });

  it('whose name re-binds to a metadata address after it was used is refused on the next request', async () => {
    dns['rebind.test'] = ['127.0.0.1'];
    const m = manager(`http://rebind.test:${mcpServer.port}/mcp`);
    const { tools } = await m.listTools();
    expect(await tools[0].execute({}, ctx)).toBe('pong');
    const before = mcpServer.hits;
    dns['rebind.test'] = ['169.254.169.254'];
    await expect(tools[0].execute({}, ctx)).rejects.toThrow(/Blocked request to rebind\.test:\d+.*link-local/);
    expect(mcpServer.hits).toBe(before);
  });

  it('redirecting to another internal host:port is refused; HTTP_ALLOWLIST lets that host through', async () => {
    dns['redirect.test'] = ['127.0.0.1'];
    const url = `http://redirect.test:${redirecting.port}/mcp`;
    const refused = await manager(url).listTools();
    const refusal = new RegExp(`Blocked request to 127\\.0\\.0\\.1:${other.port}.*loopback`);
    expect(refused.errors[0]?.message).toMatch(refusal);
    expect(other.hits).toBe(0);
    const allowed = await manager(url, [`127.0.0.1:${other.port}`]).listTools();
    expect(other.hits).toBeGreaterThan(0);
    expect(allowed.errors).toEqual([]);
  });
});
