'use client';
/** Accept an invitation link: choose a name and password, join the workspace, and open it. */
import { useTranslations } from 'next-intl';
import { authApi } from '@/components/api/auth-api';
import { AuthForm, nameField, passwordField } from './auth-card';

/** The same minimum the server asks for (lib/server/auth/schemas.ts). */
const MIN_PASSWORD = 8;

export function InviteForm({ token }: { token: string }) {
  const t = useTranslations('auth.invite');
  return (
    <AuthForm
      title={t('title')}
      subtitle={t('subtitle', { min: MIN_PASSWORD })}
      testId="invite-form"
      submitLabel={t('submit')}
      fields={{ name: nameField('invite-name'), password: passwordField('invite-password', 'new-password') }}
      send={(v) => authApi.acceptInvite({ token, ...v })}
    />
  );
}
