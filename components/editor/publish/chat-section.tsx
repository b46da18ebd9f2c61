'use client';
/**
 * The chat app: a page at /chat/:slug where people talk to the published workflow (public, or behind an access
 * code), and the `<script>` tag that puts a chat bubble opening that page on any website.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { publishApi, type ChatAppSettingsInput, type PublishStatus } from './publish-api';
import { CopyButton, InlineError, Section } from './publish-ui';

const lines = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);

export function ChatSection({
  workflowId,
  status,
  onSaved,
}: {
  workflowId: string;
  status: PublishStatus;
  onSaved: (s: PublishStatus) => void;
}) {
  const t = useTranslations('publish.chat');
  const chat = status.chat;
  const [title, setTitle] = useState(chat?.title ?? '');
  const [welcome, setWelcome] = useState(chat?.welcome ?? '');
  const [suggestions, setSuggestions] = useState((chat?.suggestions ?? []).join('\n'));
  const [embedOrigins, setEmbedOrigins] = useState((chat?.embedOrigins ?? ['*']).join('\n'));
  const [access, setAccess] = useState<'public' | 'code'>(chat?.access ?? 'public');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const enabled = chat?.enabled === true;

  const save = async (nextEnabled: boolean) => {
    setSaved(false);
    if (access === 'code' && !code && !chat?.hasCode) {
      setError(new Error(t('codeMissing')));
      return;
    }
    setBusy(true);
    setError(null);
    const body: ChatAppSettingsInput = {
      enabled: nextEnabled,
      title: title.trim(),
      welcome: welcome.trim(),
      suggestions: lines(suggestions),
      embedOrigins: lines(embedOrigins),
      access,
      ...(access === 'code' && code ? { code } : {}),
    };
    try {
      onSaved(await publishApi.setChat(workflowId, body));
      setCode('');
      setSaved(true);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const field = 'mt-1 w-full rounded-md border border-zinc-300 px-2 py-1 text-[12px]';
  return (
    <Section title={t('title')} testId="publish-chat-section">
      <p className="mb-2 text-[12px] text-zinc-600">{t('intro')}</p>
      <label className="flex cursor-pointer items-center gap-2 text-[12px] text-zinc-800">
        <input
          type="checkbox"
          data-testid="chat-enabled"
          className="accent-indigo-600"
          checked={enabled}
          disabled={busy}
          onChange={(e) => void save(e.target.checked)}
        />
        {t('enable')}
      </label>
      <div className="mt-3 grid gap-2">
        <label className="text-[12px] text-zinc-700">
          {t('titleLabel')}
          <input
            className={field}
            value={title}
            maxLength={120}
            onChange={(e) => setTitle(e.target.value)}
            data-testid="chat-title"
          />
        </label>
        <label className="text-[12px] text-zinc-700">
          {t('welcomeLabel')}
          <textarea
            className={field}
            rows={2}
            value={welcome}
            maxLength={2000}
            onChange={(e) => setWelcome(e.target.value)}
            data-testid="chat-welcome"
          />
        </label>
        <label className="text-[12px] text-zinc-700">
          {t('suggestionsLabel')}
          <textarea
            className={field}
            rows={3}
            value={suggestions}
            onChange={(e) => setSuggestions(e.target.value)}
            data-testid="chat-suggestions"
          />
        </label>
        <label className="text-[12px] text-zinc-700">
          {t('embedOriginsLabel')}
          <textarea
            className={field}
            rows={2}
            value={embedOrigins}
            onChange={(e) => setEmbedOrigins(e.target.value)}
            data-testid="chat-embed-origins"
          />
        </label>
        <fieldset className="text-[12px] text-zinc-700">
          <legend>{t('accessLabel')}</legend>
          <label className="mr-4 inline-flex items-center gap-1">
            <input
              type="radio"
              name="chat-access"
              checked={access === 'public'}
              onChange={() => setAccess('public')}
              data-testid="chat-access-public"
            />
            {t('accessPublic')}
          </label>
          <label className="inline-flex items-center gap-1">
            <input
              type="radio"
              name="chat-access"
              checked={access === 'code'}
              onChange={() => setAccess('code')}
              data-testid="chat-access-code"
            />
            {t('accessCode')}
          </label>
        </fieldset>
        {access === 'code' && (
          <label className="text-[12px] text-zinc-700">
            {chat?.hasCode ? t('codeKeep') : t('codeLabel')}
            <input
              className={field}
              type="password"
              autoComplete="new-password"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              data-testid="chat-code"
            />
          </label>
        )}
        <div className="flex items-center gap-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => void save(enabled)}
            data-testid="chat-save"
          >
            {t('save')}
          </Button>
          {saved && (
            <span className="text-[11px] text-emerald-700" data-testid="chat-saved">
              {t('saved')}
            </span>
          )}
        </div>
      </div>
      <InlineError error={error} testId="chat-error" />
      {enabled && !status.published && (
        <p className="mt-2 text-[12px] text-amber-800" data-testid="chat-unpublished">
          {t('unpublished')}
        </p>
      )}
      {enabled && chat?.url && chat.embedSnippet && (
        <div className="mt-3 grid gap-2" data-testid="chat-links">
          <p className="text-[12px] text-zinc-600">
            {t('pageLabel')}{' '}
            <a
              className="font-mono text-indigo-700 underline"
              href={chat.url}
              target="_blank"
              rel="noreferrer"
              data-testid="chat-url"
            >
              {chat.url}
            </a>
          </p>
          <div className="flex items-center justify-between">
            <span className="text-[12px] text-zinc-600">{t('embedLabel')}</span>
            <CopyButton text={chat.embedSnippet} testId="copy-chat-embed" />
          </div>
          <pre
            data-testid="chat-embed-snippet"
            className="overflow-auto rounded-md bg-zinc-900 p-3 font-mono text-[11px] leading-relaxed text-zinc-100"
          >
            {chat.embedSnippet}
          </pre>
        </div>
      )}
    </Section>
  );
}
