'use client';
/** Sign in with e-mail and password, then go back to the page the gate came from. */
import { useTranslations } from 'next-intl';
import { authApi } from '@/components/api/auth-api';
import { AuthForm, emailField, nextPath, passwordField } from './auth-card';

export function LoginForm() {
  const t = useTranslations('auth.login');
  return (
    <AuthForm
      title={t('title')}
      testId="login-form"
      submitLabel={t('submit')}
      fields={{ email: emailField('login-email'), password: passwordField('login-password', 'current-password') }}
      send={authApi.login}
      next={nextPath}
    />
  );
}
