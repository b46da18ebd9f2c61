'use client';
/** The signed-in user's account: who they are, and the password change (which signs out every other session). */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { ApiError, errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { InputField, inputCls, SettingsForm } from './settings-form';
import { Section, SettingsShell } from './settings-shell';

/** The same minimum the server asks for (lib/server/auth/schemas.ts); the server's answer is what counts. */
const MIN_PASSWORD = 8;

type Failure = { message: string; path?: string };
type Path = 'currentPassword' | 'newPassword' | 'confirmPassword';

/**
 * The three password fields, by the path the server (or the confirmation check) names in an error; each is labelled
 * by settings.account.fields.<path>.
 */
const FIELDS: Array<{ path: Path; id: string; autoComplete: string }> = [
  { path: 'currentPassword', id: 'current-password', autoComplete: 'current-password' },
  { path: 'newPassword', id: 'new-password', autoComplete: 'new-password' },
  { path: 'confirmPassword', id: 'confirm-password', autoComplete: 'new-password' },
];
const EMPTY: Record<Path, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function AccountSettings() {
  const auth = useAuth();
  const t = useTranslations('settings.account');
  const [values, setValues] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [done, setDone] = useState(false);

  const submit = async () => {
    setDone(false);
    const { currentPassword, newPassword, confirmPassword } = values;
    if (newPassword !== confirmPassword) {
      setFailure({ message: t('mismatch'), path: 'confirmPassword' });
      return;
    }
    setFailure(null);
    setBusy(true);
    try {
      await authApi.changePassword({ currentPassword, newPassword });
      setValues(EMPTY);
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
    <SettingsShell title={t('title')}>
      {auth?.user && (
        <Section title={t('signedInAs')} testId="account-profile">
          <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm">
            <dt className="text-zinc-500">{t('name')}</dt>
            <dd>{auth.user.name}</dd>
            <dt className="text-zinc-500">{t('email')}</dt>
            <dd data-testid="account-profile-email">{auth.user.email}</dd>
          </dl>
        </Section>
      )}
      <Section title={t('changePassword')} testId="change-password">
        <p className="mb-3 text-[13px] text-zinc-500">{t('intro')}</p>
        <SettingsForm className="max-w-sm space-y-3" onSubmit={submit}>
          {FIELDS.map(({ path, ...field }) => (
            <InputField
              key={path}
              type="password"
              {...field}
              label={t(`fields.${path}`)}
              required
              minLength={path === 'newPassword' ? MIN_PASSWORD : undefined}
              value={values[path]}
              aria-invalid={invalid(path)}
              onChange={(v) => setValues((s) => ({ ...s, [path]: v }))}
              className={fieldCls(path)}
            />
          ))}
          <p className="text-[11px] text-zinc-500">{t('minLength', { min: MIN_PASSWORD })}</p>
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
              {t('changed')}
            </p>
          )}
          <Button type="submit" variant="primary" disabled={busy} data-testid="password-submit">
            {busy ? t('changing') : t('submit')}
          </Button>
        </SettingsForm>
      </Section>
    </SettingsShell>
  );
}
