'use client';
/**
 * One row of the workflow list: name (or its rename field), description, size, last edit, the latest run (its
 * status and when, opening it in the editor) and the actions. Actions a viewer may not take are not offered: the
 * server would refuse them with 403.
 */
import Link from 'next/link';
import { useFormatter, useNow, useTranslations } from 'next-intl';
import type { WorkflowSummary } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/ui/status';

/** "just now", "5 minutes ago", "3 hours ago", else the date — in the UI's language. */
function useRelativeTime(): (iso: string) => string {
  const t = useTranslations('workflowList.row');
  const format = useFormatter();
  // Re-rendered each minute, so "5 minutes ago" does not stay on screen for an hour.
  const now = useNow({ updateInterval: 60_000 });
  return (iso) => {
    const date = new Date(iso);
    const s = Math.round((now.getTime() - date.getTime()) / 1000);
    if (s < 60) return t('justNow');
    if (s < 3600) return format.relativeTime(date, { now, unit: 'minute' });
    if (s < 86400) return format.relativeTime(date, { now, unit: 'hour' });
    return format.dateTime(date, { dateStyle: 'medium' });
  };
}

export interface RowActions {
  onRename: (wf: WorkflowSummary, name: string) => void;
  onDuplicate: (wf: WorkflowSummary) => void;
  onDelete: (wf: WorkflowSummary) => void;
}

function LastRun({ wf }: { wf: WorkflowSummary }) {
  const t = useTranslations('workflowList.row');
  const when = useRelativeTime();
  const run = wf.lastRun;
  if (!run) {
    return (
      <span className="text-xs text-zinc-400" data-testid="last-run">
        {t('neverRun')}
      </span>
    );
  }
  return (
    <Link
      href={`/workflows/${encodeURIComponent(wf.id)}?run=${encodeURIComponent(run.id)}`}
      title={t('lastRunTitle')}
      className="inline-flex items-center gap-1.5 rounded-md px-1.5 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100"
      data-testid="last-run"
    >
      <StatusBadge status={run.status} testId="last-run-status" />
      <span>{when(run.startedAt ?? run.createdAt)}</span>
    </Link>
  );
}

export function WorkflowRow({
  wf,
  editable,
  renaming,
  onStartRename,
  onCancelRename,
  actions,
}: {
  wf: WorkflowSummary;
  /** The caller's role may change workflows (not a viewer). */
  editable: boolean;
  renaming: boolean;
  onStartRename: () => void;
  onCancelRename: () => void;
  actions: RowActions;
}) {
  const t = useTranslations('workflowList');
  const updatedAt = useRelativeTime();
  return (
    <li
      className="group flex items-center gap-4 px-5 py-4 hover:bg-zinc-50"
      data-testid="workflow-row"
      data-workflow-id={wf.id}
    >
      <div
        className={
          'grid h-9 w-9 shrink-0 place-items-center rounded-lg ' + 'bg-indigo-50 text-xs font-semibold text-indigo-700'
        }
      >
        {wf.nodeCount}
      </div>
      <div className="min-w-0 flex-1">
        {renaming ? (
          <input
            autoFocus
            defaultValue={wf.name}
            data-testid="rename-input"
            aria-label={t('row.nameLabel')}
            className={
              'w-full rounded border border-indigo-400 px-2 ' + 'py-1 text-sm outline-none ring-2 ring-indigo-100'
            }
            onBlur={(e) => actions.onRename(wf, e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
              if (e.key === 'Escape') onCancelRename();
            }}
          />
        ) : (
          <Link
            href={`/workflows/${wf.id}`}
            className="block truncate text-sm font-medium text-zinc-900 hover:text-indigo-700"
            data-testid="workflow-name"
          >
            {wf.name}
          </Link>
        )}
        <div className="mt-0.5 truncate text-xs text-zinc-500">
          {wf.description || t('row.noDescription')} · {t('row.nodes', { count: wf.nodeCount })} ·{' '}
          {t('row.updated', { when: updatedAt(wf.updatedAt) })}
        </div>
      </div>
      <div className="shrink-0">
        <LastRun wf={wf} />
      </div>
      <div className="flex shrink-0 items-center gap-1 opacity-70 group-hover:opacity-100">
        {editable && (
          <>
            <Button size="sm" variant="ghost" onClick={onStartRename} data-testid="rename-workflow">
              {t('row.rename')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => actions.onDuplicate(wf)} data-testid="duplicate-workflow">
              {t('row.duplicate')}
            </Button>
          </>
        )}
        <a
          href={`/api/workflows/${wf.id}/export`}
          download
          className={
            'inline-flex h-7 items-center rounded-md px-2.5 text-xs ' +
            'font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900'
          }
          data-testid="export-workflow"
        >
          {t('row.export')}
        </a>
        {editable && (
          <Button
            size="sm"
            variant="ghost"
            className="text-red-600 hover:bg-red-50 hover:text-red-700"
            onClick={() => actions.onDelete(wf)}
            data-testid="delete-workflow"
          >
            {t('row.delete')}
          </Button>
        )}
        <Link
          href={`/workflows/${wf.id}`}
          className={
            'ml-1 inline-flex h-7 items-center rounded-md bg-zinc-900 ' +
            'px-3 text-xs font-medium text-white hover:bg-zinc-700'
          }
          data-testid="open-workflow"
        >
          {t('row.open')}
        </Link>
      </div>
    </li>
  );
}
