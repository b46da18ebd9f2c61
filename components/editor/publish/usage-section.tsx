'use client';
/** Ready-to-paste calls of the endpoint in curl, JavaScript and Python, and what each mode answers. */
import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { buildSnippet, KEY_PLACEHOLDER, type SnippetLang } from './snippets';
import { CopyButton, Section } from './publish-ui';

/** Programming languages and their HTTP libraries, by name: the same in every language. */
const TABS: Array<{ id: SnippetLang; label: string }> = [
  { id: 'curl', label: 'curl' },
  // i18n-exempt: a programming language and library name
  { id: 'js', label: 'JavaScript (fetch)' },
  // i18n-exempt: a programming language and library name
  { id: 'python', label: 'Python (requests)' },
];

const code = (c: ReactNode) => <code className="font-mono">{c}</code>;
const b = (c: ReactNode) => <b className="text-zinc-800">{c}</b>;

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
  const t = useTranslations('publish.usage');
  const tu = useTranslations('publish.ui');
  const [lang, setLang] = useState<SnippetLang>('curl');
  const snippet = buildSnippet(lang, { endpoint, apiKey, inputs });
  return (
    <Section title={t('title')} testId="publish-usage-section">
      {!published && (
        <p className="mb-2 text-[12px] text-amber-800" data-testid="usage-unpublished">
          {endpoint ? t('unpublished') : t('noEndpoint')}
        </p>
      )}
      <div
        className="flex items-end justify-between border-b border-zinc-200"
        role="tablist"
        aria-label={t('languageAria')}
      >
        <div className="flex">
          {TABS.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              aria-selected={lang === tab.id}
              data-testid={`usage-tab-${tab.id}`}
              onClick={() => setLang(tab.id)}
              className={
                '-mb-px border-b-2 px-2.5 py-1.5 text-[12px] font-medium ' +
                (lang === tab.id
                  ? 'border-indigo-500 text-indigo-700'
                  : 'border-transparent text-zinc-500 hover:text-zinc-800')
              }
            >
              {tab.label}
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
        {apiKey ? tu('keyCreated') : tu.rich('keyReplace', { placeholder: KEY_PLACEHOLDER, code })}
      </p>
      <ul className="mt-2 space-y-1 text-[11px] text-zinc-600" data-testid="usage-modes">
        <li>{t.rich('sync', { shape: '{ runId, status, version, outputs }', b, code })}</li>
        <li>{t.rich('stream', { field: '"mode": "stream"', b, code })}</li>
        <li>{t.rich('async', { field: '"mode": "async"', b, code })}</li>
      </ul>
    </Section>
  );
}
