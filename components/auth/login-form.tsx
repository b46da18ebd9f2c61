'use client';
/** Sign in with e-mail and password, then go back to the page the gate came from. */
import { authApi } from '@/components/api/auth-api';
import { AuthForm, emailField, nextPath, passwordField } from './auth-card';

export function LoginForm() {
  return (
    <AuthForm
      title="Sign in to PaiFlow"
      testId="login-form"
      submitLabel="Sign in"
      fields={{ email: emailField('login-email'), password: passwordField('login-password', 'current-password') }}
      send={authApi.login}
      next={nextPath}
    />
  );
}
