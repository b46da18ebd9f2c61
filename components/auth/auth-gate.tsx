'use client';
/**
 * The sign-in gate around every page: asks the server who is signed in, sends a fresh install to /setup and a
 * signed-out visitor to /login?next=…, and hands the signed-in state (user, workspaces, role) to the page below.
 * The server checks every call anyway; this only keeps people from landing on pages that cannot load.
 */
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { authApi, type AuthState } from '@/components/api/auth-api';
import { errorMessage, PUBLIC_PATHS } from '@/components/api/client';
import { FirstCompileNote } from '@/components/ui/first-compile-note';

const AuthContext = createContext<AuthState | null>(null);

/** The signed-in state; null on the public pages (login, setup, invite) and outside the gate. */
export function useAuth(): AuthState | null {
  return useContext(AuthContext);
}

export function AuthGate({ children }: { children: ReactNode }) {
  const pathname = usePathname() ?? '/';
  const isPublic = PUBLIC_PATHS.test(pathname);
  const t = useTranslations('auth.gate');
  const tc = useTranslations('common');
  const [state, setState] = useState<AuthState | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (isPublic) return;
    let cancelled = false;
    (async () => {
      try {
        const s = await authApi.state();
        if (cancelled) return;
        if (s.setupRequired) return window.location.replace('/setup');
        if (!s.authenticated) {
          const next = window.location.pathname + window.location.search;
          return window.location.replace(`/login?next=${encodeURIComponent(next)}`);
        }
        setState(s);
      } catch (e) {
        if (!cancelled) setError(errorMessage(e));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [isPublic]);

  if (isPublic) return <>{children}</>;
  if (error)
    return (
      <div role="alert" data-testid="auth-error" className="m-8 rounded-md border border-red-200 bg-red-50 p-4 text-sm">
        {t('checkFailed', { error })}
      </div>
    );
  if (!state)
    return (
      <div className="grid h-screen place-items-center text-sm text-zinc-500" data-testid="auth-loading">
        <div className="flex flex-col items-center">
          {tc('loading')}
          <FirstCompileNote />
        </div>
      </div>
    );
  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}
