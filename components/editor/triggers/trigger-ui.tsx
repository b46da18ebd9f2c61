'use client';
/**
 * Small building blocks of the Triggers panel: a labelled field with its API error beside it, an on/off switch, a
 * schedule's next fire times in two zones, a trigger's last run (linked to the run in the editor) and last error.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { api } from '@/components/api/client';
import type { RunStatus } from '@/components/api/types';
import { runHref } from '@/components/runs/runs-api';
import { StatusBadge } from '@/components/ui/status';
import { formatTime } from '../publish/publish-ui';
import { browserTimeZone, cronHasSeconds, fireTime, lastErrorText } from './trigger-helpers';
import type { TriggerView } from './triggers-api';

export const labelClass = 'mb-1 block text-[11px] font-medium text-zinc-600';

/** A label over its control, a hint under it, and the API's message for this field in red. */
export function Field({
  label,
  hint,
  error,
  children,
  testId,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Render prop: the control gets the id the label points at and the id of its description. */
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
  testId?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mb-3" data-testid={testId}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children({ id, describedBy })}
      {hint && (
        <p id={hintId} className="mt-1 text-[11px] text-zinc-500">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function FieldError({ message, id }: { message?: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-[11px] text-red-700" data-testid="field-error">
      {message}
    </p>
  );
}

/** An on/off switch (role `switch`, named by `label`). */
export function Toggle({
  checked,
  onChange,
  label,
  disabled,
  testId,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  label: string;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      title={label}
      disabled={disabled}
      data-testid={testId}
      onClick={() => onChange(!checked)}
      className={
        'relative inline-flex h-4 w-7 shrink-0 items-center rounded-full transition-colors disabled:opacity-50 ' +
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ' +
        (checked ? 'bg-emerald-500' : 'bg-zinc-300')
      }
    >
      <span
        className={
          'inline-block h-3 w-3 rounded-full bg-white shadow transition-transform ' +
          (checked ? 'translate-x-3.5' : 'translate-x-0.5')
        }
      />
    </button>
  );
}

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
