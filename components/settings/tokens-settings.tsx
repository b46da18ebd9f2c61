'use client';
/**
 * The user's personal access tokens (`Authorization: Bearer pat_…`): create one for a workspace of theirs (shown
 * once), list, revoke.
 */
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { useAuth } from '@/components/auth/auth-gate';
import { WorkspaceOptions } from '@/components/auth/workspace-options';
import { Button } from '@/components/ui/button';
import { InputField, SelectField, SettingsForm } from './settings-form';
import { ErrorNote, formatDate, Section, SettingsShell, ShowOnce, TableSection, useApiData } from './settings-shell';

export function TokensSettings() {
  const auth = useAuth();
  const workspaces = auth?.workspaces ?? [];
  // The current workspace first; the token works there unless the caller sends X-Workspace-Id.
  const [workspaceId, setWorkspaceId] = useState(auth?.workspaceId ?? workspaces[0]?.id ?? '');
  const workspaceName = (id: string | null) =>
    id ? (workspaces.find((w) => w.id === id)?.name ?? id) : 'your first workspace';
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { data: tokens, error, act } = useApiData(authApi.listTokens);

  const create = () =>
    act(async () => {
      const t = await authApi.createToken(name, workspaceId || undefined);
      setCreated(t.token);
      setName('');
    });
  const revoke = (id: string) => act(() => authApi.revokeToken(id));

  return (
    <SettingsShell title="API tokens">
      <ErrorNote error={error} />
      <Section title="Create a token" testId="token-create">
        <p className="mb-3 text-[13px] text-zinc-500">
          Send it as <code>Authorization: Bearer pat_…</code>. It acts as you, with your role, in the workspace chosen
          here; add <code>X-Workspace-Id</code> to use another of your workspaces.
        </p>
        <SettingsForm className="flex items-end gap-2" onSubmit={create}>
          <InputField id="token-name" label="Token name" required value={name} onChange={setName} />
          <SelectField
            id="token-workspace"
            label="Workspace"
            testId="token-workspace"
            value={workspaceId}
            onChange={setWorkspaceId}
          >
            <WorkspaceOptions workspaces={workspaces} />
          </SelectField>
          <Button type="submit" variant="primary" data-testid="token-submit">
            Create token
          </Button>
        </SettingsForm>
        {created && <ShowOnce label="Your new token" value={created} testId="new-token" />}
      </Section>
      <TableSection
        title="Your tokens"
        testId="tokens"
        rows={tokens}
        empty="No tokens yet."
        columns={['Name', 'Prefix', 'Workspace', 'Created', 'Last used']}
        actions
      >
        {(t) => (
          <tr
            key={t.id}
            className="border-t border-zinc-100"
            data-testid="token-row"
            data-workspace-id={t.workspaceId ?? ''}
          >
            <td className="py-2">{t.name}</td>
            <td className="py-2 font-mono text-[12px] text-zinc-600">{t.prefix}…</td>
            <td className="py-2 text-zinc-600">{workspaceName(t.workspaceId)}</td>
            <td className="py-2 text-zinc-500">{formatDate(t.createdAt)}</td>
            <td className="py-2 text-zinc-500">{t.lastUsedAt ? formatDate(t.lastUsedAt) : 'never'}</td>
            <td className="py-2 text-right">
              {t.revokedAt ? (
                <span className="text-xs text-zinc-400">revoked</span>
              ) : (
                <Button size="sm" variant="danger" onClick={() => void revoke(t.id)} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </Button>
              )}
            </td>
          </tr>
        )}
      </TableSection>
    </SettingsShell>
  );
}
