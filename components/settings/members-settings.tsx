'use client';
/** Members of the current workspace with their roles (admins change them) and the invitation form. */
import { useCallback, useState } from 'react';
import { authApi, canAdmin, ROLES, type Invitation, type Member, type Role } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { ErrorNote, Field, formatDate, inputCls, Section, SettingsShell, ShowOnce, useApiData } from './settings-shell';

export function MembersSettings() {
  const auth = useAuth();
  const workspaceId = auth?.workspaceId ?? '';
  const admin = canAdmin(auth?.role);
  const [actionError, setError] = useState<string | null>(null);
  const fetchMembers = useCallback(() => authApi.listMembers(workspaceId), [workspaceId]);
  const { data: members, error: loadError, reload } = useApiData(fetchMembers);
  const error = actionError ?? loadError;

  const changeRole = async (m: Member, role: Role) => {
    setError(null);
    try {
      await authApi.setMemberRole(workspaceId, m.userId, role);
      reload();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <SettingsShell title="Members & invitations">
      <ErrorNote error={error} />
      {admin && <InviteSection workspaceId={workspaceId} />}
      <Section title="Members" testId="members">
        {!members ? (
          <p className="text-sm text-zinc-500">Loading…</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-[11px] uppercase tracking-wider text-zinc-400">
              <tr>
                <th className="py-1 font-medium">Name</th>
                <th className="py-1 font-medium">Email</th>
                <th className="py-1 font-medium">Role</th>
                <th className="py-1 font-medium">Joined</th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.userId} className="border-t border-zinc-100" data-testid="member-row" data-email={m.email}>
                  <td className="py-2">{m.name}</td>
                  <td className="py-2 text-zinc-600">{m.email}</td>
                  <td className="py-2">
                    {admin && m.userId !== auth?.user?.id ? (
                      <select
                        aria-label={`Role of ${m.email}`}
                        value={m.role}
                        onChange={(e) => void changeRole(m, e.target.value as Role)}
                        className="h-7 rounded-md border border-zinc-300 px-1.5 text-[13px]"
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td className="py-2 text-zinc-500">{formatDate(m.joinedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </SettingsShell>
  );
}

function InviteSection({ workspaceId }: { workspaceId: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [invitation, setInvitation] = useState<Invitation | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const inv = await authApi.invite(workspaceId, email, role);
      // The link on the origin this admin is using: the server builds its `url` from the request it sees, which
      // behind `server.mjs` or a proxy can be an internal host (e.g. localhost) the invitee cannot reach.
      setInvitation({ ...inv, url: `${window.location.origin}/invite/${encodeURIComponent(inv.token)}` });
      setEmail('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title="Invite someone" testId="invite-section">
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field id="invite-email" label="Email">
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={inputCls}
          />
        </Field>
        <div className="w-36">
          <Field id="invite-role" label="Role">
            <select
              id="invite-role"
              value={role}
              onChange={(e) => setRole(e.target.value as Role)}
              className={inputCls}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Button type="submit" variant="primary" disabled={busy} data-testid="invite-submit">
          Create invitation
        </Button>
      </form>
      <div className="mt-2">
        <ErrorNote error={error} />
      </div>
      {invitation && (
        <ShowOnce
          label={`Invitation link for ${invitation.email} (${invitation.role}, valid until ${formatDate(invitation.expiresAt)})`}
          value={invitation.url}
          testId="invite-link"
        />
      )}
    </Section>
  );
}
