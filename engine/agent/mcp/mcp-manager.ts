/**
 * MCP client side: configured servers (stdio command or Streamable HTTP URL) are started lazily on the first
 * agent that needs them, initialised, and their tools listed (all pages) and exposed as `mcp__<server>__<tool>`.
 * `notifications/tools/list_changed` marks the list stale and re-lists in the background. A server that fails to
 * start, dies or errors never crashes a run: listing reports it and skips its tools, and a call becomes a tool
 * error; the next use after `retryAfterMs` reconnects. `close()` (on app shutdown) ends every client and process.
 * A Streamable HTTP server is called through the SSRF guard like every other outbound call: its own configured
 * host:port may be on loopback or the LAN (the operator named it), but its DNS answers are checked and pinned, so a
 * name re-bound to a metadata address is refused, and a redirect elsewhere is checked as any URL (HTTP_ALLOWLIST).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PaiError } from '../../errors';
import { createGuardedFetch, guardErrorIn, hostPortKey, type Resolver } from '../../net/ssrf-guard';
import { TOOL_NAME_RE } from '../tool-registry';
import type { AgentTool, McpToolSource, ToolContext } from '../../node-kit/agent-services';

// No "__" inside: it separates server and tool in mcp__<server>__<tool>.
const serverName = z
  .string()
  .max(32)
  .regex(/^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/, 'server names are letters, digits, - and single _ (at most 32)');
const stdioServerSchema = z.object({
  name: serverName,
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});
const httpServerSchema = z.object({
  name: serverName,
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
});
export const mcpServerConfigSchema = z.union([stdioServerSchema, httpServerSchema]);
export type McpServerConfig = z.input<typeof mcpServerConfigSchema>;

/** Parses MCP_SERVERS (a JSON array); throws a clear PaiError on a bad value instead of silently ignoring it. */
export function parseMcpServers(json: string | undefined): McpServerConfig[] {
  if (!json?.trim()) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new PaiError(
      'INVALID_MCP_SERVERS',
      'MCP_SERVERS is not valid JSON (expected [{ name, command, args } | { name, url }])',
    );
  }
  if (!Array.isArray(raw))
    throw new PaiError(
      'INVALID_MCP_SERVERS',
      'MCP_SERVERS must be a JSON array of { name, command, args? } or { name, url }',
    );
  // Pick the shape by its key, so errors name the field that is wrong (a union would only say "invalid input").
  const data = raw.map((entry, i) => {
    const schema = entry && typeof entry === 'object' && 'url' in entry ? httpServerSchema : stdioServerSchema;
    const parsed = schema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new PaiError('INVALID_MCP_SERVERS', `MCP_SERVERS[${[i, ...issue.path].join('.')}]: ${issue.message}`);
    }
    return parsed.data;
  });
  const parsed = { data };
  const names = parsed.data.map((s) => s.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new PaiError('INVALID_MCP_SERVERS', `MCP_SERVERS names server "${dup}" twice`);
  return parsed.data;
}

/** `mcp__<server>__<tool>`, made valid for function-calling APIs (and unique via a hash suffix when shortened). */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (TOOL_NAME_RE.test(name)) return name;
  const h = createHash('sha256').update(tool).digest('hex').slice(0, 8);
  return `${name.slice(0, 55)}_${h}`;
}

interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  execution?: { taskSupport?: string };
}

export interface McpManagerOptions {
  clientName?: string;
  connectTimeoutMs?: number;
  /** After a failure, how long before the next use tries to connect again. */
  retryAfterMs?: number;
  /** Called when a server's tool list changed (after the refresh). */
  onToolsChanged?(server: string, toolNames: string[]): void;
  /** HTTP_ALLOWLIST entries, for where an HTTP server redirects to. */
  allowlist?: string[];
  /** The guard's DNS resolver (tests stand in for DNS with it); default: the OS resolver. */
  resolver?: Resolver;
}

class ServerConnection {
  private client?: Client;
  private connecting?: Promise<Client>;
  private tools?: McpToolInfo[];
  private listing?: Promise<McpToolInfo[]>;
  private failure?: { at: number; message: string };
  private stderrTail = '';
  private closed = false;
  /** Bumped on every (re)connect, so late events from an old connection are ignored. */
  private generation = 0;
  private listVersion = 0;
  refreshes = 0;

  constructor(
    readonly config: z.output<typeof mcpServerConfigSchema>,
    private readonly o: Required<Omit<McpManagerOptions, 'onToolsChanged' | 'resolver'>> &
      Pick<McpManagerOptions, 'onToolsChanged' | 'resolver'>,
  ) {}

  get name() {
    return this.config.name;
  }

  private async connect(): Promise<Client> {
    if (this.closed) throw new Error(`MCP server "${this.name}" is shut down`);
    if (this.client) return this.client;
    if (this.failure && Date.now() - this.failure.at < this.o.retryAfterMs) {
      throw new Error(`MCP server "${this.name}" is unavailable: ${this.failure.message}`);
    }
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const gen = ++this.generation;
    const [{ Client }, { ToolListChangedNotificationSchema }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    let transport: Transport;
    if ('command' in this.config) {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const t = new StdioClientTransport({
        command: this.config.command,
        args: this.config.args,
        env: this.config.env,
        cwd: this.config.cwd,
        stderr: 'pipe',
      });
      // Keep the last lines of stderr: they are what explains a crash.
      t.stderr?.on('data', (d: Buffer) => {
        this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-2000);
      });
      transport = t;
    } else {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const url = new URL(this.config.url);
      const guarded = createGuardedFetch({
        allowlist: this.o.allowlist,
        resolver: this.o.resolver,
        operatorHosts: [hostPortKey(url)],
      });
      const secretHeaders = Object.keys(this.config.headers ?? {});
      transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: this.config.headers ?? {} },
        // No deadline of the guard's own: the SDK times its requests, and its event stream lives long.
        fetch: (input, init) => guarded(input, { ...init, timeoutMs: 0, secretHeaders }),
      });
    }
    const client = new Client({ name: this.o.clientName, version: '1.0.0' }, { capabilities: {} });
    client.onclose = () => {
      if (gen !== this.generation) return;
      this.client = undefined;
      this.tools = undefined;
      this.listVersion++;
      if (!this.closed)
        this.failure = { at: Date.now(), message: `the server closed the connection${this.stderrHint()}` };
    };
    client.onerror = () => {
      /* transport errors surface on the pending request */
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (gen !== this.generation) return;
      this.listVersion++;
      this.tools = undefined;
      this.refreshes++;
      try {
        const tools = await this.listTools();
        this.o.onToolsChanged?.(
          this.name,
          tools.map((t) => t.name),
        );
      } catch {
        /* the next use lists again */
      }
    });
    try {
      await client.connect(transport, { timeout: this.o.connectTimeoutMs });
    } catch (err) {
      await client.close().catch(() => {});
      // The guard's refusal says which address and how to allow it; the SDK may have wrapped it.
      const reason = guardErrorIn(err) ?? err;
      const message = `${reason instanceof Error ? reason.message : String(reason)}${this.stderrHint()}`;
      this.failure = { at: Date.now(), message };
      throw new Error(`MCP server "${this.name}" failed to start: ${message}`);
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new Error(`MCP server "${this.name}" is shut down`);
    }
    this.failure = undefined;
    this.client = client;
    return client;
  }

  private stderrHint(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? ` (stderr: ${tail.slice(-300)})` : '';
  }

  /** The server's tools (all pages), cached until list_changed or a reconnect. */
  async listTools(): Promise<McpToolInfo[]> {
    if (this.tools) return this.tools;
    this.listing ??= (async () => {
      // A list_changed arriving mid-listing bumps listVersion: list again rather than cache a stale answer.
      for (;;) {
        const version = this.listVersion;
        const list = await this.fetchTools();
        if (version === this.listVersion) {
          this.tools = list;
          return list;
        }
      }
    })().finally(() => {
      this.listing = undefined;
    });
    return this.listing;
  }

  private async fetchTools(): Promise<McpToolInfo[]> {
    const client = await this.connect();
    const all: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.o.connectTimeoutMs });
      all.push(...(res.tools as McpToolInfo[]));
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    // Tools that only run as MCP tasks cannot be called with a plain tools/call.
    return all.filter((t) => t.execution?.taskSupport !== 'required');
  }

  async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
    const client = await this.connect();
    const res = await client.callTool({ name: tool, arguments: args }, undefined, {
      signal: ctx.signal,
      timeout: ctx.timeoutMs,
      maxTotalTimeout: ctx.timeoutMs,
    });
    const text = renderContent(res as { content?: unknown[]; structuredContent?: unknown; toolResult?: unknown });
    if ((res as { isError?: boolean }).isError) throw new Error(text || `${tool} reported an error`);
    return text;
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await c?.close().catch(() => {});
  }
}

/** The fields of MCP content blocks read below; a server may send anything, so none is trusted to exist. */
interface ContentBlockFields {
  type?: unknown;
  text?: unknown;
  mimeType?: unknown;
  data?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { text?: unknown; uri?: unknown };
}

/** MCP content blocks as text for the model. */
function renderContent(res: { content?: unknown[]; structuredContent?: unknown; toolResult?: unknown }): string {
  const parts: string[] = [];
  for (const b of (res.content ?? []) as ContentBlockFields[]) {
    if (b.type === 'text') parts.push(String(b.text));
    else if (b.type === 'image' || b.type === 'audio')
      parts.push(`[${b.type}: ${b.mimeType ?? 'unknown type'}, ${String(b.data ?? '').length} base64 chars]`);
    else if (b.type === 'resource')
      parts.push(b.resource?.text !== undefined ? String(b.resource.text) : `[resource ${b.resource?.uri ?? ''}]`);
    else if (b.type === 'resource_link') parts.push(`[resource link ${b.uri}${b.name ? ` (${b.name})` : ''}]`);
    else parts.push(JSON.stringify(b));
  }
  if (!parts.length && res.structuredContent !== undefined) parts.push(JSON.stringify(res.structuredContent));
  if (!parts.length && res.toolResult !== undefined) parts.push(JSON.stringify(res.toolResult));
  return parts.join('\n');
}

export class McpManager implements McpToolSource {
  private readonly servers = new Map<string, ServerConnection>();

  constructor(configs: McpServerConfig[], opts: McpManagerOptions = {}) {
    const o = {
      clientName: opts.clientName ?? 'paiflow',
      connectTimeoutMs: opts.connectTimeoutMs ?? 30_000,
      retryAfterMs: opts.retryAfterMs ?? 10_000,
      onToolsChanged: opts.onToolsChanged,
      allowlist: opts.allowlist ?? [],
      resolver: opts.resolver,
    };
    for (const c of configs) this.servers.set(c.name, new ServerConnection(mcpServerConfigSchema.parse(c), o));
  }

  serverNames(): string[] {
    return [...this.servers.keys()];
  }

  /** How many list_changed refreshes a server had (observability and tests). */
  refreshCount(server: string): number {
    return this.servers.get(server)?.refreshes ?? 0;
  }

  async listTools(opts: { servers?: string[]; signal?: AbortSignal } = {}) {
    const wanted = opts.servers ? opts.servers.filter((s) => this.servers.has(s)) : this.serverNames();
    const tools: AgentTool[] = [];
    const errors: { server: string; message: string }[] = [];
    await Promise.all(
      wanted.map(async (name) => {
        const conn = this.servers.get(name)!;
        try {
          for (const t of await conn.listTools()) tools.push(this.asAgentTool(conn, t));
        } catch (err) {
          errors.push({ server: name, message: err instanceof Error ? err.message : String(err) });
        }
      }),
    );
    for (const s of opts.servers ?? [])
      if (!this.servers.has(s)) errors.push({ server: s, message: `no MCP server named "${s}" is configured` });
    tools.sort((a, b) => a.name.localeCompare(b.name));
    return { tools, errors };
  }

  private asAgentTool(conn: ServerConnection, t: McpToolInfo): AgentTool {
    const schema = t.inputSchema && typeof t.inputSchema === 'object' ? t.inputSchema : {};
    return {
      name: mcpToolName(conn.name, t.name),
      description: `${t.description ?? t.name} (MCP server "${conn.name}")`.slice(0, 1024),
      parameters: { ...schema, type: 'object', properties: (schema as { properties?: unknown }).properties ?? {} },
      execute: (args, ctx) => conn.call(t.name, args, ctx),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.close()));
  }
}
