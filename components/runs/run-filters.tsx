'use client';
/** The filter bar of the runs view: workflow, status, engine, version, trigger, time range and a search box. */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import type { WorkflowSummary } from '@/components/api/types';
import { runsApi, type RunFilters } from './runs-api';

const STATUSES = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;
const ENGINES = ['dag', 'langgraph'];
/** How a run was started (labels in runs.filters.triggers); the API names more kinds as they arrive. */
const TRIGGERS = ['editor', 'api', 'webhook', 'schedule', 'mcp', 'evaluation', 'chat'] as const;
/** A preset's value, its label (runs.filters.ranges) and its days. */
export const RANGES: Array<[string, 'any' | '24h' | '7d' | '30d' | 'custom', number | null]> = [
  ['', 'any', null],
  ['24h', '24h', 1],
  ['7d', '7d', 7],
  ['30d', '30d', 30],
  ['custom', 'custom', null],
];

export const selectCls =
  'h-8 rounded-md border border-zinc-300 bg-white px-2 text-[13px] text-zinc-800 ' +
  'focus:outline-2 focus:outline-indigo-500';

/** `range` is a preset of RANGES; `custom` uses `from` / `to` (dates, `to` inclusive) as typed. */
export interface FilterState extends RunFilters {
  range?: string;
}

/** The API's filters for a state: a preset becomes `from` = now − its days. */
export function apiFilters(s: FilterState, now = Date.now()): RunFilters {
  const { range, from, to, ...rest } = s;
  const preset = RANGES.find(([k]) => k === range);
  if (preset?.[2]) return { ...rest, from: new Date(now - preset[2] * 86_400_000).toISOString() };
  if (range === 'custom') {
    const end = to ? new Date(`${to}T00:00:00`) : null;
    if (end) end.setDate(end.getDate() + 1); // the whole last day
    return {
      ...rest,
      from: from ? new Date(`${from}T00:00:00`).toISOString() : undefined,
      to: end ? end.toISOString() : undefined,
    };
  }
  return rest;
}

export function RunFiltersBar({
  value,
  workflows,
  onChange,
}: {
  value: FilterState;
  workflows: WorkflowSummary[];
  /** Called with what changed only: the view applies it to the latest filters asked for (runs-view.tsx). */
  onChange: (patch: Partial<FilterState>) => void;
}) {
  const t = useTranslations('runs.filters');
  const tStatus = useTranslations('runs.status');
  const [search, setSearch] = useState(value.q ?? '');
  const [versions, setVersions] = useState<{ workflowId: string; list: number[] } | null>(null);
  const set = onChange;

  // Typing pauses 300 ms before the list reloads.
  useEffect(() => {
    if ((value.q ?? '') === search) return;
    const timer = setTimeout(() => onChange({ q: search || undefined }), 300);
    return () => clearTimeout(timer);
  }, [search, value, onChange]);

  // A workflow's published versions, for the version filter (answer-driven: no synchronous state in the effect).
  useEffect(() => {
    if (!value.workflowId) return;
    const id = value.workflowId;
    let live = true;
    runsApi.versions(id).then(
      (list) => live && setVersions({ workflowId: id, list }),
      () => live && setVersions({ workflowId: id, list: [] }),
    );
    return () => {
      live = false;
    };
  }, [value.workflowId]);
  const versionList = versions && versions.workflowId === value.workflowId ? versions.list : [];

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="run-filters">
      <input
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={t('searchPlaceholder')}
        aria-label={t('searchLabel')}
        data-testid="runs-search"
        className={`${selectCls} w-64`}
      />
      <select
        aria-label={t('workflow')}
        data-testid="filter-workflow"
        className={selectCls}
        value={value.workflowId ?? ''}
        onChange={(e) => set({ workflowId: e.target.value || undefined, version: undefined })}
      >
        <option value="">{t('allWorkflows')}</option>
        {workflows.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      <select
        aria-label={t('status')}
        data-testid="filter-status"
        className={selectCls}
        value={value.status ?? ''}
        onChange={(e) => set({ status: e.target.value || undefined })}
      >
        <option value="">{t('anyStatus')}</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {tStatus(s)}
          </option>
        ))}
      </select>
      <select
        aria-label={t('engine')}
        data-testid="filter-engine"
        className={selectCls}
        value={value.engine ?? ''}
        onChange={(e) => set({ engine: e.target.value || undefined })}
      >
        <option value="">{t('anyEngine')}</option>
        {ENGINES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <select
        aria-label={t('version')}
        data-testid="filter-version"
        className={selectCls}
        value={value.version ?? ''}
        onChange={(e) => set({ version: e.target.value || undefined })}
      >
        <option value="">{t('anyVersion')}</option>
        <option value="draft">{t('draft')}</option>
        {versionList.map((v) => (
          <option key={v} value={String(v)}>
            {/* i18n-exempt: a version tag, "v3" in every language */}
            {`v${v}`}
          </option>
        ))}
        {value.version && value.version !== 'draft' && !versionList.includes(Number(value.version)) && (
          <option value={value.version}>
            {/* i18n-exempt: a version tag, "v3" in every language */}
            {`v${value.version}`}
          </option>
        )}
      </select>
      <select
        aria-label={t('trigger')}
        data-testid="filter-trigger"
        className={selectCls}
        value={value.trigger ?? ''}
        onChange={(e) => set({ trigger: e.target.value || undefined })}
      >
        <option value="">{t('anyTrigger')}</option>
        {TRIGGERS.map((k) => (
          <option key={k} value={k}>
            {t(`triggers.${k}`)}
          </option>
        ))}
      </select>
      <select
        aria-label={t('timeRange')}
        data-testid="filter-range"
        className={selectCls}
        value={value.range ?? ''}
        onChange={(e) => set({ range: e.target.value || undefined, from: undefined, to: undefined })}
      >
        {RANGES.map(([k, label]) => (
          <option key={k} value={k}>
            {t(`ranges.${label}`)}
          </option>
        ))}
      </select>
      {value.range === 'custom' && (
        <>
          <input
            type="date"
            aria-label={t('from')}
            data-testid="filter-from"
            className={selectCls}
            value={value.from ?? ''}
            onChange={(e) => set({ from: e.target.value || undefined })}
          />
          <span className="text-[12px] text-zinc-500">{t('between')}</span>
          <input
            type="date"
            aria-label={t('to')}
            data-testid="filter-to"
            className={selectCls}
            value={value.to ?? ''}
            onChange={(e) => set({ to: e.target.value || undefined })}
          />
        </>
      )}
    </div>
  );
}
