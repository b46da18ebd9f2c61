'use client';
/**
 * The workspace's credentials: the list (masked; environment ones are read-only) and, for admins, a create form
 * whose fields follow the type, with the hosts the credential may be sent to (and, for an OpenAI-compatible one, its
 * own model prices).
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { authApi, canAdmin, type CredentialType, type CredentialView } from '@/components/api/auth-api';
import { ApiError } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { CredentialTestButton } from './credential-test-button';
import { pricesFromRows, type PriceProblem, type PriceRow } from './credential-prices';
import { CredentialPricesFields } from './credential-prices-fields';
import { ProviderPicker, useProviders } from './provider-picker';
import { InputField, SelectField, SettingsForm, useSubmit } from './settings-form';
import { ErrorNote, Section, SettingsShell, TableSection, useApiData, useFormatDate } from './settings-shell';

type NewType = Exclude<CredentialType, 'env'>;

/** The data fields of each type: [key, is secret]; each is labelled by settings.credentials.fields.<key>. */
const FIELDS: Record<NewType, Array<[string, boolean]>> = {
  openai: [
    ['baseUrl', false],
    ['apiKey', true],
  ],
  http_header: [
    ['name', false],
    ['value', true],
  ],
  bearer: [['token', true]],
  basic: [
    ['username', false],
    ['password', true],
  ],
};
// i18n-exempt: an example URL of a self-hosted OpenAI-compatible server, not a label
const EXAMPLE_BASE_URL = 'http://127.0.0.1:8000/v1';

/**
 * Must the field be filled? An OpenAI-compatible credential's base URL only for "other" (the catalogue fills the
 * rest), its key only for a provider that needs one (a local Ollama, vLLM or LM Studio runs without).
 */
function fieldRequired(type: NewType, key: string, provider: string, needsKey: boolean | undefined): boolean {
  if (type !== 'openai') return true;
  if (key === 'baseUrl') return provider === 'openai_compatible';
  if (key === 'apiKey') return needsKey !== false;
  return true;
}

/** The types with a label (settings.credentials.types.<type>); an unknown one shows as it is. */
const TYPES: readonly string[] = ['openai', 'http_header', 'bearer', 'basic', 'env'] satisfies CredentialType[];

export function CredentialsSettings() {
  const auth = useAuth();
  const admin = canAdmin(auth?.role);
  const { data: list, error, reload, act } = useApiData(authApi.listCredentials);
  const t = useTranslations('settings.credentials');
  const tc = useTranslations('common');
  const formatDate = useFormatDate();
  const columns = (['name', 'type', 'value', 'hosts', 'created'] as const).map((c) => t(`columns.${c}`));

  const remove = async (c: CredentialView) => {
    if (!window.confirm(t('confirmDelete', { name: c.name }))) return;
    await act(() => authApi.deleteCredential(c.id));
  };

  return (
    <SettingsShell title={t('title')}>
      <ErrorNote error={error} />
      {admin && <CreateCredential onCreated={reload} />}
      <TableSection
        title={t('listTitle')}
        testId="credentials"
        rows={list}
        loading={<p className="text-sm text-zinc-500">{error ? '' : tc('loading')}</p>}
        empty={t('empty')}
        columns={columns}
        actions
      >
        {(c) => (
          <tr key={c.id} className="border-t border-zinc-100" data-testid="credential-row" data-name={c.name}>
            <td className="py-2 font-medium">{c.name}</td>
            <td className="py-2 text-zinc-600">{TYPES.includes(c.type) ? t(`types.${c.type}`) : c.type}</td>
            <td className="py-2 font-mono text-[12px] text-zinc-600">{c.masked || t('noKey')}</td>
            <td className="py-2 text-zinc-600">{c.hosts?.join(', ') || '—'}</td>
            <td className="py-2 text-zinc-500">{formatDate(c.createdAt)}</td>
            <td className="py-2 text-right">
              {c.type === 'openai' && <CredentialTestButton id={c.id} name={c.name} />}
              {admin && !c.readOnly && (
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => void remove(c)}
                  aria-label={t('deleteLabel', { name: c.name })}
                >
                  {t('delete')}
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
  const [provider, setProvider] = useState('openai');
  const { providers } = useProviders();
  const chosen = providers?.find((p) => p.id === provider);
  const t = useTranslations('settings.credentials');
  const { busy, error, submit } = useSubmit(async () => {
    const fields: Record<string, unknown> = Object.fromEntries(
      FIELDS[type].map(([k]) => [k, data[k] ?? '']).filter(([, v]) => v !== ''),
    );
    if (type === 'openai') {
      fields.provider = provider;
      const { prices, problems } = pricesFromRows(priceRows);
      setPriceProblems(problems);
      if (problems.length) throw new Error(t('create.pricesNeedFixing'));
      if (prices) fields.prices = prices;
    }
    // An OpenAI-compatible credential goes only to its base URL's host: no hosts field (hidden for that type).
    const hostList =
      type === 'openai'
        ? []
        : hosts
            .split(',')
            .map((h) => h.trim())
            .filter(Boolean);
    try {
      await authApi.createCredential({ name, type, data: fields, hosts: hostList.length ? hostList : undefined });
    } catch (e) {
      // A price the server refused names its entry in the path (data.prices.<model>.<field>): say which one.
      if (e instanceof ApiError && e.path?.startsWith('data.prices'))
        throw new Error(
          t('create.priceRefused', {
            entry: e.path.slice('data.prices.'.length) || t('create.priceTable'),
            message: e.message,
          }),
        );
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
    <Section title={t('create.title')} testId="credential-create">
      <SettingsForm className="space-y-3" onSubmit={submit}>
        <div className="flex gap-3">
          <InputField id="credential-name" label={t('create.name')} required value={name} onChange={setName} />
          <SelectField
            id="credential-type"
            label={t('create.type')}
            value={type}
            onChange={(value) => {
              setType(value as NewType);
              setData({});
              setPriceProblems([]);
            }}
          >
            {(Object.keys(FIELDS) as NewType[]).map((type) => (
              <option key={type} value={type}>
                {t(`types.${type}`)}
              </option>
            ))}
          </SelectField>
        </div>
        {type === 'openai' && providers && (
          <ProviderPicker providers={providers} value={provider} onChange={(p) => setProvider(p.id)} />
        )}
        <div className="flex gap-3">
          {FIELDS[type].map(([key, secret]) => (
            <InputField
              key={`${type}-${key}`}
              id={`credential-data-${key}`}
              label={t(`fields.${key}`)}
              type={secret ? 'password' : 'text'}
              autoComplete="off"
              required={fieldRequired(type, key, provider, chosen?.needsKey)}
              placeholder={type === 'openai' && key === 'baseUrl' ? (chosen?.baseUrl ?? EXAMPLE_BASE_URL) : undefined}
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
          <InputField id="credential-hosts" label={t('create.hosts')} required value={hosts} onChange={setHosts} />
        )}
        <p className="text-[11px] text-zinc-500">
          {type === 'openai' ? t('create.noteOpenai') : t('create.noteHosts')}
        </p>
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" disabled={busy} data-testid="credential-submit">
          {t('create.submit')}
        </Button>
      </SettingsForm>
    </Section>
  );
}
