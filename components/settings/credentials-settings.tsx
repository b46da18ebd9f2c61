'use client';
/**
 * The workspace's credentials: the list (masked; environment ones are read-only) and, for admins, a create form
 * whose fields follow the type, with the hosts the credential may be sent to.
 */
import { useState } from 'react';
import { authApi, canAdmin, type CredentialType, type CredentialView } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { ErrorNote, Field, formatDate, inputCls, Section, SettingsShell, useApiData } from './settings-shell';

type NewType = Exclude<CredentialType, 'env'>;

/** The data fields of each type: [key, label, is secret]. */
const FIELDS: Record<NewType, Array<[string, string, boolean]>> = {
  openai: [
    ['baseUrl', 'Base URL', false],
    ['apiKey', 'API key', true],
  ],
  http_header: [
    ['name', 'Header name', false],
    ['value', 'Header value', true],
  ],
  bearer: [['token', 'Bearer token', true]],
  basic: [
    ['username', 'Username', false],
    ['password', 'Password', true],
  ],
};
const TYPE_LABEL: Record<CredentialType, string> = {
  openai: 'OpenAI-compatible',
  http_header: 'HTTP header',
  bearer: 'Bearer token',
  basic: 'Basic auth',
  env: 'Environment',
};

export function CredentialsSettings() {
  const auth = useAuth();
  const admin = canAdmin(auth?.role);
  const [actionError, setError] = useState<string | null>(null);
  const { data: list, error: loadError, reload } = useApiData(authApi.listCredentials);
  const error = actionError ?? loadError;

  const remove = async (c: CredentialView) => {
    if (!window.confirm(`Delete the credential “${c.name}”? Nodes that use it will fail.`)) return;
    setError(null);
    try {
      await authApi.deleteCredential(c.id);
      reload();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <SettingsShell title="Credentials">
      <ErrorNote error={error} />
      {admin && <CreateCredential onCreated={reload} />}
      <Section title="Credentials of this workspace" testId="credentials">
        {!list ? (
          <p className="text-sm text-zinc-500">{error ? '' : 'Loading…'}</p>
        ) : !list.length ? (
          <p className="text-sm text-zinc-500">No credentials yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-[11px] uppercase tracking-wider text-zinc-400">
              <tr>
                <th className="py-1 font-medium">Name</th>
                <th className="py-1 font-medium">Type</th>
                <th className="py-1 font-medium">Value</th>
                <th className="py-1 font-medium">Hosts</th>
                <th className="py-1 font-medium">Created</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.id} className="border-t border-zinc-100" data-testid="credential-row" data-name={c.name}>
                  <td className="py-2 font-medium">{c.name}</td>
                  <td className="py-2 text-zinc-600">{TYPE_LABEL[c.type] ?? c.type}</td>
                  <td className="py-2 font-mono text-[12px] text-zinc-600">{c.masked}</td>
                  <td className="py-2 text-zinc-600">{c.hosts?.join(', ') || '—'}</td>
                  <td className="py-2 text-zinc-500">{formatDate(c.createdAt)}</td>
                  <td className="py-2 text-right">
                    {admin && !c.readOnly && (
                      <Button size="sm" variant="danger" onClick={() => void remove(c)} aria-label={`Delete ${c.name}`}>
                        Delete
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </SettingsShell>
  );
}

function CreateCredential({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<NewType>('openai');
  const [data, setData] = useState<Record<string, string>>({});
  const [hosts, setHosts] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(null);
    const fields = Object.fromEntries(FIELDS[type].map(([k]) => [k, data[k] ?? '']).filter(([, v]) => v !== ''));
    const hostList = hosts
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    try {
      await authApi.createCredential({ name, type, data: fields, hosts: hostList.length ? hostList : undefined });
      setName('');
      setData({});
      setHosts('');
      onCreated();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title="Add a credential" testId="credential-create">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="flex gap-3">
          <Field id="credential-name" label="Name">
            <input
              id="credential-name"
              required
              value={name}
              onChange={(e) => setName(e.target.value)}
              className={inputCls}
            />
          </Field>
          <Field id="credential-type" label="Type">
            <select
              id="credential-type"
              value={type}
              onChange={(e) => {
                setType(e.target.value as NewType);
                setData({});
              }}
              className={inputCls}
            >
              {(Object.keys(FIELDS) as NewType[]).map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="flex gap-3">
          {FIELDS[type].map(([key, label, secret]) => (
            <Field key={`${type}-${key}`} id={`credential-data-${key}`} label={label}>
              <input
                id={`credential-data-${key}`}
                type={secret ? 'password' : 'text'}
                autoComplete="off"
                required={!(type === 'openai' && key === 'baseUrl')}
                placeholder={type === 'openai' && key === 'baseUrl' ? 'https://api.openai.com/v1' : undefined}
                value={data[key] ?? ''}
                onChange={(e) => setData((d) => ({ ...d, [key]: e.target.value }))}
                className={inputCls}
              />
            </Field>
          ))}
        </div>
        {type !== 'openai' && (
          <Field id="credential-hosts" label="Allowed hosts (comma-separated, e.g. api.example.com, *.example.org)">
            <input
              id="credential-hosts"
              required
              value={hosts}
              onChange={(e) => setHosts(e.target.value)}
              className={inputCls}
            />
          </Field>
        )}
        <p className="text-[11px] text-zinc-500">
          {type === 'openai'
            ? 'Sent only to the base URL’s origin.'
            : 'Sent only to these hosts; a node calling any other host fails.'}{' '}
          The secret is stored encrypted and never shown again.
        </p>
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" disabled={busy} data-testid="credential-submit">
          Add credential
        </Button>
      </form>
    </Section>
  );
}
