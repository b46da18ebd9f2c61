'use client';
/**
 * The workspace's credentials: the list (masked; environment ones are read-only) and, for admins, a create form
 * whose fields follow the type, with the hosts the credential may be sent to (and, for an OpenAI-compatible one, its
 * own model prices).
 */
import { useState } from 'react';
import { authApi, canAdmin, type CredentialType, type CredentialView } from '@/components/api/auth-api';
import { ApiError } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { pricesFromRows, type PriceProblem, type PriceRow } from './credential-prices';
import { CredentialPricesFields } from './credential-prices-fields';
import { InputField, SelectField, SettingsForm, useSubmit } from './settings-form';
import { ErrorNote, formatDate, Section, SettingsShell, TableSection, useApiData } from './settings-shell';

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
  const { data: list, error, reload, act } = useApiData(authApi.listCredentials);

  const remove = async (c: CredentialView) => {
    if (!window.confirm(`Delete the credential “${c.name}”? Nodes that use it will fail.`)) return;
    await act(() => authApi.deleteCredential(c.id));
  };

  return (
    <SettingsShell title="Credentials">
      <ErrorNote error={error} />
      {admin && <CreateCredential onCreated={reload} />}
      <TableSection
        title="Credentials of this workspace"
        testId="credentials"
        rows={list}
        loading={<p className="text-sm text-zinc-500">{error ? '' : 'Loading…'}</p>}
        empty="No credentials yet."
        columns={['Name', 'Type', 'Value', 'Hosts', 'Created']}
        actions
      >
        {(c) => (
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
        )}
      </TableSection>
    </SettingsShell>
  );
}

function CreateCredential({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<NewType>('openai');
  const [data, setData] = useState<Record<string, string>>({});
  const [hosts, setHosts] = useState('');
  const [priceRows, setPriceRows] = useState<PriceRow[]>([]);
  const [priceProblems, setPriceProblems] = useState<PriceProblem[]>([]);
  const { busy, error, submit } = useSubmit(async () => {
    const fields: Record<string, unknown> = Object.fromEntries(
      FIELDS[type].map(([k]) => [k, data[k] ?? '']).filter(([, v]) => v !== ''),
    );
    if (type === 'openai') {
      const { prices, problems } = pricesFromRows(priceRows);
      setPriceProblems(problems);
      if (problems.length) throw new Error('Some prices need fixing (see below each field).');
      if (prices) fields.prices = prices;
    }
    const hostList = hosts
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    try {
      await authApi.createCredential({ name, type, data: fields, hosts: hostList.length ? hostList : undefined });
    } catch (e) {
      // A price the server refused names its entry in the path (data.prices.<model>.<field>): say which one.
      if (e instanceof ApiError && e.path?.startsWith('data.prices'))
        throw new Error(`Prices — ${e.path.slice('data.prices.'.length) || 'table'}: ${e.message}`);
      throw e;
    }
    setName('');
    setData({});
    setHosts('');
    setPriceRows([]);
    setPriceProblems([]);
    onCreated();
  });

  return (
    <Section title="Add a credential" testId="credential-create">
      <SettingsForm className="space-y-3" onSubmit={submit}>
        <div className="flex gap-3">
          <InputField id="credential-name" label="Name" required value={name} onChange={setName} />
          <SelectField
            id="credential-type"
            label="Type"
            value={type}
            onChange={(t) => {
              setType(t as NewType);
              setData({});
              setPriceProblems([]);
            }}
          >
            {(Object.keys(FIELDS) as NewType[]).map((t) => (
              <option key={t} value={t}>
                {TYPE_LABEL[t]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="flex gap-3">
          {FIELDS[type].map(([key, label, secret]) => (
            <InputField
              key={`${type}-${key}`}
              id={`credential-data-${key}`}
              label={label}
              type={secret ? 'password' : 'text'}
              autoComplete="off"
              required={!(type === 'openai' && key === 'baseUrl')}
              placeholder={type === 'openai' && key === 'baseUrl' ? 'https://api.openai.com/v1' : undefined}
              value={data[key] ?? ''}
              onChange={(v) => setData((d) => ({ ...d, [key]: v }))}
            />
          ))}
        </div>
        {type === 'openai' && (
          <CredentialPricesFields
            rows={priceRows}
            problems={priceProblems}
            onChange={(rows, edited) => {
              setPriceRows(rows);
              setPriceProblems((ps) =>
                edited ? ps.filter((p) => p.row !== edited.row || p.field !== edited.field) : [],
              );
            }}
          />
        )}
        {type !== 'openai' && (
          <InputField
            id="credential-hosts"
            label="Allowed hosts (comma-separated, e.g. api.example.com, *.example.org)"
            required
            value={hosts}
            onChange={setHosts}
          />
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
      </SettingsForm>
    </Section>
  );
}
