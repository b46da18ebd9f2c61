'use client';
/** The frame of the settings pages: the top bar, a tab per page, sections, tables, and loading their data. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { canAdmin } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { TopBar } from '@/components/ui/top-bar';
import { inputCls } from './settings-form';

/** The tabs, each labelled by settings.shell.tabs.<key>. */
const TABS = [
  { href: '/settings/account', key: 'account' },
  { href: '/settings/members', key: 'members' },
  { href: '/settings/credentials', key: 'credentials' },
  { href: '/settings/skills', key: 'skills' },
  { href: '/settings/tokens', key: 'tokens' },
  { href: '/settings/audit', key: 'audit', admin: true },
];

export function SettingsShell({ title, children }: { title: string; children: ReactNode }) {
  const pathname = usePathname();
  const t = useTranslations('settings.shell');
  const admin = canAdmin(useAuth()?.role);
  const tabs = TABS.filter((tab) => !tab.admin || admin);
  return (
    <div className="flex min-h-screen flex-col bg-zinc-50">
      <TopBar>
        <span className="text-zinc-600">/</span>
        <span className="text-sm font-medium">{t('settings')}</span>
      </TopBar>
      <div className="mx-auto w-full max-w-4xl flex-1 p-6">
        <nav className="mb-5 flex gap-1 border-b border-zinc-200" aria-label={t('settings')}>
          {tabs.map((tab) => (
            <Link
              key={tab.href}
              href={tab.href}
              aria-current={pathname === tab.href ? 'page' : undefined}
              className={
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium ' +
                (pathname === tab.href
                  ? 'border-indigo-500 text-indigo-700'
                  : 'border-transparent text-zinc-500 hover:text-zinc-800')
              }
            >
              {t(`tabs.${tab.key}`)}
            </Link>
          ))}
        </nav>
        <h1 className="mb-4 text-lg font-semibold text-zinc-900">{title}</h1>
        <div className="space-y-6">{children}</div>
      </div>
    </div>
  );
}

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-4" data-testid={testId}>
      <h2 className="mb-3 text-sm font-semibold text-zinc-800">{title}</h2>
      {children}
    </section>
  );
}

/**
 * The table of a settings list: a header row of `columns` (`spaced`: a gap after each but the last; `actions`: an
 * empty last header over the rows' buttons) and the rows as children.
 */
export function SettingsTable({
  columns,
  spaced = false,
  actions = false,
  testId,
  children,
}: {
  columns: string[];
  spaced?: boolean;
  actions?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <thead className="text-[11px] uppercase tracking-wider text-zinc-400">
        <tr>
          {columns.map((c, i) => (
            <th key={c} className={spaced && i < columns.length - 1 ? 'py-1 pr-3 font-medium' : 'py-1 font-medium'}>
              {c}
            </th>
          ))}
          {actions && <th />}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/**
 * A section listing `rows` in a SettingsTable, one `row(item)` each: `loading` until they come, and `empty` (where
 * given) instead of the table when there are none.
 */
export function TableSection<T>({
  title,
  testId,
  rows,
  loading,
  empty,
  columns,
  actions,
  children: row,
}: {
  title: string;
  testId: string;
  rows: T[] | null;
  loading?: ReactNode;
  empty?: string;
  columns: string[];
  actions?: boolean;
  children: (item: T) => ReactNode;
}) {
  const tc = useTranslations('common');
  return (
    <Section title={title} testId={testId}>
      {!rows ? (
        (loading ?? <p className="text-sm text-zinc-500">{tc('loading')}</p>)
      ) : empty !== undefined && !rows.length ? (
        <p className="text-sm text-zinc-500">{empty}</p>
      ) : (
        <SettingsTable columns={columns} actions={actions}>
          {rows.map(row)}
        </SettingsTable>
      )}
    </Section>
  );
}

export function ErrorNote({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p role="alert" data-testid="settings-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
      {error}
    </p>
  );
}

/** A secret shown once (invitation link, token), with a copy button. */
export function ShowOnce({ label, value, testId }: { label: string; value: string; testId: string }) {
  const t = useTranslations('settings.shell');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      /* clipboard refused (e.g. not a secure context): the text stays selectable */
    }
  };
  return (
    <div className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3">
      <label htmlFor={testId} className="mb-1 block text-[12px] font-medium text-amber-900">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={testId}
          readOnly
          value={value}
          data-testid={testId}
          onFocus={(e) => e.target.select()}
          className={`${inputCls} font-mono text-[12px]`}
        />
        <button
          type="button"
          onClick={() => void copy()}
          data-testid={`${testId}-copy`}
          className="h-8 shrink-0 rounded-md border border-zinc-300 bg-white px-3 text-xs font-medium hover:bg-zinc-50"
        >
          {t('copy')}
        </button>
      </div>
      <p className="mt-1 text-[11px] text-amber-800">{t('shownOnce')}</p>
    </div>
  );
}

/**
 * Formats a date in the reader's language and time zone (— when there is none); `seconds` adds them (the audit log).
 */
export function useFormatDate() {
  const format = useFormatter();
  return useCallback(
    (iso: string | null | undefined, seconds = false): string =>
      iso ? format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' }) : '—',
    [format],
  );
}

/**
 * Loads `fetcher` (keep it stable) when the page opens and again on `reload()`; the answer or the API's error.
 * `act(call)` runs a change (delete, revoke, …) and reloads; its error, if any, is the `error` until the next act.
 */
export function useApiData<T>(fetcher: () => Promise<T>) {
  const [version, setVersion] = useState(0);
  const [data, setData] = useState<T | null>(null);
  const [loadError, setError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const d = await fetcher();
        if (cancelled) return;
        setData(d);
        setError(null);
      } catch (e) {
        if (!cancelled) setError(errorMessage(e));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [fetcher, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const act = useCallback(
    async (call: () => Promise<unknown>) => {
      setActionError(null);
      try {
        await call();
        reload();
      } catch (e) {
        setActionError(errorMessage(e));
      }
    },
    [reload],
  );
  return { data, error: actionError ?? loadError, reload, act };
}
