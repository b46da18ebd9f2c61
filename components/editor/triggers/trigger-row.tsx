'use client';
/** One trigger in the panel's list: kind, name, on/off, how it is called or when it fires, last run and error. */
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '../publish/publish-ui';
import { Toggle } from './form-controls';
import { LastError, LastRun, NextRuns, TypeBadge } from './trigger-ui';
import type { TriggerView } from './triggers-api';

export const displayName = (t: Pick<TriggerView, 'name' | 'type'>) =>
  t.name || (t.type === 'webhook' ? 'Unnamed webhook' : 'Unnamed schedule');

function WebhookSummary({ t }: { t: TriggerView }) {
  const auth = t.auth?.type ?? 'none';
  return (
    <p className="mt-0.5 text-[11px] text-zinc-500">
      {auth === 'hmac' && 'HMAC signature'}
      {auth === 'header' && (
        <>
          Secret in the <code className="font-mono">{t.auth?.header}</code> header
        </>
      )}
      {auth === 'none' && (
        <span className="font-medium text-red-700" data-testid="trigger-no-auth">
          No authentication — anyone with the URL can start runs
        </span>
      )}
      {' · '}
      {t.response === 'wait' ? 'waits for outputs' : 'answers 202 at once'}
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
  const name = displayName(t);
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
          label="Enabled"
          disabled={readOnly || busy}
          testId="trigger-enabled"
        />
        <Button size="sm" variant="ghost" onClick={onEdit} aria-label={`Edit ${name}`} data-testid="trigger-edit">
          Edit
        </Button>
        <ConfirmButton
          label="Delete"
          question={t.type === 'webhook' ? 'Delete? Its URL stops working.' : 'Delete? No more runs.'}
          confirmLabel="Delete"
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
            <code className="font-mono text-zinc-700">{t.cron}</code> in {t.timezone}
            {t.misfire === 'skip' ? ' · missed runs skipped' : ' · a missed run runs once'}
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
