'use client';
/** One trigger in the panel's list: kind, name, on/off, how it is called or when it fires, last run and error. */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '../publish/publish-ui';
import { Toggle } from './form-controls';
import { LastError, LastRun, NextRuns, TypeBadge } from './trigger-ui';
import type { TriggerView } from './triggers-api';

/** A trigger's name, or "Unnamed webhook/schedule" from `msg` (the `triggers.row` messages). */
export const displayName = (t: Pick<TriggerView, 'name' | 'type'>, msg: (key: string) => string) =>
  t.name || (t.type === 'webhook' ? msg('unnamedWebhook') : msg('unnamedSchedule'));

function WebhookSummary({ t }: { t: TriggerView }) {
  const msg = useTranslations('triggers.row');
  const auth = t.auth?.type ?? 'none';
  return (
    <p className="mt-0.5 text-[11px] text-zinc-500">
      {auth === 'hmac' && msg('authHmac')}
      {auth === 'header' &&
        msg.rich('authHeader', {
          header: t.auth?.header ?? '',
          code: (c: ReactNode) => <code className="font-mono">{c}</code>,
        })}
      {auth === 'none' && (
        <span className="font-medium text-red-700" data-testid="trigger-no-auth">
          {msg('authNone')}
        </span>
      )}
      {' · '}
      {t.response === 'wait' ? msg('responseWait') : msg('responseAsync')}
      {' · '}
      <code className="font-mono text-zinc-600" title={t.url}>
        {t.path}
      </code>
    </p>
  );
}

export function TriggerRow({
  t,
  refreshKey,
  readOnly,
  busy,
  onToggle,
  onEdit,
  onDelete,
}: {
  t: TriggerView;
  refreshKey: number;
  /** This caller may not change it (webhooks: admins only). */
  readOnly: boolean;
  busy: boolean;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onDelete: () => Promise<void>;
}) {
  const msg = useTranslations('triggers.row');
  const name = displayName(t, msg);
  return (
    <li
      data-testid="trigger-row"
      data-trigger-id={t.id}
      data-type={t.type}
      data-enabled={t.enabled}
      className={`rounded-md border border-zinc-200 px-3 py-2 text-[12px] ${t.enabled ? '' : 'bg-zinc-50'}`}
    >
      <div className="flex items-center gap-2">
        <TypeBadge type={t.type} />
        <span
          className={`min-w-0 flex-1 truncate font-medium ${t.enabled ? 'text-zinc-900' : 'text-zinc-500'}`}
          data-testid="trigger-name"
        >
          {name}
        </span>
        <Toggle
          checked={t.enabled}
          onChange={onToggle}
          label={msg('enabled')}
          disabled={readOnly || busy}
          testId="trigger-enabled"
        />
        <Button
          size="sm"
          variant="ghost"
          onClick={onEdit}
          aria-label={msg('editAria', { name })}
          data-testid="trigger-edit"
        >
          {msg('edit')}
        </Button>
        <ConfirmButton
          label={msg('delete')}
          question={t.type === 'webhook' ? msg('deleteWebhookQuestion') : msg('deleteScheduleQuestion')}
          confirmLabel={msg('delete')}
          testId="trigger-delete"
          disabled={readOnly}
          onConfirm={onDelete}
        />
      </div>
      {t.type === 'webhook' ? (
        <WebhookSummary t={t} />
      ) : (
        <>
          <p className="mt-0.5 text-[11px] text-zinc-500">
            {msg.rich('cronInZone', {
              cron: t.cron ?? '',
              timezone: t.timezone ?? '',
              code: (c: ReactNode) => <code className="font-mono text-zinc-700">{c}</code>,
            })}
            {' · '}
            {t.misfire === 'skip' ? msg('misfireSkip') : msg('misfireRunOnce')}
          </p>
          <div className="mt-1">
            <NextRuns trigger={t} />
          </div>
        </>
      )}
      <div className="mt-1">
        <LastRun workflowId={t.workflowId} runId={t.lastRunId} at={t.lastRunAt} refreshKey={refreshKey} />
        <LastError error={t.lastError} />
      </div>
    </li>
  );
}
