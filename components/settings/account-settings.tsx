'use client';
/** The signed-in user's account: who they are, and the password change (which signs out every other session). */
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { ApiError, errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { Field, inputCls, Section, SettingsShell } from './settings-shell';

/** The same minimum the server asks for (lib/server/auth/schemas.ts); the server's answer is what counts. */
const MIN_PASSWORD = 8;

type Failure = { message: string; path?: string };

export function AccountSettings() {
  const auth = useAuth();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [done, setDone] = useState(false);

  const submit = async () => {
    setDone(false);
    if (newPassword !== confirm) {
      setFailure({ message: 'The new password and its confirmation differ.', path: 'confirmPassword' });
      return;
    }
    setFailure(null);
    setBusy(true);
    try {
      await authApi.changePassword({ currentPassword, newPassword });
      setCurrent('');
      setNew('');
      setConfirm('');
      setDone(true);
    } catch (e) {
      setFailure({ message: errorMessage(e), path: e instanceof ApiError ? e.path : undefined });
    } finally {
      setBusy(false);
    }
  };

  const invalid = (path: string) => (failure?.path === path ? true : undefined);
  const fieldCls = (path: string) => `${inputCls} ${failure?.path === path ? 'border-red-400' : ''}`;

  return (
    <SettingsShell title="Account">
      {auth?.user && (
        <Section title="Signed in as" testId="account-profile">
          <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm">
            <dt className="text-zinc-500">Name</dt>
            <dd>{auth.user.name}</dd>
            <dt className="text-zinc-500">Email</dt>
            <dd data-testid="account-profile-email">{auth.user.email}</dd>
          </dl>
        </Section>
      )}
      <Section title="Change password" testId="change-password">
        <p className="mb-3 text-[13px] text-zinc-500">
          Changing your password signs you out everywhere else (other browsers and devices); this session stays signed
          in. Personal access tokens keep working until you revoke them.
        </p>
        <form
          className="max-w-sm space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Field id="current-password" label="Current password">
            <input
              id="current-password"
              type="password"
              autoComplete="current-password"
              required
              value={currentPassword}
              aria-invalid={invalid('currentPassword')}
              onChange={(e) => setCurrent(e.target.value)}
              className={fieldCls('currentPassword')}
            />
          </Field>
          <Field id="new-password" label="New password">
            <input
              id="new-password"
              type="password"
              autoComplete="new-password"
              required
              minLength={MIN_PASSWORD}
              value={newPassword}
              aria-invalid={invalid('newPassword')}
              onChange={(e) => setNew(e.target.value)}
              className={fieldCls('newPassword')}
            />
          </Field>
          <Field id="confirm-password" label="Confirm new password">
            <input
              id="confirm-password"
              type="password"
              autoComplete="new-password"
              required
              value={confirm}
              aria-invalid={invalid('confirmPassword')}
              onChange={(e) => setConfirm(e.target.value)}
              className={fieldCls('confirmPassword')}
            />
          </Field>
          <p className="text-[11px] text-zinc-500">At least {MIN_PASSWORD} characters.</p>
          {failure && (
            <p
              role="alert"
              data-testid="password-error"
              data-path={failure.path}
              className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700"
            >
              {failure.message}
            </p>
          )}
          {done && (
            <p
              role="status"
              data-testid="password-changed"
              className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
            >
              Password changed. Your other sessions were signed out.
            </p>
          )}
          <Button type="submit" variant="primary" disabled={busy} data-testid="password-submit">
            {busy ? 'Changing…' : 'Change password'}
          </Button>
        </form>
      </Section>
    </SettingsShell>
  );
}
