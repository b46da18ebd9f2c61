'use client';
/**
 * The user's personal access tokens (`Authorization: Bearer pat_…`): create one for a workspace of theirs (shown
 * once), list, revoke.
 */
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { ErrorNote, Field, formatDate, inputCls, Section, SettingsShell, ShowOnce, useApiData } from './settings-shell';

export function TokensSettings() {
  const auth = useAuth();
  const workspaces = auth?.workspaces ?? [];
  // The current workspace first; the token works there unless the caller sends X-Workspace-Id.
  const [workspaceId, setWorkspaceId] = useState(auth?.workspaceId ?? workspaces[0]?.id ?? '');
  const workspaceName = (id: string | null) =>
    id ? (workspaces.find((w) => w.id === id)?.name ?? id) : 'your first workspace';
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [actionError, setError] = useState<string | null>(null);
  const { data: tokens, error: loadError, reload } = useApiData(authApi.listTokens);
  const error = actionError ?? loadError;

  const create = async () => {
    setError(null);
    try {
      const t = await authApi.createToken(name, workspaceId || undefined);
      setCreated(t.token);
      setName('');
      reload();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const revoke = async (id: string) => {
    setError(null);
    try {
      await authApi.revokeToken(id);
      reload();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <SettingsShell title="API tokens">
      <ErrorNote error={error} />
      <Section title="Create a token" testId="token-create">
        <p className="mb-3 text-[13px] text-zinc-500">
          Send it as <code>Authorization: Bearer pat_…</code>. It acts as you, with your role, in the workspace chosen
          here; add <code>X-Workspace-Id</code> to use another of your workspaces.
        </p>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Field id="token-name" label="Token name">
            <input
              id="token-name"
              required
              value={name}
              onChange={(e) => setName(e.target.value)}
              className={inputCls}
            />
          </Field>
          <Field id="token-workspace" label="Workspace">
            <select
              id="token-workspace"
              data-testid="token-workspace"
              value={workspaceId}
              onChange={(e) => setWorkspaceId(e.target.value)}
              className={inputCls}
            >
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} ({w.role})
                </option>
              ))}
            </select>
          </Field>
          <Button type="submit" variant="primary" data-testid="token-submit">
            Create token
          </Button>
        </form>
        {created && <ShowOnce label="Your new token" value={created} testId="new-token" />}
      </Section>
      <Section title="Your tokens" testId="tokens">
        {!tokens ? (
          <p className="text-sm text-zinc-500">Loading…</p>
        ) : !tokens.length ? (
          <p className="text-sm text-zinc-500">No tokens yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-[11px] uppercase tracking-wider text-zinc-400">
              <tr>
                <th className="py-1 font-medium">Name</th>
                <th className="py-1 font-medium">Prefix</th>
                <th className="py-1 font-medium">Workspace</th>
                <th className="py-1 font-medium">Created</th>
                <th className="py-1 font-medium">Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
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
                      <Button
                        size="sm"
                        variant="danger"
                        onClick={() => void revoke(t.id)}
                        aria-label={`Revoke ${t.name}`}
                      >
                        Revoke
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
