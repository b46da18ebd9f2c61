'use client';
/**
 * Sign in with e-mail and password, then go back to the page the gate came from; and, when the server has single
 * sign-on (GET /api/auth/state says so), a "Sign in with …" button that starts it. `ssoError`: why the last single
 * sign-on failed, already in the user's language (the page reads it from /login?error=<CODE>).
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { authApi, type SsoButton } from '@/components/api/auth-api';
import { AuthForm, emailField, nextPath, passwordField } from './auth-card';

export function LoginForm({ ssoError }: { ssoError?: string }) {
  const t = useTranslations('auth.login');
  const [sso, setSso] = useState<(SsoButton & { href: string }) | null>(null);
  useEffect(() => {
    let cancelled = false;
    authApi
      .state()
      .then((s) => {
        // A plain link: the start route answers a redirect to the issuer, which the browser must follow itself.
        if (!cancelled && s.sso) setSso({ ...s.sso, href: `${s.sso.startUrl}?next=${encodeURIComponent(nextPath())}` });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <AuthForm
      title={t('title')}
      testId="login-form"
      submitLabel={t('submit')}
      fields={{ email: emailField('login-email'), password: passwordField('login-password', 'current-password') }}
      send={authApi.login}
      next={nextPath}
      after={
        (sso || ssoError) && (
          <div className="space-y-3">
            {sso && (
              <div className="flex items-center gap-2 text-xs text-zinc-400">
                <span className="h-px flex-1 bg-zinc-200" />
                {t('or')}
                <span className="h-px flex-1 bg-zinc-200" />
              </div>
            )}
            {ssoError && (
              <p role="alert" data-testid="sso-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
                {ssoError}
              </p>
            )}
            {sso && (
              <a
                href={sso.href}
                data-testid="sso-sign-in"
                className={
                  'flex h-9 w-full items-center justify-center rounded-md border border-zinc-300 bg-white text-sm ' +
                  'font-medium text-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 ' +
                  'focus-visible:outline-indigo-500'
                }
              >
                {t('withSso', { name: sso.name })}
              </a>
            )}
          </div>
        )
      }
    />
  );
}
