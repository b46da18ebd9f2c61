'use client';
/** Sign in with e-mail and password, then go back to the page the gate came from. */
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { AuthCard, nextPath, TextField } from './auth-card';

export function LoginForm() {
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await authApi.login({ email, password });
      router.push(nextPath());
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Sign in to PaiFlow"
      testId="login-form"
      error={error}
      busy={busy}
      submitLabel="Sign in"
      onSubmit={submit}
    >
      <TextField
        id="login-email"
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
      />
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
    </AuthCard>
  );
}
