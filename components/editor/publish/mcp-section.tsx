'use client';
/**
 * The MCP opt-in: while the workflow is published and opted in, the MCP server (/api/mcp) offers it as a tool to
 * MCP clients holding one of its API keys (name = slug, inputs = the start node's). With ready-to-paste client
 * configurations for Claude Desktop and Cursor.
 */
import { useState } from 'react';
import { publishApi, type PublishStatus } from './publish-api';
import { CopyButton, InlineError, Section } from './publish-ui';
import { buildMcpConfig, KEY_PLACEHOLDER, type McpClient } from './snippets';

const CLIENTS: Array<{ id: McpClient; label: string; file: string }> = [
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    file:
      'claude_desktop_config.json (Settings → Developer → Edit Config); ' +
      'it starts the mcp-remote bridge with npx, so Node.js must be installed',
  },
  { id: 'cursor', label: 'Cursor', file: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json for all projects' },
];

export function McpSection({
  workflowId,
  status,
  apiKey,
  onSaved,
}: {
  workflowId: string;
  status: PublishStatus;
  /** The key created while the panel is open, if any: it goes into the snippets. */
  apiKey: string | null;
  onSaved: (s: PublishStatus) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [client, setClient] = useState<McpClient>('claude-desktop');
  const enabled = status.mcp === true;
  const config = buildMcpConfig(client, { url: status.mcpUrl ?? null, apiKey, slug: status.slug });
  const file = CLIENTS.find((c) => c.id === client)!.file;

  const toggle = async (next: boolean) => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await publishApi.setMcp(workflowId, next));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title="MCP" testId="publish-mcp-section">
      <p className="mb-2 text-[12px] text-zinc-600">
        MCP clients (Claude Desktop, Cursor, agents) can call this workflow as a tool
        {status.slug ? (
          <>
            {' '}
            named <code className="font-mono">{status.slug}</code>
          </>
        ) : null}
        , with one of its API keys. Each call is a published run, listed with trigger “mcp”.
      </p>
      <label className="flex cursor-pointer items-center gap-2 text-[12px] text-zinc-800">
        <input
          type="checkbox"
          data-testid="mcp-enabled"
          className="accent-indigo-600"
          checked={enabled}
          disabled={busy}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Offer this workflow on the MCP server
      </label>
      <InlineError error={error} testId="mcp-error" />
      {enabled && !status.published && (
        <p className="mt-2 text-[12px] text-amber-800" data-testid="mcp-unpublished">
          The workflow is not published: MCP clients do not see it until a version is current.
        </p>
      )}
      {enabled && (
        <div className="mt-3" data-testid="mcp-config">
          <p className="mb-1.5 text-[12px] text-zinc-600">
            Server URL:{' '}
            <code className="font-mono" data-testid="mcp-url">
              {status.mcpUrl ?? '/api/mcp'}
            </code>
          </p>
          <div
            className="flex items-end justify-between border-b border-zinc-200"
            role="tablist"
            aria-label="MCP client"
          >
            <div className="flex">
              {CLIENTS.map((c) => (
                <button
                  key={c.id}
                  type="button"
                  role="tab"
                  aria-selected={client === c.id}
                  data-testid={`mcp-tab-${c.id}`}
                  onClick={() => setClient(c.id)}
                  className={
                    '-mb-px border-b-2 px-2.5 py-1.5 text-[12px] font-medium ' +
                    (client === c.id
                      ? 'border-indigo-500 text-indigo-700'
                      : 'border-transparent text-zinc-500 hover:text-zinc-800')
                  }
                >
                  {c.label}
                </button>
              ))}
            </div>
            <div className="pb-1">
              <CopyButton text={config} testId="copy-mcp-config" />
            </div>
          </div>
          <pre
            data-testid="mcp-snippet"
            data-client={client}
            role="tabpanel"
            className={
              'mt-2 max-h-72 overflow-auto rounded-md bg-zinc-900 ' +
              'p-3 font-mono text-[11px] leading-relaxed text-zinc-100'
            }
          >
            {config}
          </pre>
          <p className="mt-1.5 text-[11px] text-zinc-500">
            Put it in {file}.{' '}
            {apiKey ? (
              'Uses the key you just created.'
            ) : (
              <>
                Replace <code className="font-mono">{KEY_PLACEHOLDER}</code> with a key from above.
              </>
            )}
          </p>
        </div>
      )}
    </Section>
  );
}
