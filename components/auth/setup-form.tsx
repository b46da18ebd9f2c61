'use client';
/** The first visit to a fresh install: create the owner account (and its workspace), signed in at once. */
import { useTranslations } from 'next-intl';
import { authApi } from '@/components/api/auth-api';
import { ApiError, errorMessage } from '@/components/api/client';
import { AuthForm, emailField, nameField, passwordField } from './auth-card';

export function SetupForm() {
  const t = useTranslations('auth.setup');
  const setupDone = t('alreadyDone');
  return (
    <AuthForm
      title={t('title')}
      subtitle={t('subtitle')}
      testId="setup-form"
      submitLabel={t('submit')}
      fields={{
        name: nameField('setup-name'),
        email: emailField('setup-email'),
        password: passwordField('setup-password', 'new-password'),
      }}
      send={authApi.setup}
      describeError={(e) => (e instanceof ApiError && e.code === 'SETUP_DONE' ? setupDone : errorMessage(e))}
      footer={(error) =>
        error === setupDone && (
          <a href="/login" className="block text-sm text-indigo-600 hover:underline">
            {t('goToSignIn')}
          </a>
        )
      }
    />
  );
}
