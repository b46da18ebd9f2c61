'use client';
/** API keys of the endpoint: create (the full key is shown once), list with prefix and last use, revoke. */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { ApiKeyInfo, NewApiKey } from './publish-api';
import { ConfirmButton, CopyButton, InlineError, Section, inputClass, useFormatTime } from './publish-ui';

function NewKeyNotice({ created, onDismiss }: { created: NewApiKey; onDismiss: () => void }) {
  const t = useTranslations('publish.keys');
  return (
    <div
      role="status"
      data-testid="new-key"
      data-key-id={created.id}
      className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3"
    >
      <p className="text-[12px] font-medium text-amber-900">
        {created.name ? t('newKeyTitleNamed', { name: created.name }) : t('newKeyTitle')}
      </p>
      <p className="mt-0.5 text-[11px] text-amber-800">{t('newKeyHint')}</p>
      <div className="mt-2 flex items-center gap-1.5">
        <input
          readOnly
          value={created.key}
          data-testid="new-key-value"
          aria-label={t('newKeyAria')}
          onFocus={(e) => e.currentTarget.select()}
          className={
            'h-7 min-w-0 flex-1 rounded-md border border-amber-300 ' +
            'bg-white px-2 font-mono text-[11px] text-zinc-900'
          }
        />
        <CopyButton text={created.key} testId="copy-new-key" />
        <Button size="sm" variant="ghost" data-testid="dismiss-new-key" onClick={onDismiss}>
          {t('done')}
        </Button>
      </div>
    </div>
  );
}

function KeyRow({ k, onRevoke }: { k: ApiKeyInfo; onRevoke: () => Promise<void> }) {
  const t = useTranslations('publish.keys');
  const formatTime = useFormatTime();
  const revoked = !!k.revokedAt;
  return (
    <li
      data-testid="api-key-row"
      data-key-id={k.id}
      data-revoked={revoked}
      className={
        'flex items-center gap-2 rounded-md border border-zinc-200 px-3 py-2 text-[12px] ' +
        (revoked ? 'bg-zinc-50 text-zinc-400' : '')
      }
    >
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <span
            className={`truncate font-medium ${revoked ? 'text-zinc-400 line-through' : 'text-zinc-900'}`}
            data-testid="api-key-name"
          >
            {k.name || t('unnamed')}
          </span>
          <code className="font-mono text-[11px] text-zinc-500" data-testid="api-key-prefix">
            {k.prefix}…
          </code>
          {revoked && (
            <span
              data-testid="api-key-revoked"
              className="rounded-full bg-zinc-200 px-1.5 py-px text-[10px] font-medium text-zinc-600"
            >
              {t('revoked')}
            </span>
          )}
        </div>
        <div className="mt-0.5 text-[11px] text-zinc-500">
          {t('created', { time: formatTime(k.createdAt) })} ·{' '}
          <span data-testid="api-key-last-used">
            {k.lastUsedAt ? t('lastUsed', { time: formatTime(k.lastUsedAt) }) : t('lastUsedNever')}
          </span>
          {revoked && <> · {t('revokedAt', { time: formatTime(k.revokedAt) })}</>}
        </div>
      </div>
      {!revoked && (
        <ConfirmButton
          label={t('revoke')}
          question={t('revokeQuestion')}
          confirmLabel={t('revoke')}
          testId="api-key-revoke"
          onConfirm={onRevoke}
        />
      )}
    </li>
  );
}

export function ApiKeysSection({
  keys,
  created,
  creating,
  error,
  onCreate,
  onRevoke,
  onDismissCreated,
}: {
  keys: ApiKeyInfo[];
  created: NewApiKey | null;
  creating: boolean;
  error: unknown;
  onCreate: (name: string) => Promise<boolean>;
  onRevoke: (id: string) => Promise<void>;
  onDismissCreated: () => void;
}) {
  const t = useTranslations('publish.keys');
  const [name, setName] = useState('');
  const create = async () => {
    if (await onCreate(name.trim())) setName('');
  };
  const live = keys.filter((k) => !k.revokedAt).length;
  return (
    <Section
      title={t('title')}
      testId="publish-keys-section"
      aside={<span className="text-[11px] text-zinc-400">{keys.length ? t('active', { count: live }) : ''}</span>}
    >
      {created && <NewKeyNotice created={created} onDismiss={onDismissCreated} />}
      <div className="flex gap-2">
        <input
          data-testid="api-key-name-input"
          aria-label={t('nameAria')}
          className={inputClass}
          value={name}
          maxLength={100}
          placeholder={t('namePlaceholder')}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !creating) void create();
          }}
        />
        <Button
          size="sm"
          variant="primary"
          data-testid="api-key-create"
          disabled={creating}
          onClick={() => void create()}
        >
          {creating ? t('creating') : t('create')}
        </Button>
      </div>
      <InlineError error={error} testId="api-keys-error" />
      {keys.length === 0 ? (
        <p className="mt-2 text-[12px] text-zinc-500" data-testid="api-keys-empty">
          {t.rich('empty', {
            // i18n-exempt: the HTTP header callers send, the same in every language
            header: 'Authorization: Bearer <key>',
            code: (c) => <code className="font-mono text-[11px]">{c}</code>,
          })}
        </p>
      ) : (
        <ul className="mt-2 space-y-1.5" data-testid="api-keys-list">
          {keys.map((k) => (
            <KeyRow key={k.id} k={k} onRevoke={() => onRevoke(k.id)} />
          ))}
        </ul>
      )}
    </Section>
  );
}
