'use client';
/** The first visit to a fresh install: create the owner account (and its workspace), signed in at once. */
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { ApiError, errorMessage } from '@/components/api/client';
import { AuthCard, TextField } from './auth-card';

export function SetupForm() {
  const router = useRouter();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await authApi.setup({ name, email, password });
      router.push('/');
    } catch (e) {
      setError(
        e instanceof ApiError && e.code === 'SETUP_DONE'
          ? 'This installation already has an owner — sign in instead.'
          : errorMessage(e),
      );
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Create the owner account"
      subtitle="This account owns the first workspace and can invite everyone else."
      testId="setup-form"
      error={error}
      busy={busy}
      submitLabel="Create account"
      onSubmit={submit}
    >
      <TextField id="setup-name" label="Name" autoComplete="name" value={name} onChange={setName} />
      <TextField
        id="setup-email"
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
      />
      <TextField
        id="setup-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
      />
      {error?.includes('sign in instead') && (
        <a href="/login" className="block text-sm text-indigo-600 hover:underline">
          Go to sign in
        </a>
      )}
    </AuthCard>
  );
}
