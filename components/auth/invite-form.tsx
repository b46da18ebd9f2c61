'use client';
/** Accept an invitation link: choose a name and password, join the workspace, and open it. */
import { authApi } from '@/components/api/auth-api';
import { AuthForm, nameField, passwordField } from './auth-card';

export function InviteForm({ token }: { token: string }) {
  return (
    <AuthForm
      title="Join a PaiFlow workspace"
      subtitle="You were invited. Choose your name and a password (at least 8 characters)."
      testId="invite-form"
      submitLabel="Accept invitation"
      fields={{ name: nameField('invite-name'), password: passwordField('invite-password', 'new-password') }}
      send={(v) => authApi.acceptInvite({ token, ...v })}
    />
  );
}
