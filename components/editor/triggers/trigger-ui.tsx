'use client';
/**
 * What the Triggers panel shows about a trigger: its kind, a schedule's next fire times in two zones, its last run
 * (linked to the run in the editor) and last error. The form controls are in form-controls.tsx.
 */
import { useEffect, useState } from 'react';
import { api } from '@/components/api/client';
import type { RunStatus } from '@/components/api/types';
import { runHref } from '@/components/runs/runs-api';
import { StatusBadge } from '@/components/ui/status';
import { formatTime } from '../publish/publish-ui';
import { browserTimeZone, cronHasSeconds, fireTime, lastErrorText } from './trigger-helpers';
import type { TriggerView } from './triggers-api';

export function TypeBadge({ type }: { type: TriggerView['type'] }) {
  return (
    <span
      data-testid="trigger-type"
      className={
        'shrink-0 rounded px-1.5 py-px text-[10px] font-semibold uppercase tracking-wide ' +
        (type === 'webhook' ? 'bg-violet-100 text-violet-800' : 'bg-sky-100 text-sky-800')
      }
    >
      {type}
    </span>
  );
}

/** The next fire times, each in the schedule's zone and (when it differs) in the viewer's. */
export function NextRuns({ trigger }: { trigger: Pick<TriggerView, 'nextRuns' | 'timezone' | 'cron' | 'enabled'> }) {
  const zone = trigger.timezone ?? 'UTC';
  const viewer = browserTimeZone();
  const runs = trigger.nextRuns ?? [];
  if (!trigger.enabled)
    return (
      <p className="text-[11px] text-zinc-500" data-testid="next-runs-disabled">
        Disabled: no runs are scheduled.
      </p>
    );
  if (!runs.length) return null;
  const seconds = cronHasSeconds(trigger.cron);
  return (
    <div>
      <p className="text-[11px] text-zinc-500">
        Next runs · {zone}
        {zone !== viewer && <> · your time: {viewer}</>}
      </p>
      <ol aria-label="Next run times" data-testid="next-runs" className="mt-0.5 space-y-px text-[11px] tabular-nums">
        {runs.map((iso) => {
          const t = fireTime(iso, zone, viewer, { seconds });
          return (
            <li key={iso} data-testid="next-run" className="text-zinc-800">
              <time dateTime={iso}>{t.inZone}</time>
              {t.local && (
                <span className="text-zinc-500" data-testid="next-run-local">
                  {' '}
                  · {t.local} your time
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
  label = 'Last run',
}: {
  workflowId: string;
  runId: string | null;
  at: string | null;
  refreshKey: number;
  label?: string;
}) {
  const status = useRunStatus(runId, refreshKey);
  return (
    <p className="flex flex-wrap items-center gap-1.5 text-[11px] text-zinc-500" data-testid="trigger-last-run">
      <span>{label}:</span>
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
              Open run
            </a>
          )}
        </>
      ) : (
        <span>never</span>
      )}
    </p>
  );
}

export function LastError({ error }: { error: unknown }) {
  const e = lastErrorText(error);
  if (!e) return null;
  return (
    <p
      role="status"
      data-testid="trigger-last-error"
      data-code={e.code ?? undefined}
      title={e.detail}
      className="mt-1 rounded border border-red-200 bg-red-50 px-2 py-1 text-[11px] text-red-800"
    >
      <b>Last error:</b> {e.text}
    </p>
  );
}
