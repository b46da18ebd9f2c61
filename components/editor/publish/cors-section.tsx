'use client';
/**
 * Which browser origins may call the endpoint: the server default (CORS_ORIGINS) or a custom list for this workflow.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { ApiError } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { publishApi, type PublishStatus } from './publish-api';
import { InlineError, Section } from './publish-ui';

function describeOrigins(origins: '*' | string[] | undefined, t: (key: string) => string): string {
  if (origins === undefined) return t('originsConfigured');
  if (origins === '*' || origins.includes('*')) return t('originsAny');
  if (!origins.length) return t('originsNone');
  return origins.join(', ');
}

/** One origin per line; blank lines and surrounding spaces do not count. */
export const parseOrigins = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** A 400 for `corsOrigins.1` (or `corsOrigins[1]`) names the origin it is about. */
function withOrigin(e: unknown, sent: string[]): unknown {
  if (!(e instanceof ApiError)) return e;
  const m = /^corsOrigins(?:\.(\d+)|\[(\d+)\])$/.exec(e.path ?? '');
  const origin = m ? sent[Number(m[1] ?? m[2])] : undefined;
  return origin === undefined ? e : new ApiError(e.status, e.code, `“${origin}”: ${e.message}`, e.path);
}

/** Keyed by the saved value in the parent, so a save (or a reload) resets the form to what is stored. */
export function CorsSection({
  workflowId,
  status,
  onSaved,
}: {
  workflowId: string;
  status: PublishStatus;
  onSaved: (s: PublishStatus) => void;
}) {
  const t = useTranslations('publish.cors');
  const saved = status.corsOrigins ?? null;
  const [mode, setMode] = useState<'default' | 'custom'>(saved === null ? 'default' : 'custom');
  const [text, setText] = useState((saved ?? []).join('\n'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const value = mode === 'default' ? null : parseOrigins(text);
  const dirty = JSON.stringify(value) !== JSON.stringify(saved);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await publishApi.setCors(workflowId, value));
    } catch (e) {
      setError(withOrigin(e, value ?? []));
    } finally {
      setBusy(false);
    }
  };

  const radio = (m: 'default' | 'custom', label: string, testId: string) => (
    <label className="flex cursor-pointer items-center gap-2 text-[12px] text-zinc-800">
      <input
        type="radio"
        name="cors-mode"
        value={m}
        checked={mode === m}
        data-testid={testId}
        className="accent-indigo-600"
        onChange={() => {
          setMode(m);
          setError(null);
        }}
      />
      {label}
    </label>
  );

  return (
    <Section
      title={t('title')}
      testId="publish-cors-section"
      aside={
        <span
          className="text-[11px] text-zinc-400"
          data-testid="cors-saved"
          data-mode={saved === null ? 'default' : 'custom'}
        >
          {saved === null ? t('savedDefault') : t('savedCustom')}
        </span>
      }
    >
      <p className="mb-2 text-[12px] text-zinc-600">{t('intro')}</p>
      <div className="space-y-1.5">
        {radio('default', t('modeDefault', { origins: describeOrigins(status.corsDefault, t) }), 'cors-mode-default')}
        {radio('custom', t('modeCustom'), 'cors-mode-custom')}
      </div>
      {mode === 'custom' && (
        <div className="mt-2 pl-5">
          <textarea
            data-testid="cors-origins"
            aria-label={t('originsAria')}
            rows={4}
            value={text}
            spellCheck={false}
            // i18n-exempt: example origins (URLs), the same in every language
            placeholder={'https://app.example.com\nhttp://localhost:5173'}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            className={
              'w-full rounded-md border px-2 py-1.5 font-mono text-[12px] outline-none focus:ring-2 ' +
              (error
                ? 'border-red-400 focus:ring-red-100'
                : 'border-zinc-300 focus:border-indigo-400 focus:ring-indigo-100')
            }
          />
          <p className="text-[11px] text-zinc-500">
            {t.rich('help', { code: (c) => <code className="font-mono">{c}</code> })}
          </p>
        </div>
      )}
      <InlineError error={error} testId="cors-error" />
      <div className="mt-2 flex items-center gap-2">
        <Button
          size="sm"
          variant="primary"
          data-testid="cors-save"
          disabled={busy || !dirty}
          onClick={() => void save()}
        >
          {busy ? t('saving') : t('save')}
        </Button>
        {dirty && <span className="text-[11px] text-amber-700">{t('unsaved')}</span>}
      </div>
    </Section>
  );
}
