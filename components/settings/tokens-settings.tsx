'use client';
/**
 * The user's personal access tokens (`Authorization: Bearer pat_…`): create one for a workspace of theirs (shown
 * once), list, revoke.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { useAuth } from '@/components/auth/auth-gate';
import { WorkspaceOptions } from '@/components/auth/workspace-options';
import { Button } from '@/components/ui/button';
import { InputField, SelectField, SettingsForm } from './settings-form';
import { ErrorNote, Section, SettingsShell, ShowOnce, TableSection, useApiData, useFormatDate } from './settings-shell';

export function TokensSettings() {
  const auth = useAuth();
  const t = useTranslations('settings.tokens');
  const formatDate = useFormatDate();
  const workspaces = auth?.workspaces ?? [];
  // The current workspace first; the token works there unless the caller sends X-Workspace-Id.
  const [workspaceId, setWorkspaceId] = useState(auth?.workspaceId ?? workspaces[0]?.id ?? '');
  const workspaceName = (id: string | null) =>
    id ? (workspaces.find((w) => w.id === id)?.name ?? id) : t('firstWorkspace');
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { data: tokens, error, act } = useApiData(authApi.listTokens);

  const create = () =>
    act(async () => {
      const token = await authApi.createToken(name, workspaceId || undefined);
      setCreated(token.token);
      setName('');
    });
  const revoke = (id: string) => act(() => authApi.revokeToken(id));

  return (
    <SettingsShell title={t('title')}>
      <ErrorNote error={error} />
      <Section title={t('create.title')} testId="token-create">
        <p className="mb-3 text-[13px] text-zinc-500">
          {t.rich('create.intro', { code: (chunks) => <code>{chunks}</code> })}
        </p>
        <SettingsForm className="flex items-end gap-2" onSubmit={create}>
          <InputField id="token-name" label={t('create.name')} required value={name} onChange={setName} />
          <SelectField
            id="token-workspace"
            label={t('create.workspace')}
            testId="token-workspace"
            value={workspaceId}
            onChange={setWorkspaceId}
          >
            <WorkspaceOptions workspaces={workspaces} />
          </SelectField>
          <Button type="submit" variant="primary" data-testid="token-submit">
            {t('create.submit')}
          </Button>
        </SettingsForm>
        {created && <ShowOnce label={t('create.newToken')} value={created} testId="new-token" />}
      </Section>
      <TableSection
        title={t('list.title')}
        testId="tokens"
        rows={tokens}
        empty={t('list.empty')}
        columns={(['name', 'prefix', 'workspace', 'created', 'lastUsed'] as const).map((c) => t(`list.columns.${c}`))}
        actions
      >
        {(token) => (
          <tr
            key={token.id}
            className="border-t border-zinc-100"
            data-testid="token-row"
            data-workspace-id={token.workspaceId ?? ''}
          >
            <td className="py-2">{token.name}</td>
            <td className="py-2 font-mono text-[12px] text-zinc-600">{token.prefix}…</td>
            <td className="py-2 text-zinc-600">{workspaceName(token.workspaceId)}</td>
            <td className="py-2 text-zinc-500">{formatDate(token.createdAt)}</td>
            <td className="py-2 text-zinc-500">{token.lastUsedAt ? formatDate(token.lastUsedAt) : t('list.never')}</td>
            <td className="py-2 text-right">
              {token.revokedAt ? (
                <span className="text-xs text-zinc-400">{t('list.revoked')}</span>
              ) : (
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => void revoke(token.id)}
                  aria-label={t('list.revokeLabel', { name: token.name })}
                >
                  {t('list.revoke')}
                </Button>
              )}
            </td>
          </tr>
        )}
      </TableSection>
    </SettingsShell>
  );
}
