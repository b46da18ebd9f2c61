'use client';
/**
 * Two evaluations side by side (GET /api/evaluations/compare?a=&b=): per scorer A's and B's mean and the change;
 * per row better / worse / same / added / removed with both sides' outputs and scores, changed rows first (the API
 * orders them so).
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { errorMessage } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { InlineError } from '../publish/publish-ui';
import { evaluateApi, type ComparedRow, type Comparison } from './evaluate-api';
import { useEvaluationTitle } from './evaluation-view';
import { formatDiff, formatPercent } from './format';
import { RowValue, scoredFields } from './row-value';
import { ScoreCell } from './score-cell';

const CHANGE_TONE: Record<ComparedRow['change'], string> = {
  better: 'bg-emerald-50 text-emerald-700',
  worse: 'bg-red-50 text-red-700',
  same: 'bg-zinc-100 text-zinc-600',
  added: 'bg-sky-50 text-sky-700',
  removed: 'bg-amber-50 text-amber-700',
};

export function ComparisonView({ a, b, onClose }: { a: string; b: string; onClose: () => void }) {
  const t = useTranslations('evaluate.compare');
  const title = useEvaluationTitle();
  const format = useFormatter();
  // Two evaluations of the same dataset and version differ by when they ran: that comes first.
  const label = (ev: Comparison['a']) =>
    `${format.dateTime(new Date(ev.createdAt), { dateStyle: 'short', timeStyle: 'medium' })} · ${title(ev)}`;
  const [result, setResult] = useState<{ key: string; value?: Comparison; error?: string } | null>(null);
  useEffect(() => {
    let live = true;
    evaluateApi.compare(a, b).then(
      (value) => live && setResult({ key: `${a}:${b}`, value }),
      (e) => live && setResult({ key: `${a}:${b}`, error: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [a, b]);
  const shown = result?.key === `${a}:${b}` ? result : null;
  if (shown?.error) return <InlineError error={shown.error} testId="comparison-error" />;
  const c = shown?.value;
  if (!c) return null;
  const names = Object.keys(c.scorers);
  return (
    <div className="space-y-3 p-3" data-testid="comparison-view">
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1 text-[12px] text-zinc-700">
          <h3 className="text-[13px] font-semibold text-zinc-800">{t('heading')}</h3>
          <div className="truncate" data-testid="comparison-a" title={c.a.id}>
            {t('aOf', { label: label(c.a) })}
          </div>
          <div className="truncate" data-testid="comparison-b" title={c.b.id}>
            {t('bOf', { label: label(c.b) })}
          </div>
        </div>
        <Button size="sm" variant="ghost" onClick={onClose} data-testid="comparison-close">
          {t('close')}
        </Button>
      </div>
      <table className="border-collapse text-left text-[12px]" data-testid="comparison-scorers">
        <thead>
          <tr className="text-[10px] uppercase tracking-wide text-zinc-500">
            <th className="px-2 py-1">{t('scorer')}</th>
            <th className="px-2 py-1 text-right">{t('a')}</th>
            <th className="px-2 py-1 text-right">{t('b')}</th>
            <th className="px-2 py-1 text-right">{t('diff')}</th>
          </tr>
        </thead>
        <tbody>
          {names.map((n) => {
            const s = c.scorers[n];
            const tone =
              s.diff === null || s.diff === 0 ? 'text-zinc-600' : s.diff > 0 ? 'text-emerald-700' : 'text-red-700';
            return (
              <tr key={n} data-testid="comparison-scorer" data-name={n} data-diff={s.diff ?? ''}>
                <td className="border-t border-zinc-100 px-2 py-1 font-medium">{n}</td>
                <td className="border-t border-zinc-100 px-2 py-1 text-right tabular-nums">{formatPercent(s.a)}</td>
                <td className="border-t border-zinc-100 px-2 py-1 text-right tabular-nums">{formatPercent(s.b)}</td>
                <td className={`border-t border-zinc-100 px-2 py-1 text-right font-medium tabular-nums ${tone}`}>
                  {formatDiff(s.diff)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="text-[11px] text-zinc-600" data-testid="comparison-counts">
        {t('counts', c.counts)}
      </p>
      <ComparedRows rows={c.rows} names={names} fields={scoredFields([...c.a.scorers, ...c.b.scorers])} />
    </div>
  );
}

function ComparedRows({ rows, names, fields }: { rows: ComparedRow[]; names: string[]; fields: string[] }) {
  const t = useTranslations('evaluate.compare');
  const tResults = useTranslations('evaluate.results');
  const cell = 'border-b border-zinc-100 px-2 py-1 align-top';
  const side = (r: ComparedRow['a']) => (
    <>
      <RowValue value={r?.outputs} first={fields} expanded={false} />
      <div className="mt-0.5 flex flex-wrap gap-1">
        {r && names.map((n) => <ScoreCell key={n} name={n} score={r.scores[n]} showReason={false} />)}
      </div>
    </>
  );
  return (
    <table className="w-full table-fixed border-collapse text-left text-[12px]" data-testid="comparison-rows">
      <thead>
        <tr className="text-[10px] uppercase tracking-wide text-zinc-500">
          <th className="w-20 px-2 py-1">{t('change')}</th>
          <th className="w-[20%] px-2 py-1">{tResults('inputs')}</th>
          <th className="w-[18%] px-2 py-1">{tResults('expected')}</th>
          <th className="px-2 py-1">{t('outputsA')}</th>
          <th className="px-2 py-1">{t('outputsB')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.change}:${r.index}`} data-testid="comparison-row" data-change={r.change} data-index={r.index}>
            <td className={cell}>
              <span className={`rounded px-1.5 text-[11px] font-medium ${CHANGE_TONE[r.change]}`}>
                {t(`changes.${r.change}`)}
              </span>
            </td>
            <td className={cell}>
              <RowValue value={r.inputs} expanded={false} />
            </td>
            <td className={cell}>
              <RowValue value={r.expected} first={fields} expanded={false} />
            </td>
            <td className={cell}>{side(r.a)}</td>
            <td className={cell}>{side(r.b)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
