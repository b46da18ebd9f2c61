'use client';
/** The first visit to a fresh install: create the owner account (and its workspace), signed in at once. */
import { authApi } from '@/components/api/auth-api';
import { ApiError, errorMessage } from '@/components/api/client';
import { AuthForm, emailField, nameField, passwordField } from './auth-card';

const SETUP_DONE = 'This installation already has an owner — sign in instead.';

export function SetupForm() {
  return (
    <AuthForm
      title="Create the owner account"
      subtitle="This account owns the first workspace and can invite everyone else."
      testId="setup-form"
      submitLabel="Create account"
      fields={{
        name: nameField('setup-name'),
        email: emailField('setup-email'),
        password: passwordField('setup-password', 'new-password'),
      }}
      send={authApi.setup}
      describeError={(e) => (e instanceof ApiError && e.code === 'SETUP_DONE' ? SETUP_DONE : errorMessage(e))}
      footer={(error) =>
        error?.includes('sign in instead') && (
          <a href="/login" className="block text-sm text-indigo-600 hover:underline">
            Go to sign in
          </a>
        )
      }
    />
  );
}
