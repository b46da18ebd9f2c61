'use client';
/**
 * What the Triggers panel shows about a trigger: its kind, a schedule's next fire times in two zones, its last run
 * (linked to the run in the editor) and last error. The form controls are in form-controls.tsx.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { api } from '@/components/api/client';
import type { RunStatus } from '@/components/api/types';
import { runHref } from '@/components/runs/runs-api';
import { StatusBadge } from '@/components/ui/status';
import { useFormatTime } from '../publish/publish-ui';
import { browserTimeZone, cronHasSeconds, fireTime, lastErrorText } from './trigger-helpers';
import type { TriggerView } from './triggers-api';

export function TypeBadge({ type }: { type: TriggerView['type'] }) {
  const t = useTranslations('triggers.type');
  return (
    <span
      data-testid="trigger-type"
      className={
        'shrink-0 rounded px-1.5 py-px text-[10px] font-semibold uppercase tracking-wide ' +
        (type === 'webhook' ? 'bg-violet-100 text-violet-800' : 'bg-sky-100 text-sky-800')
      }
    >
      {t(type)}
    </span>
  );
}

/** The next fire times, each in the schedule's zone and (when it differs) in the viewer's. */
export function NextRuns({ trigger }: { trigger: Pick<TriggerView, 'nextRuns' | 'timezone' | 'cron' | 'enabled'> }) {
  const t = useTranslations('triggers.runs');
  const format = useFormatter();
  const zone = trigger.timezone ?? 'UTC';
  const viewer = browserTimeZone();
  const runs = trigger.nextRuns ?? [];
  if (!trigger.enabled)
    return (
      <p className="text-[11px] text-zinc-500" data-testid="next-runs-disabled">
        {t('disabled')}
      </p>
    );
  if (!runs.length) return null;
  const seconds = cronHasSeconds(trigger.cron);
  return (
    <div>
      <p className="text-[11px] text-zinc-500">
        {t('nextRuns', { zone })}
        {zone !== viewer && <> · {t('yourZone', { zone: viewer })}</>}
      </p>
      <ol aria-label={t('nextRunsAria')} data-testid="next-runs" className="mt-0.5 space-y-px text-[11px] tabular-nums">
        {runs.map((iso) => {
          const at = fireTime(iso, zone, viewer, { seconds, format: (d, o) => format.dateTime(d, o) });
          return (
            <li key={iso} data-testid="next-run" className="text-zinc-800">
              <time dateTime={iso}>{at.inZone}</time>
              {at.local && (
                <span className="text-zinc-500" data-testid="next-run-local">
                  {' '}
                  · {t('localTime', { time: at.local })}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

const TERMINAL: RunStatus[] = ['succeeded', 'failed', 'cancelled', 'interrupted'];

/** The status of a run, read once (and again while it is still going, whenever the list refreshes). */
function useRunStatus(runId: string | null, refreshKey: number): RunStatus | null {
  const [status, setStatus] = useState<{ runId: string; status: RunStatus } | null>(null);
  const known = status && status.runId === runId ? status.status : null;
  const settled = known !== null && TERMINAL.includes(known);
  useEffect(() => {
    if (!runId || settled) return;
    let cancelled = false;
    api
      .getRun(runId)
      .then((r) => {
        if (!cancelled) setStatus({ runId, status: r.status });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [runId, settled, refreshKey]);
  return known;
}

/** "Last run: <time> · Open run" (the editor with that run shown), or "never". */
export function LastRun({
  workflowId,
  runId,
  at,
  refreshKey,
  label,
}: {
  workflowId: string;
  runId: string | null;
  at: string | null;
  refreshKey: number;
  label?: string;
}) {
  const t = useTranslations('triggers.runs');
  const formatTime = useFormatTime();
  const status = useRunStatus(runId, refreshKey);
  return (
    <p className="flex flex-wrap items-center gap-1.5 text-[11px] text-zinc-500" data-testid="trigger-last-run">
      <span>{t('labelled', { label: label ?? t('lastRun') })}</span>
      {runId || at ? (
        <>
          {at && <span className="text-zinc-700">{formatTime(at)}</span>}
          {status && <StatusBadge status={status} testId="trigger-last-run-status" />}
          {runId && (
            <a
              href={runHref({ workflowId, id: runId })}
              className="text-indigo-600 underline-offset-2 hover:underline"
              data-testid="trigger-last-run-link"
              data-run-id={runId}
            >
              {t('openRun')}
            </a>
          )}
        </>
      ) : (
        <span>{t('never')}</span>
      )}
    </p>
  );
}

export function LastError({ error }: { error: unknown }) {
  const t = useTranslations('triggers.runs');
  const words = useTranslations('triggers.lastError');
  const e = lastErrorText(error, words);
  if (!e) return null;
  return (
    <p
      role="status"
      data-testid="trigger-last-error"
      data-code={e.code ?? undefined}
      title={e.detail}
      className="mt-1 rounded border border-red-200 bg-red-50 px-2 py-1 text-[11px] text-red-800"
    >
      {t.rich('lastError', { text: e.text, b: (c) => <b>{c}</b> })}
    </p>
  );
}
