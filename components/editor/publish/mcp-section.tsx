'use client';
/**
 * The MCP opt-in: while the workflow is published and opted in, the MCP server (/api/mcp) offers it as a tool to
 * MCP clients holding one of its API keys (name = slug, inputs = the start node's). With ready-to-paste client
 * configurations for Claude Desktop and Cursor.
 */
import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { publishApi, type PublishStatus } from './publish-api';
import { CopyButton, InlineError, Section } from './publish-ui';
import { buildMcpConfig, KEY_PLACEHOLDER, type McpClient } from './snippets';

/** The clients by their product names (the same in every language); `fileKey` says where their configuration goes. */
const CLIENTS: Array<{ id: McpClient; label: string; fileKey: 'fileClaudeDesktop' | 'fileCursor' }> = [
  // i18n-exempt: a product name
  { id: 'claude-desktop', label: 'Claude Desktop', fileKey: 'fileClaudeDesktop' },
  // i18n-exempt: a product name
  { id: 'cursor', label: 'Cursor', fileKey: 'fileCursor' },
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
  const t = useTranslations('publish.mcp');
  const tu = useTranslations('publish.ui');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [client, setClient] = useState<McpClient>('claude-desktop');
  const enabled = status.mcp === true;
  const config = buildMcpConfig(client, { url: status.mcpUrl ?? null, apiKey, slug: status.slug });
  const file = t(CLIENTS.find((c) => c.id === client)!.fileKey);
  const code = (c: ReactNode) => <code className="font-mono">{c}</code>;

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
        {status.slug ? t.rich('introNamed', { slug: status.slug, code }) : t('intro')}
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
        {t('offer')}
      </label>
      <InlineError error={error} testId="mcp-error" />
      {enabled && !status.published && (
        <p className="mt-2 text-[12px] text-amber-800" data-testid="mcp-unpublished">
          {t('unpublished')}
        </p>
      )}
      {enabled && (
        <div className="mt-3" data-testid="mcp-config">
          <p className="mb-1.5 text-[12px] text-zinc-600">
            {t('serverUrl')}{' '}
            <code className="font-mono" data-testid="mcp-url">
              {/* i18n-exempt: the MCP server's path */}
              {status.mcpUrl ?? '/api/mcp'}
            </code>
          </p>
          <div
            className="flex items-end justify-between border-b border-zinc-200"
            role="tablist"
            aria-label={t('clientAria')}
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
            {t('putIn', { file })}{' '}
            {apiKey ? tu('keyCreated') : tu.rich('keyReplace', { placeholder: KEY_PLACEHOLDER, code })}
          </p>
        </div>
      )}
    </Section>
  );
}
