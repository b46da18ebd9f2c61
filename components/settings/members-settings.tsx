'use client';
/** Members of the current workspace with their roles (admins change them) and the invitation form. */
import { useTranslations } from 'next-intl';
import { useCallback, useState } from 'react';
import { authApi, canAdmin, ROLES, type Invitation, type Member, type Role } from '@/components/api/auth-api';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { InputField, SelectField, SettingsForm, useSubmit } from './settings-form';
import { ErrorNote, Section, SettingsShell, ShowOnce, TableSection, useApiData, useFormatDate } from './settings-shell';

function RoleOptions() {
  const tc = useTranslations('common');
  return (
    <>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {tc(`roles.${r}`)}
        </option>
      ))}
    </>
  );
}

export function MembersSettings() {
  const auth = useAuth();
  const workspaceId = auth?.workspaceId ?? '';
  const admin = canAdmin(auth?.role);
  const fetchMembers = useCallback(() => authApi.listMembers(workspaceId), [workspaceId]);
  const { data: members, error, act } = useApiData(fetchMembers);
  const t = useTranslations('settings.members');
  const tc = useTranslations('common');
  const formatDate = useFormatDate();
  const columns = (['name', 'email', 'role', 'joined'] as const).map((c) => t(`columns.${c}`));

  const changeRole = (m: Member, role: Role) => act(() => authApi.setMemberRole(workspaceId, m.userId, role));

  return (
    <SettingsShell title={t('title')}>
      <ErrorNote error={error} />
      {admin && <InviteSection workspaceId={workspaceId} />}
      <TableSection title={t('members')} testId="members" rows={members} columns={columns}>
        {(m) => (
          <tr key={m.userId} className="border-t border-zinc-100" data-testid="member-row" data-email={m.email}>
            <td className="py-2">{m.name}</td>
            <td className="py-2 text-zinc-600">{m.email}</td>
            <td className="py-2">
              {admin && m.userId !== auth?.user?.id ? (
                <select
                  aria-label={t('roleOf', { email: m.email })}
                  value={m.role}
                  onChange={(e) => void changeRole(m, e.target.value as Role)}
                  className="h-7 rounded-md border border-zinc-300 px-1.5 text-[13px]"
                >
                  <RoleOptions />
                </select>
              ) : (
                tc(`roles.${m.role}`)
              )}
            </td>
            <td className="py-2 text-zinc-500">{formatDate(m.joinedAt)}</td>
          </tr>
        )}
      </TableSection>
    </SettingsShell>
  );
}

function InviteSection({ workspaceId }: { workspaceId: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const t = useTranslations('settings.members.invite');
  const tc = useTranslations('common');
  const formatDate = useFormatDate();
  const invitationLabel = (inv: Invitation) =>
    t('link', { email: inv.email, role: tc(`roles.${inv.role}`), until: formatDate(inv.expiresAt) });

  const { busy, error, submit } = useSubmit(async () => {
    const inv = await authApi.invite(workspaceId, email, role);
    // The link on the origin this admin is using: the server builds its `url` from the request it sees, which
    // behind `server.mjs` or a proxy can be an internal host (e.g. localhost) the invitee cannot reach.
    setInvitation({ ...inv, url: `${window.location.origin}/invite/${encodeURIComponent(inv.token)}` });
    setEmail('');
  });

  return (
    <Section title={t('title')} testId="invite-section">
      <SettingsForm className="flex items-end gap-2" onSubmit={submit}>
        <InputField id="invite-email" label={t('email')} type="email" required value={email} onChange={setEmail} />
        <div className="w-36">
          <SelectField id="invite-role" label={t('role')} value={role} onChange={(r) => setRole(r as Role)}>
            <RoleOptions />
          </SelectField>
        </div>
        <Button type="submit" variant="primary" disabled={busy} data-testid="invite-submit">
          {t('submit')}
        </Button>
      </SettingsForm>
      <div className="mt-2">
        <ErrorNote error={error} />
      </div>
      {invitation && <ShowOnce label={invitationLabel(invitation)} value={invitation.url} testId="invite-link" />}
    </Section>
  );
}
