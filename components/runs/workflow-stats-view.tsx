'use client';
/**
 * A workflow's dashboard (`/workflows/:id/stats`): runs per day by outcome, success rate, p50/p95 duration, tokens
 * (and cost once nodes report one) over the chosen days, and the slowest and most failing nodes. Numbers come from
 * GET /api/workflows/:id/stats; the charts are recharts.
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { api, errorMessage } from '@/components/api/client';
import { TopBar } from '@/components/ui/top-bar';
import { selectCls } from './run-filters';
import { useRunFormat } from './run-format';
import { runsApi, type WorkflowStats } from './runs-api';
import {
  DurationChart,
  NodeP95Chart,
  RunsPerDayChart,
  SuccessRateChart,
  TokensChart,
  type DayPoint,
} from './stats-charts';

const DAY_OPTIONS = [7, 30, 90];

function Card({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-4 py-3" data-testid={testId}>
      <div className="text-[11px] uppercase tracking-wide text-zinc-500">{label}</div>
      <div className="mt-1 text-xl font-semibold tabular-nums text-zinc-900">{value}</div>
    </div>
  );
}

function Panel({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-4" data-testid={testId}>
      <h2 className="mb-3 text-sm font-semibold text-zinc-800">{title}</h2>
      {children}
    </section>
  );
}

export function WorkflowStatsView({ workflowId }: { workflowId: string }) {
  const t = useTranslations('runs.stats');
  const tf = useTranslations('runs.format');
  const f = useRunFormat();
  const [days, setDays] = useState(30);
  const [name, setName] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<{ days: number; stats: WorkflowStats | null; error: string | null } | null>(
    null,
  );

  useEffect(() => {
    api.getWorkflow(workflowId).then(
      (w) => setName(w.name),
      () => setName(null),
    );
  }, [workflowId]);

  useEffect(() => {
    let live = true;
    const to = new Date();
    const from = new Date(to.getTime() - days * 86_400_000);
    runsApi.stats(workflowId, from.toISOString(), to.toISOString()).then(
      (stats) => live && setLoaded({ days, stats, error: null }),
      (e) => live && setLoaded({ days, stats: null, error: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [workflowId, days]);

  const current = loaded?.days === days ? loaded : null;
  const stats = current?.stats ?? null;
  const points: DayPoint[] = (stats?.perDay ?? []).map((d) => ({
    ...d,
    other: d.runs - d.succeeded - d.failed,
    successRate: d.succeeded + d.failed ? d.succeeded / (d.succeeded + d.failed) : null,
  }));
  const hasCost = !!stats && stats.totals.costUsd !== null;

  return (
    <div className="flex min-h-screen flex-col bg-zinc-50">
      <TopBar>
        <span className="text-zinc-600">/</span>
        <Link href={`/workflows/${encodeURIComponent(workflowId)}`} className="truncate text-sm hover:text-white">
          {name ?? workflowId}
        </Link>
        <span className="text-zinc-600">/</span>
        <span className="text-sm font-medium">{t('dashboard')}</span>
      </TopBar>
      <main className="mx-auto w-full max-w-7xl flex-1 space-y-4 p-6" data-testid="workflow-stats">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="flex-1 text-lg font-semibold text-zinc-900">
            {t('heading', { name: name ?? t('workflowFallback') })}
          </h1>
          <Link
            href={`/runs?workflowId=${encodeURIComponent(workflowId)}`}
            className="text-sm font-medium text-indigo-600 hover:text-indigo-500"
            data-testid="stats-runs-link"
          >
            {t('allRunsLink')}
          </Link>
          <select
            aria-label={t('days')}
            className={selectCls}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            data-testid="stats-days"
          >
            {DAY_OPTIONS.map((d) => (
              <option key={d} value={d}>
                {t('lastDays', { count: d })}
              </option>
            ))}
          </select>
        </div>
        {current?.error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {current.error}
          </p>
        )}
        {!current && <p className="text-sm text-zinc-500">{t('loading')}</p>}
        {stats && (
          <>
            <div className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6">
              <Card label={t('cards.runs')} value={f.count(stats.totals.runs)} testId="stat-runs" />
              <Card label={t('cards.successRate')} value={f.percent(stats.totals.successRate)} testId="stat-success" />
              <Card label={t('cards.p50')} value={f.duration(stats.totals.p50Ms) || tf('none')} testId="stat-p50" />
              <Card label={t('cards.p95')} value={f.duration(stats.totals.p95Ms) || tf('none')} testId="stat-p95" />
              <Card
                label={t('cards.tokens')}
                value={t('cards.tokensValue', {
                  input: f.count(stats.totals.inputTokens),
                  output: f.count(stats.totals.outputTokens),
                })}
                testId="stat-tokens"
              />
              <Card label={t('cards.cost')} value={f.totalCost(stats.totals.costUsd)} testId="stat-cost" />
            </div>
            <div className="grid gap-4 lg:grid-cols-2">
              <Panel title={t('panels.runsPerDay')} testId="chart-runs">
                <RunsPerDayChart data={points} />
              </Panel>
              <Panel title={t('panels.successRate')} testId="chart-success">
                <SuccessRateChart data={points} />
              </Panel>
              <Panel title={t('panels.duration')} testId="chart-duration">
                <DurationChart data={points} />
              </Panel>
              <Panel title={hasCost ? t('panels.tokensAndCost') : t('panels.tokens')} testId="chart-tokens">
                <TokensChart data={points} withCost={hasCost} />
              </Panel>
            </div>
            <div className="grid gap-4 lg:grid-cols-2">
              <Panel title={t('panels.slowest')} testId="slowest-nodes">
                {stats.slowestNodes.length ? (
                  <NodeP95Chart nodes={stats.slowestNodes} />
                ) : (
                  <p className="text-sm text-zinc-500">{t('noSlowest')}</p>
                )}
              </Panel>
              <Panel title={t('panels.failing')} testId="failing-nodes">
                {stats.failingNodes.length ? (
                  <table className="w-full text-left text-[13px]">
                    <thead className="text-[11px] uppercase tracking-wide text-zinc-500">
                      <tr>
                        <th className="py-1 pr-3 font-medium">{t('columns.node')}</th>
                        <th className="py-1 pr-3 font-medium">{t('columns.type')}</th>
                        <th className="py-1 pr-3 text-right font-medium">{t('columns.failures')}</th>
                        <th className="py-1 font-medium">{t('columns.lastError')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {stats.failingNodes.map((n) => (
                        <tr key={`${n.nodeId}:${n.type}`} className="border-t border-zinc-100 align-top">
                          <td className="py-1.5 pr-3 font-mono text-[12px]">{n.nodeId}</td>
                          <td className="py-1.5 pr-3 text-zinc-600">{n.type}</td>
                          <td className="py-1.5 pr-3 text-right tabular-nums">{f.count(n.failures)}</td>
                          <td className="max-w-[18rem] truncate py-1.5 text-red-600" title={n.lastError?.message}>
                            {n.lastError?.message}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p className="text-sm text-zinc-500">{t('noFailing')}</p>
                )}
              </Panel>
            </div>
          </>
        )}
      </main>
    </div>
  );
}
