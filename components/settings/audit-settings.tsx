'use client';
/**
 * The workspace's audit log (owners and admins): sign-ins, tokens, API keys, credentials, invitations, role
 * changes, publishing and deletions, newest first, with the time in the viewer's locale and time zone.
 */
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { authApi, canAdmin, type AuditEntry } from '@/components/api/auth-api';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { ErrorNote, Section, SettingsShell, SettingsTable, useApiData, useFormatDate } from './settings-shell';

const LIMIT = 200;

export function AuditSettings() {
  const auth = useAuth();
  const t = useTranslations('settings.audit');
  return (
    <SettingsShell title={t('title')}>
      {canAdmin(auth?.role) ? (
        <AuditTable />
      ) : (
        <p
          role="alert"
          data-testid="audit-forbidden"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {t('forbidden')}
        </p>
      )}
    </SettingsShell>
  );
}

function AuditTable() {
  const fetchAudit = useCallback(() => authApi.listAudit(LIMIT), []);
  const { data: entries, error, reload } = useApiData(fetchAudit);
  const t = useTranslations('settings.audit');
  const tc = useTranslations('common');
  const columns = (['time', 'action', 'who', 'target', 'ip', 'details'] as const).map((c) => t(`columns.${c}`));
  return (
    <>
      <ErrorNote error={error} />
      <Section title={t('recent')} testId="audit">
        <div className="mb-3 flex items-center gap-3 text-[13px] text-zinc-500">
          <span className="flex-1">{t('intro', { limit: LIMIT })}</span>
          <Button size="sm" onClick={reload} data-testid="audit-refresh">
            {t('refresh')}
          </Button>
        </div>
        {!entries ? (
          !error && <p className="text-sm text-zinc-500">{tc('loading')}</p>
        ) : !entries.length ? (
          <p className="text-sm text-zinc-500">{t('empty')}</p>
        ) : (
          <div className="overflow-x-auto">
            <SettingsTable columns={columns} spaced testId="audit-table">
              {entries.map((e) => (
                <AuditRow key={e.id} entry={e} />
              ))}
            </SettingsTable>
          </div>
        )}
      </Section>
    </>
  );
}

function AuditRow({ entry: e }: { entry: AuditEntry }) {
  const formatDate = useFormatDate();
  const t = useTranslations('settings.audit');
  // An action code ("member.role_changed") reads as words in the UI's language; a code without a label yet as itself.
  const key = `actions.${e.action}`;
  const action = /^[a-z_]+\.[a-z_]+$/.test(e.action) && t.has(key) ? t(key as 'actions.login.succeeded') : e.action;
  const details = detailsText(e.data);
  const actor = e.actor?.email ?? e.actor?.id ?? '—';
  return (
    <tr className="border-t border-zinc-100 align-top" data-testid="audit-row" data-action={e.action}>
      <td className="whitespace-nowrap py-2 pr-3 text-[12px] text-zinc-600">
        <time dateTime={e.at} title={e.at}>
          {formatDate(e.at, true)}
        </time>
      </td>
      <td className="py-2 pr-3 text-[13px] text-zinc-800" title={e.action} data-testid="audit-action">
        {action}
      </td>
      <td className="max-w-[12rem] truncate py-2 pr-3 text-[13px] text-zinc-700" title={actor}>
        {actor}
      </td>
      <td className="max-w-[10rem] truncate py-2 pr-3 font-mono text-[12px] text-zinc-600" title={e.target ?? ''}>
        {e.target ?? '—'}
      </td>
      <td className="whitespace-nowrap py-2 pr-3 font-mono text-[12px] text-zinc-500">{e.ip ?? '—'}</td>
      <td className="max-w-[12rem] truncate py-2 font-mono text-[11px] text-zinc-500" title={details}>
        {details || '—'}
      </td>
    </tr>
  );
}

/** `data` as one line: `key: value` pairs for an object, JSON otherwise. */
function detailsText(data: unknown): string {
  if (data === null || data === undefined) return '';
  if (typeof data === 'object' && !Array.isArray(data))
    return Object.entries(data as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(', ');
  return JSON.stringify(data);
}
