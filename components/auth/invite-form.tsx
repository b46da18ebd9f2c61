'use client';
/** Accept an invitation link: choose a name and password, join the workspace, and open it. */
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { AuthCard, TextField } from './auth-card';

export function InviteForm({ token }: { token: string }) {
  const router = useRouter();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await authApi.acceptInvite({ token, name, password });
      router.push('/');
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Join a PaiFlow workspace"
      subtitle="You were invited. Choose your name and a password (at least 8 characters)."
      testId="invite-form"
      error={error}
      busy={busy}
      submitLabel="Accept invitation"
      onSubmit={submit}
    >
      <TextField id="invite-name" label="Name" autoComplete="name" value={name} onChange={setName} />
      <TextField
        id="invite-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
      />
    </AuthCard>
  );
}
