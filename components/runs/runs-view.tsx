'use client';
/**
 * The workspace's runs (`/runs`): newest first, filtered and searched through GET /api/runs, more pages by cursor.
 * The filters live in the URL, so a filtered view can be shared and survives a reload (so does `?limit=`, the page
 * size); a row opens the run in its workflow's editor.
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, errorMessage } from '@/components/api/client';
import type { WorkflowSummary } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/ui/status';
import { TopBar } from '@/components/ui/top-bar';
import { inputsLine } from './inputs-line';
import { apiFilters, RunFiltersBar, type FilterState } from './run-filters';
import { useRunFormat } from './run-format';
import { runHref, runsApi, type RunRow } from './runs-api';

const KEYS = ['workflowId', 'status', 'engine', 'version', 'trigger', 'range', 'from', 'to', 'q'] as const;
const PAGE = 50;
const COLUMNS = [
  'status',
  'run',
  'workflow',
  'version',
  'engine',
  'trigger',
  'started',
  'duration',
  'cost',
  'inputs',
  'error',
] as const;

/** `?limit=` as a page size the API accepts (1…200), else the default. */
function pageSizeOf(params: URLSearchParams): number {
  const n = Number(params.get('limit'));
  return Number.isInteger(n) && n >= 1 && n <= 200 ? n : PAGE;
}

function stateOf(params: URLSearchParams): FilterState {
  const s: FilterState = {};
  for (const k of KEYS) {
    const v = params.get(k);
    if (v) s[k] = v;
  }
  return s;
}

/** The query of a filter state (the parameters that are set, in KEYS order). */
function queryOf(state: FilterState): URLSearchParams {
  const qs = new URLSearchParams();
  for (const k of KEYS) if (state[k]) qs.set(k, state[k]!);
  return qs;
}

interface Loaded {
  key: string;
  runs: RunRow[];
  nextCursor: string | null;
  error: string | null;
}

export function RunsView() {
  const t = useTranslations('runs');
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = useMemo(() => stateOf(new URLSearchParams(params.toString())), [params]);
  const limit = pageSizeOf(new URLSearchParams(params.toString()));
  const key = JSON.stringify(filters);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [workflows, setWorkflows] = useState<WorkflowSummary[]>([]);

  useEffect(() => {
    api.listWorkflows().then(setWorkflows, () => setWorkflows([]));
  }, []);

  // Quick successive changes (a workflow, then a status) must not undo each other: the URL lags a navigation behind,
  // so each change applies to the latest filters asked for, not to the ones on screen; cleared once the URL has them.
  const requested = useRef<FilterState | null>(null);
  useEffect(() => {
    if (requested.current && JSON.stringify(requested.current) === key) requested.current = null;
  }, [key]);
  const setFilters = useCallback(
    (patch: Partial<FilterState>) => {
      const next = { ...(requested.current ?? filters), ...patch };
      requested.current = stateOf(queryOf(next));
      const qs = queryOf(next);
      if (limit !== PAGE) qs.set('limit', String(limit));
      const s = qs.toString();
      router.replace(s ? `${pathname}?${s}` : pathname, { scroll: false });
    },
    [router, pathname, limit, filters],
  );

  // A new filter set loads its first page; an answer for an older set is dropped.
  useEffect(() => {
    const ctl = new AbortController();
    runsApi.list(apiFilters(JSON.parse(key) as FilterState), null, limit, ctl.signal).then(
      (page) => setLoaded({ key, runs: page.runs, nextCursor: page.nextCursor, error: null }),
      (e) => {
        if (!ctl.signal.aborted) setLoaded({ key, runs: [], nextCursor: null, error: errorMessage(e) });
      },
    );
    return () => ctl.abort();
  }, [key, limit]);

  const current = loaded?.key === key ? loaded : null;

  const loadMore = async () => {
    if (!current?.nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await runsApi.list(apiFilters(filters), current.nextCursor, limit);
      setLoaded({ ...current, runs: [...current.runs, ...page.runs], nextCursor: page.nextCursor });
    } catch (e) {
      setLoaded({ ...current, error: errorMessage(e) });
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <div className="flex min-h-screen flex-col bg-zinc-50">
      <TopBar>
        <span className="text-zinc-600">/</span>
        <span className="text-sm font-medium">{t('title')}</span>
      </TopBar>
      <main className="mx-auto w-full max-w-7xl flex-1 space-y-4 p-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-lg font-semibold text-zinc-900">{t('title')}</h1>
          {filters.workflowId && (
            <Link
              href={`/workflows/${encodeURIComponent(filters.workflowId)}/stats`}
              className="text-sm font-medium text-indigo-600 hover:text-indigo-500"
              data-testid="runs-dashboard-link"
            >
              {t('dashboardLink')}
            </Link>
          )}
        </div>
        <RunFiltersBar value={filters} workflows={workflows} onChange={setFilters} />
        {current?.error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="runs-error">
            {current.error}
          </p>
        )}
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-left text-[13px]" data-testid="runs-table">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-[11px] uppercase tracking-wide text-zinc-500">
              <tr>
                {COLUMNS.map((h) => (
                  <th key={h} className="whitespace-nowrap px-3 py-2 font-medium">
                    {t(`columns.${h}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {current?.runs.map((r) => (
                <RunTableRow key={r.id} run={r} />
              ))}
            </tbody>
          </table>
          {!current && <p className="p-4 text-sm text-zinc-500">{t('loading')}</p>}
          {current && !current.runs.length && !current.error && (
            <p className="p-6 text-center text-sm text-zinc-500" data-testid="runs-empty">
              {t('empty')}
            </p>
          )}
        </div>
        <div className="flex items-center gap-3 text-[12px] text-zinc-500">
          <span data-testid="runs-count">{current ? t('shown', { count: current.runs.length }) : ''}</span>
          {current?.nextCursor && (
            <Button size="sm" onClick={() => void loadMore()} disabled={loadingMore} data-testid="runs-load-more">
              {loadingMore ? t('loading') : t('loadMore')}
            </Button>
          )}
        </div>
      </main>
    </div>
  );
}

function RunTableRow({ run: r }: { run: RunRow }) {
  const t = useTranslations('runs.row');
  const f = useRunFormat();
  const href = runHref(r);
  const cell = 'whitespace-nowrap px-3 py-1.5';
  // A single-node run ran its node with this input (the edited one, if any), not with the run's start inputs.
  const inputs = r.singleNode?.inputPreview ?? r.inputsPreview ?? '{}';
  return (
    <tr className="border-t border-zinc-100 hover:bg-zinc-50" data-testid="runs-row" data-run-id={r.id}>
      <td className={cell}>
        <StatusBadge status={r.status} />
      </td>
      <td className={cell}>
        <Link href={href} className="font-mono text-[12px] text-indigo-700 hover:underline" title={r.id}>
          {r.id.slice(0, 16)}…
        </Link>
      </td>
      <td className={`${cell} max-w-[18rem] truncate`}>
        <Link href={href} className="text-zinc-800 hover:underline" title={r.workflowName}>
          {r.workflowName}
        </Link>
        {r.singleNode && (
          <span
            className="ml-2 rounded bg-amber-50 px-1.5 text-[11px] text-amber-800"
            data-testid="runs-single-node"
            title={t('singleNodeTitle')}
          >
            {t('singleNode', { label: r.singleNode.label || r.singleNode.nodeId })}
          </span>
        )}
      </td>
      <td className={`${cell} text-zinc-600`}>
        {/* i18n-exempt: a version tag, "v3" in every language */}
        {r.version === null ? t('draft') : `v${r.version}`}
      </td>
      <td className={`${cell} text-zinc-600`}>{r.engine}</td>
      <td className={`${cell} text-zinc-600`}>
        {t.has(`trigger.${r.trigger}`) ? t(`trigger.${r.trigger}`) : r.trigger}
      </td>
      <td className={`${cell} text-zinc-600`}>
        <time dateTime={r.createdAt} title={r.createdAt}>
          {f.dateTime(r.createdAt)}
        </time>
      </td>
      <td className={`${cell} text-right tabular-nums text-zinc-600`}>{f.duration(r.durationMs)}</td>
      <td
        className={`${cell} text-right tabular-nums text-zinc-600`}
        data-testid="runs-cost"
        title={r.costUsd === null ? t('priceUnknownTitle') : undefined}
      >
        {r.costUsd === undefined ? '' : f.runCost(r.costUsd)}
      </td>
      <td
        className="max-w-[16rem] truncate px-3 py-1.5 font-mono text-[11px] text-zinc-500"
        data-testid="runs-inputs"
        title={inputs}
      >
        {inputsLine(inputs)}
      </td>
      <td className="max-w-[20rem] truncate px-3 py-1.5 text-red-600" title={r.error?.message}>
        {r.error?.message}
      </td>
    </tr>
  );
}
