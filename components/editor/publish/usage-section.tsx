'use client';
/** Ready-to-paste calls of the endpoint in curl, JavaScript and Python, and what each mode answers. */
import { useState } from 'react';
import { buildSnippet, type SnippetLang } from './snippets';
import { CopyButton, Section } from './publish-ui';

const TABS: Array<{ id: SnippetLang; label: string }> = [
  { id: 'curl', label: 'curl' },
  { id: 'js', label: 'JavaScript (fetch)' },
  { id: 'python', label: 'Python (requests)' },
];

export function UsageSection({
  endpoint,
  published,
  apiKey,
  inputs,
}: {
  endpoint: string | null;
  published: boolean;
  apiKey: string | null;
  inputs: Record<string, unknown>;
}) {
  const [lang, setLang] = useState<SnippetLang>('curl');
  const snippet = buildSnippet(lang, { endpoint, apiKey, inputs });
  return (
    <Section title="Use the API" testId="publish-usage-section">
      {!published && (
        <p className="mb-2 text-[12px] text-amber-800" data-testid="usage-unpublished">
          {endpoint
            ? 'The workflow is unpublished: this endpoint answers 404 until a version is current.'
            : 'Publish the workflow to get its endpoint; the snippets show placeholders until then.'}
        </p>
      )}
      <div
        className="flex items-end justify-between border-b border-zinc-200"
        role="tablist"
        aria-label="Snippet language"
      >
        <div className="flex">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={lang === t.id}
              data-testid={`usage-tab-${t.id}`}
              onClick={() => setLang(t.id)}
              className={
                '-mb-px border-b-2 px-2.5 py-1.5 text-[12px] font-medium ' +
                (lang === t.id
                  ? 'border-indigo-500 text-indigo-700'
                  : 'border-transparent text-zinc-500 hover:text-zinc-800')
              }
            >
              {t.label}
            </button>
          ))}
        </div>
        <div className="pb-1">
          <CopyButton text={snippet} testId="copy-snippet" />
        </div>
      </div>
      <pre
        data-testid="usage-snippet"
        data-lang={lang}
        role="tabpanel"
        className={
          'mt-2 max-h-72 overflow-auto rounded-md bg-zinc-900 ' +
          'p-3 font-mono text-[11px] leading-relaxed text-zinc-100'
        }
      >
        {snippet}
      </pre>
      <p className="mt-1.5 text-[11px] text-zinc-500" data-testid="usage-key-note">
        {apiKey ? (
          'Uses the key you just created.'
        ) : (
          <>
            Replace <code className="font-mono">YOUR_API_KEY</code> with a key from above.
          </>
        )}
      </p>
      <ul className="mt-2 space-y-1 text-[11px] text-zinc-600" data-testid="usage-modes">
        <li>
          <b className="text-zinc-800">Sync</b> (default): waits for the run and answers{' '}
          <code className="font-mono">{'{ runId, status, version, outputs }'}</code>; a run that takes too long answers
          202 with a <code className="font-mono">statusUrl</code>.
        </li>
        <li>
          <b className="text-zinc-800">Stream</b>: add{' '}
          <code className="font-mono">&quot;mode&quot;: &quot;stream&quot;</code> to the body to get the trace as
          server-sent events (<code className="font-mono">text/event-stream</code>).
        </li>
        <li>
          <b className="text-zinc-800">Async</b>: add{' '}
          <code className="font-mono">&quot;mode&quot;: &quot;async&quot;</code> to get 202 at once with a{' '}
          <code className="font-mono">statusUrl</code> to poll (same key).
        </li>
      </ul>
    </Section>
  );
}
