import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { AccountMenu } from '@/components/auth/account-menu';
import { InboxMenu } from '@/components/runs/inbox-menu';

/** The dark application bar shared by the list and the editor: the inbox of waiting runs, /runs, the account. */
export function TopBar({ children, right }: { children?: ReactNode; right?: ReactNode }) {
  const tc = useTranslations('common');
  return (
    <header
      data-testid="top-bar"
      className="flex h-12 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900 px-4 text-zinc-100"
    >
      <Link
        href="/"
        className="flex items-center gap-2 font-semibold tracking-tight text-white hover:text-indigo-200"
        data-testid="home-link"
      >
        <span className="grid h-6 w-6 place-items-center rounded-md bg-indigo-500 text-[11px] font-bold">
          {/* i18n-exempt: the logo mark */}
          Pf
        </span>
        PaiFlow
      </Link>
      <div className="flex min-w-0 flex-1 items-center gap-3">{children}</div>
      {right && <div className="flex items-center gap-2">{right}</div>}
      <InboxMenu />
      <Link href="/runs" className="text-sm font-medium text-zinc-300 hover:text-white" data-testid="nav-runs">
        {tc('nav.runs')}
      </Link>
      <AccountMenu />
    </header>
  );
}
