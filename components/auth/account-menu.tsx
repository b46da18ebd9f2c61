'use client';
/** The account button in the top bar: who is signed in, the workspace switcher, settings links and Sign out. */
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { authApi, canAdmin } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { switchLocale } from '@/components/lib/i18n';
import { toast } from '@/components/ui/toast';
import { LOCALES, type Locale } from '@/lib/i18n/locales';
import { useAuth } from './auth-gate';
import { WorkspaceOptions } from './workspace-options';

const LINKS: { href: string; labelKey: string; testId: string; admin?: boolean }[] = [
  { href: '/settings/account', labelKey: 'account', testId: 'menu-account' },
  { href: '/settings/members', labelKey: 'members', testId: 'menu-members' },
  { href: '/settings/credentials', labelKey: 'credentials', testId: 'menu-credentials' },
  { href: '/settings/tokens', labelKey: 'tokens', testId: 'menu-tokens' },
  // The audit log is for owners and admins only (the API answers 403 to the others).
  { href: '/settings/audit', labelKey: 'audit', testId: 'menu-audit', admin: true },
];

export function AccountMenu() {
  const auth = useAuth();
  const t = useTranslations('common.accountMenu');
  const tc = useTranslations('common');
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', esc);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', esc);
    };
  }, [open]);

  if (!auth?.user) return null;
  const { user, workspaces = [], workspaceId } = auth;
  const links = LINKS.filter((l) => !l.admin || canAdmin(auth.role));

  const switchTo = async (id: string) => {
    try {
      await authApi.switchWorkspace(id);
      // A workflow belongs to one workspace: from the editor go to the list, elsewhere reload the same page.
      if (window.location.pathname.startsWith('/workflows/')) window.location.replace('/');
      else window.location.reload();
    } catch (e) {
      toast('error', t('switchFailed'), errorMessage(e));
    }
  };
  const signOut = async () => {
    try {
      await authApi.logout();
    } finally {
      window.location.replace('/login');
    }
  };

  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        data-testid="account-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className={
          'flex h-7 items-center gap-2 rounded-md border border-zinc-700 bg-zinc-800 px-2 text-xs text-zinc-100 ' +
          'hover:bg-zinc-700'
        }
      >
        <span className="grid h-5 w-5 place-items-center rounded-full bg-indigo-500 text-[10px] font-bold uppercase">
          {(user.name || user.email).charAt(0)}
        </span>
        <span className="max-w-[10rem] truncate">{user.name}</span>
        {auth.role && <span className="text-zinc-400">· {tc(`roles.${auth.role}`)}</span>}
      </button>
      {open && (
        <div
          role="menu"
          data-testid="account-menu"
          className={
            'absolute right-0 top-full z-50 mt-1 w-72 rounded-lg border border-zinc-200 bg-white py-2 text-sm ' +
            'text-zinc-800 shadow-xl'
          }
        >
          <div className="border-b border-zinc-100 px-3 pb-2">
            <div className="font-medium" data-testid="account-name">
              {user.name}
            </div>
            <div className="truncate text-xs text-zinc-500" data-testid="account-email">
              {user.email}
            </div>
          </div>
          <MenuSelect
            id="workspace-switcher"
            label={t('workspace')}
            value={workspaceId ?? ''}
            onChange={(v) => void switchTo(v)}
            divider="bottom"
          >
            <WorkspaceOptions workspaces={workspaces} />
          </MenuSelect>
          {links.map((l) => (
            <Link
              key={l.href}
              href={l.href}
              role="menuitem"
              data-testid={l.testId}
              className="block px-3 py-1.5 hover:bg-zinc-50"
            >
              {t(l.labelKey)}
            </Link>
          ))}
          <MenuSelect
            id="language-switcher"
            label={tc('language')}
            value={locale}
            onChange={(v) => switchLocale(v as Locale)}
            divider="top"
          >
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {tc(`languageNames.${l}`)}
              </option>
            ))}
          </MenuSelect>
          <button
            type="button"
            role="menuitem"
            data-testid="sign-out"
            onClick={() => void signOut()}
            className="mt-1 block w-full border-t border-zinc-100 px-3 pt-2 text-left text-red-600 hover:bg-zinc-50"
          >
            {t('signOut')}
          </button>
        </div>
      )}
    </div>
  );
}

/** A labelled select of the menu (workspace, language); its id is also its test id. */
function MenuSelect({
  id,
  label,
  value,
  onChange,
  divider,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  divider: 'top' | 'bottom';
  children: ReactNode;
}) {
  return (
    <div className={`${divider === 'top' ? 'border-t' : 'border-b'} border-zinc-100 px-3 py-2`}>
      <label htmlFor={id} className="mb-1 block text-[11px] font-medium text-zinc-500">
        {label}
      </label>
      <select
        id={id}
        data-testid={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 w-full rounded-md border border-zinc-300 px-2 text-[13px]"
      >
        {children}
      </select>
    </div>
  );
}
