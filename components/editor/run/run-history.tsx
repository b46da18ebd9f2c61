'use client';
/**
 * Past runs of this workflow; opening one replays its trace onto the canvas. Each row says how the run was started
 * (editor, API, webhook, schedule, MCP), which published version ran (or the draft), with which inputs and at what
 * cost; status and trigger filter the list on the server (GET /api/workflows/:id/runs).
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { call, errorMessage } from '@/components/api/client';
import type { RunStatus, RunSummary } from '@/components/api/types';
import { inputsLine } from '@/components/runs/inputs-line';
import { Button } from '@/components/ui/button';
import { formatDuration, StatusBadge } from '@/components/ui/status';
import { useEditorContext, useRunState } from '../editor-context';
import { formatUsd } from './run-cost';
import type { RunState } from './run-store';

/** A row of the run history: the run, how it started, what it ran and what it cost. */
export type HistoryRun = RunSummary & {
  trigger: string;
  /** The published version's number; null: the editor's draft. */
  version: number | null;
  /** USD; null when a node's price is unknown. */
  costUsd: number | null;
  /** The inputs' JSON text, cut short by the server. */
  inputsPreview: string;
  durationMs: number | null;
  /** A single-node run (POST /api/workflows/:id/nodes/:nodeId/run) names its node and the input it ran with. */
  singleNode?: { nodeId: string; label: string | null; inputPreview?: string | null } | null;
};

/** How a run can be started (run.history.triggers names them). */
export const TRIGGERS = ['editor', 'api', 'webhook', 'schedule', 'mcp', 'evaluation', 'chat'] as const;
const STATUSES: RunStatus[] = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'interrupted'];

/** The inputs on one line (shared with /runs). */
export { inputsLine };

const selectRunId = (s: RunState) => s.runId;
const selectStatus = (s: RunState) => s.status;

export function RunHistory({ onOpen }: { onOpen: () => void }) {
  const { editor, runController } = useEditorContext();
  const t = useTranslations('run.history');
  const tc = useTranslations('common');
  const currentId = useRunState(selectRunId);
  const status = useRunState(selectStatus);
  const [runs, setRuns] = useState<HistoryRun[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<{ status: string; trigger: string }>({ status: '', trigger: '' });

  // The state is set when the answer arrives, never synchronously inside the effect below.
  const load = useCallback(() => {
    const qs = new URLSearchParams();
    if (filter.status) qs.set('status', filter.status);
    if (filter.trigger) qs.set('trigger', filter.trigger);
    const q = qs.toString();
    return call<HistoryRun[]>(
      'GET',
      `/api/workflows/${encodeURIComponent(editor.state.workflowId)}/runs${q ? `?${q}` : ''}`,
    ).then(
      (list) => {
        setRuns(list);
        setError(null);
      },
      (e) => setError(errorMessage(e)),
    );
  }, [editor, filter]);

  // Reload when a run starts or changes state, so the list shows the current one, and when a filter changes.
  useEffect(() => {
    void load();
  }, [load, currentId, status]);

  const select = 'rounded border border-zinc-300 bg-white px-1 py-0.5 text-[11px] text-zinc-700';
  return (
    <div className="flex h-full flex-col" data-testid="run-history">
      <div className="flex items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 py-1.5">
        <span className="text-[11px] text-zinc-500" data-testid="run-history-count">
          {runs ? t('count', { count: runs.length }) : tc('loading')}
        </span>
        <select
          aria-label={t('status')}
          data-testid="run-history-status"
          className={select}
          value={filter.status}
          onChange={(e) => setFilter((f) => ({ ...f, status: e.target.value }))}
        >
          <option value="">{t('anyStatus')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {tc(`status.${s}`)}
            </option>
          ))}
        </select>
        <select
          aria-label={t('trigger')}
          data-testid="run-history-trigger"
          className={select}
          value={filter.trigger}
          onChange={(e) => setFilter((f) => ({ ...f, trigger: e.target.value }))}
        >
          <option value="">{t('anyTrigger')}</option>
          {TRIGGERS.map((value) => (
            <option key={value} value={value}>
              {t(`triggers.${value}`)}
            </option>
          ))}
        </select>
        <Button size="sm" variant="ghost" className="ml-auto" onClick={() => void load()} data-testid="refresh-runs">
          {t('refresh')}
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {error && <div className="p-3 text-[12px] text-red-600">{error}</div>}
        {runs?.length === 0 && (
          <div className="p-4 text-center text-[12px] text-zinc-500">
            {filter.status || filter.trigger ? t('noMatch') : t('noRuns')}
          </div>
        )}
        {runs?.map((r) => (
          <HistoryRow
            key={r.id}
            run={r}
            current={r.id === currentId}
            liveStatus={r.id === currentId && status !== 'idle' ? status : r.status}
            onOpen={() => {
              runController.open(r.id);
              onOpen();
            }}
          />
        ))}
      </div>
    </div>
  );
}

function HistoryRow({
  run: r,
  current,
  liveStatus,
  onOpen,
}: {
  run: HistoryRun;
  current: boolean;
  liveStatus: RunSummary['status'];
  onOpen: () => void;
}) {
  const t = useTranslations('run.history');
  const format = useFormatter();
  const ms = r.durationMs ?? (r.finishedAt ? new Date(r.finishedAt).getTime() - new Date(r.createdAt).getTime() : null);
  // A single-node run shows what its node ran with (the edited input, if any), not the run's start inputs.
  const shown = r.singleNode?.inputPreview ?? r.inputsPreview ?? '{}';
  const inputs = inputsLine(shown);
  return (
    <button
      type="button"
      data-testid="run-history-row"
      data-run-id={r.id}
      data-trigger={r.trigger}
      onClick={onOpen}
      className={
        'flex w-full items-center gap-3 border-b border-zinc-100 px-3 py-1.5 text-left text-[12px] ' +
        `hover:bg-zinc-50 ${current ? 'bg-indigo-50/60' : ''}`
      }
    >
      <StatusBadge status={liveStatus} />
      <span
        className="w-16 shrink-0 rounded bg-zinc-100 px-1.5 text-center text-[11px] text-zinc-700"
        data-testid="run-trigger"
      >
        {t.has(`triggers.${r.trigger}`) ? t(`triggers.${r.trigger}`) : r.trigger}
      </span>
      <span
        className="w-12 shrink-0 text-[11px] text-zinc-600"
        data-testid="run-version"
        title={r.versionId ?? t('theDraft')}
      >
        {r.version != null ? t('version', { version: r.version }) : t('draft')}
      </span>
      <span className="shrink-0 font-mono text-[11px] text-zinc-500" title={r.id}>
        {r.id.slice(4, 12)}
      </span>
      {r.singleNode && (
        <span className="shrink-0 rounded bg-amber-50 px-1.5 text-[11px] text-amber-800" data-testid="run-single-node">
          {t('singleNode', { label: r.singleNode.label || r.singleNode.nodeId })}
        </span>
      )}
      <span className="shrink-0 text-zinc-500">
        {format.dateTime(new Date(r.createdAt), { dateStyle: 'medium', timeStyle: 'medium' })}
      </span>
      <span
        className="min-w-0 flex-1 truncate font-mono text-[11px] text-zinc-500"
        data-testid="run-inputs"
        title={shown}
      >
        {inputs}
      </span>
      {r.error && (
        <span className="min-w-0 max-w-[30%] truncate text-red-600" title={r.error.message}>
          {r.error.message}
        </span>
      )}
      <span className="w-20 shrink-0 text-right tabular-nums text-zinc-500" data-testid="run-cost">
        {formatUsd(r.costUsd ?? null)}
      </span>
      <span className="w-16 shrink-0 text-right tabular-nums text-zinc-500">{formatDuration(ms)}</span>
    </button>
  );
}
