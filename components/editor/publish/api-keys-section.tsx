'use client';
/** API keys of the endpoint: create (the full key is shown once), list with prefix and last use, revoke. */
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { ApiKeyInfo, NewApiKey } from './publish-api';
import { ConfirmButton, CopyButton, InlineError, Section, formatTime, inputClass } from './publish-ui';

function NewKeyNotice({ created, onDismiss }: { created: NewApiKey; onDismiss: () => void }) {
  return (
    <div
      role="status"
      data-testid="new-key"
      data-key-id={created.id}
      className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3"
    >
      <p className="text-[12px] font-medium text-amber-900">
        Copy your new key{created.name ? ` “${created.name}”` : ''} now. It will not be shown again.
      </p>
      <p className="mt-0.5 text-[11px] text-amber-800">
        PaiFlow stores only a hash of it; if it is lost, create a new key and revoke this one.
      </p>
      <div className="mt-2 flex items-center gap-1.5">
        <input
          readOnly
          value={created.key}
          data-testid="new-key-value"
          aria-label="New API key"
          onFocus={(e) => e.currentTarget.select()}
          className={
            'h-7 min-w-0 flex-1 rounded-md border border-amber-300 ' +
            'bg-white px-2 font-mono text-[11px] text-zinc-900'
          }
        />
        <CopyButton text={created.key} testId="copy-new-key" />
        <Button size="sm" variant="ghost" data-testid="dismiss-new-key" onClick={onDismiss}>
          Done
        </Button>
      </div>
    </div>
  );
}

function KeyRow({ k, onRevoke }: { k: ApiKeyInfo; onRevoke: () => Promise<void> }) {
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
            {k.name || 'Unnamed key'}
          </span>
          <code className="font-mono text-[11px] text-zinc-500" data-testid="api-key-prefix">
            {k.prefix}…
          </code>
          {revoked && (
            <span
              data-testid="api-key-revoked"
              className="rounded-full bg-zinc-200 px-1.5 py-px text-[10px] font-medium text-zinc-600"
            >
              revoked
            </span>
          )}
        </div>
        <div className="mt-0.5 text-[11px] text-zinc-500">
          Created {formatTime(k.createdAt)} ·{' '}
          <span data-testid="api-key-last-used">last used {k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</span>
          {revoked && <> · revoked {formatTime(k.revokedAt)}</>}
        </div>
      </div>
      {!revoked && (
        <ConfirmButton
          label="Revoke"
          question="Revoke? Callers using it get 401."
          confirmLabel="Revoke"
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
  const [name, setName] = useState('');
  const create = async () => {
    if (await onCreate(name.trim())) setName('');
  };
  const live = keys.filter((k) => !k.revokedAt).length;
  return (
    <Section
      title="API keys"
      testId="publish-keys-section"
      aside={<span className="text-[11px] text-zinc-400">{keys.length ? `${live} active` : ''}</span>}
    >
      {created && <NewKeyNotice created={created} onDismiss={onDismissCreated} />}
      <div className="flex gap-2">
        <input
          data-testid="api-key-name-input"
          aria-label="Key name"
          className={inputClass}
          value={name}
          maxLength={100}
          placeholder="Name (optional), e.g. production app"
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
          {creating ? 'Creating…' : 'Create key'}
        </Button>
      </div>
      <InlineError error={error} testId="api-keys-error" />
      {keys.length === 0 ? (
        <p className="mt-2 text-[12px] text-zinc-500" data-testid="api-keys-empty">
          No keys yet. Callers send a key as{' '}
          <code className="font-mono text-[11px]">Authorization: Bearer &lt;key&gt;</code>.
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
