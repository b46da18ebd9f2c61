/**
 * Ready-to-paste calls of a published endpoint (curl, JavaScript fetch, Python requests), built from the start node's
 * inputs, and MCP client configurations for the MCP server (Claude Desktop, Cursor).
 */
import type { Graph } from '@/components/api/types';

export const KEY_PLACEHOLDER = 'YOUR_API_KEY';
export const ENDPOINT_PLACEHOLDER = 'https://YOUR_PAIFLOW_HOST/api/v1/workflows/YOUR_SLUG/run';
export const MCP_URL_PLACEHOLDER = 'https://YOUR_PAIFLOW_HOST/api/mcp';

export type SnippetLang = 'curl' | 'js' | 'python';

interface InputDecl {
  name?: unknown;
  type?: unknown;
  default?: unknown;
}

/**
 * A sample value per declared type: its default if it has one, else string → "…", number → 1, boolean → true, object →
 * {}, array → [].
 */
function sampleValue(d: InputDecl): unknown {
  if (d.default !== undefined) return d.default;
  switch (d.type ?? 'string') {
    case 'string':
      return '…';
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'object':
      return {};
    case 'array':
      return [];
    default:
      return null;
  }
}

/** `{ name: sample }` for every input the graph's start node declares. */
export function sampleInputs(graph: Pick<Graph, 'nodes'> | null | undefined): Record<string, unknown> {
  const start = graph?.nodes.find((n) => n.type === 'start');
  const config = (start?.data as { config?: { inputs?: unknown } } | undefined)?.config;
  const decls = Array.isArray(config?.inputs) ? (config.inputs as InputDecl[]) : [];
  const out: Record<string, unknown> = {};
  for (const d of decls) if (d && typeof d.name === 'string' && d.name) out[d.name] = sampleValue(d);
  return out;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** JSON written as a Python literal (True/False/None), indented like json.dumps(indent=4) from `level`. */
export function toPython(v: unknown, level = 0): string {
  const pad = (n: number) => '    '.repeat(n);
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'None';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    return `[\n${v.map((x) => `${pad(level + 1)}${toPython(x, level + 1)}`).join(',\n')},\n${pad(level)}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length) return '{}';
  const lines = entries.map(([k, x]) => `${pad(level + 1)}${JSON.stringify(k)}: ${toPython(x, level + 1)}`);
  return `{\n${lines.join(',\n')},\n${pad(level)}}`;
}

/** JSON indented by two spaces, every line after the first shifted by `indent`. */
const indented = (v: unknown, indent: string) => JSON.stringify(v, null, 2).split('\n').join(`\n${indent}`);

export function buildSnippet(
  lang: SnippetLang,
  opts: { endpoint: string | null; apiKey: string | null; inputs: Record<string, unknown> },
): string {
  const endpoint = opts.endpoint ?? ENDPOINT_PLACEHOLDER;
  const key = opts.apiKey ?? KEY_PLACEHOLDER;
  const body = { inputs: opts.inputs };
  switch (lang) {
    case 'curl':
      return [
        `curl -X POST ${shellQuote(endpoint)} \\`,
        `  -H ${shellQuote(`Authorization: Bearer ${key}`)} \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d ${shellQuote(JSON.stringify(body))}`,
      ].join('\n');
    case 'js':
      return [
        `const res = await fetch(${JSON.stringify(endpoint)}, {`,
        `  method: 'POST',`,
        `  headers: {`,
        `    Authorization: ${JSON.stringify(`Bearer ${key}`)},`,
        `    'Content-Type': 'application/json',`,
        `  },`,
        `  body: JSON.stringify(${indented(body, '  ')}),`,
        `});`,
        `if (!res.ok) throw new Error(\`PaiFlow: \${res.status} \${await res.text()}\`);`,
        `const { runId, status, version, outputs } = await res.json();`,
        `console.log(outputs);`,
      ].join('\n');
    case 'python':
      return [
        'import requests',
        '',
        'res = requests.post(',
        `    ${JSON.stringify(endpoint)},`,
        `    headers={"Authorization": ${JSON.stringify(`Bearer ${key}`)}},`,
        `    json=${toPython(body, 1)},`,
        '    timeout=60,',
        ')',
        'res.raise_for_status()',
        'print(res.json()["outputs"])',
      ].join('\n');
  }
}

export type McpClient = 'claude-desktop' | 'cursor';

/** The environment variable the Claude Desktop snippet passes the Authorization value in. */
export const MCP_AUTH_ENV = 'PAIFLOW_AUTH';

/** The `mcpServers` entry name: `paiflow-<slug>`, so several workflows' servers sit side by side in one file. */
export const mcpServerName = (slug: string | null | undefined) => (slug ? `paiflow-${slug}` : 'paiflow');

/** mcp-remote refuses plain http except to this machine unless told it is a trusted network. */
function needsAllowHttp(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

/**
 * The MCP client's configuration file content for the MCP server.
 *   - Claude Desktop (claude_desktop_config.json) starts local (stdio) servers only, so the remote server is reached
 *     through the `mcp-remote` bridge (`npx -y mcp-remote <url> --header …`). The header is written
 *     `Authorization:${PAIFLOW_AUTH}` with the value in `env`: a space inside `args` is mangled by Claude Desktop on
 *     Windows (and by Cursor), as mcp-remote's README warns, while spaces in env values are safe.
 *   - Cursor (.cursor/mcp.json) speaks Streamable HTTP itself: `url` and `headers`.
 */
export function buildMcpConfig(
  client: McpClient,
  opts: { url: string | null; apiKey: string | null; slug: string | null },
): string {
  const url = opts.url ?? MCP_URL_PLACEHOLDER;
  const auth = `Bearer ${opts.apiKey ?? KEY_PLACEHOLDER}`;
  const name = mcpServerName(opts.slug);
  const server =
    client === 'cursor'
      ? { url, headers: { Authorization: auth } }
      : {
          command: 'npx',
          args: [
            '-y',
            'mcp-remote',
            url,
            '--header',
            `Authorization:\${${MCP_AUTH_ENV}}`,
            ...(needsAllowHttp(url) ? ['--allow-http'] : []),
          ],
          env: { [MCP_AUTH_ENV]: auth },
        };
  return JSON.stringify({ mcpServers: { [name]: server } }, null, 2);
}
