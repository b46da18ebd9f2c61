'use client';
/** An evaluation's summary: per scorer the mean score and the share of rows that passed; the cost, p50 and p95. */
import { useTranslations } from 'next-intl';
import { formatUsd } from '../run/run-cost';
import type { EvaluationView } from './evaluate-api';
import { formatMs, formatPercent, formatScore } from './format';

const FACTS = 'grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 rounded-md border border-zinc-200 bg-white px-3 py-1.5';

type ScorerSummary = { mean: number | null; passRate: number | null };

const scorerSummary = (ev: EvaluationView, name: string): ScorerSummary => {
  const s = ev.summary[name];
  return s && typeof s === 'object' ? s : { mean: null, passRate: null };
};
const numberOf = (ev: EvaluationView, key: string) => {
  const n = ev.summary[key];
  return typeof n === 'number' ? n : null;
};

export function EvaluationSummary({ evaluation: ev }: { evaluation: EvaluationView }) {
  const t = useTranslations('evaluate.results');
  const unknownCost = numberOf(ev, 'unknownCostRows') ?? 0;
  const facts: Array<[string, string, string]> = [
    ['summary-cost', t('cost'), formatUsd(numberOf(ev, 'costUsd') ?? 0)],
    ['summary-p50', t('p50'), formatMs(numberOf(ev, 'p50Ms'))],
    ['summary-p95', t('p95'), formatMs(numberOf(ev, 'p95Ms'))],
  ];
  return (
    <div className="flex flex-wrap items-start gap-2" data-testid="evaluation-summary">
      {ev.scorers.map((s) => {
        const sum = scorerSummary(ev, s.name);
        return (
          <div
            key={s.name}
            className="min-w-36 rounded-md border border-zinc-200 bg-white px-3 py-1.5"
            data-testid="summary-scorer"
            data-name={s.name}
            data-mean={sum.mean ?? ''}
          >
            <div className="truncate text-[11px] font-medium text-zinc-600" title={`${s.name} · ${s.type}`}>
              {s.name} <span className="font-mono text-[10px] text-zinc-400">{s.type}</span>
            </div>
            <div className="flex items-baseline gap-3">
              <span className="text-[18px] font-semibold tabular-nums text-zinc-900" data-testid="summary-mean">
                {formatPercent(sum.mean)}
              </span>
              <span className="text-[11px] text-zinc-500">
                {t('mean')} {formatScore(sum.mean)}
              </span>
            </div>
            <div className="text-[11px] text-zinc-500" data-testid="summary-pass-rate">
              {t('passRate')} {formatPercent(sum.passRate)}
            </div>
          </div>
        );
      })}
      <dl className={FACTS}>
        {facts.map(([testId, label, value]) => (
          <div key={testId} className="contents">
            <dt className="text-[11px] text-zinc-500">{label}</dt>
            <dd className="text-right text-[11px] tabular-nums text-zinc-800" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {unknownCost > 0 && <p className="text-[11px] text-amber-700">{t('unknownCost', { count: unknownCost })}</p>}
    </div>
  );
}
