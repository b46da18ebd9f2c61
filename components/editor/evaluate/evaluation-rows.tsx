'use client';
/**
 * The rows of an evaluation: inputs, outputs, expectation, each scorer's score (its reason on hover; a row opened
 * with a click writes the reasons out) and a button that opens the row's run in the trace, as the run history does.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { EvaluationRow, EvaluationView } from './evaluate-api';
import { RowValue, scoredFields } from './row-value';
import { ScoreCell } from './score-cell';

const failed = (r: EvaluationRow) => r.status === 'failed' || Object.values(r.scores).some((s) => !s.passed);

export function EvaluationRows({
  evaluation: ev,
  onOpenRun,
}: {
  evaluation: EvaluationView;
  onOpenRun: (runId: string) => void;
}) {
  const t = useTranslations('evaluate.results');
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const rows = (ev.rows ?? []).filter((r) => !onlyFailed || failed(r));
  const names = ev.scorers.map((s) => s.name);
  const fields = scoredFields(ev.scorers);
  const toggle = (i: number) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(i)) next.add(i);
      return next;
    });
  const cell = 'border-b border-zinc-100 px-2 py-1 align-top';
  return (
    <div data-testid="evaluation-rows">
      <div className="mb-1 flex items-center gap-3">
        <h4 className="text-[10px] font-semibold uppercase tracking-wider text-zinc-500">{t('rows')}</h4>
        <label className="flex items-center gap-1 text-[11px] text-zinc-600">
          <input
            type="checkbox"
            checked={onlyFailed}
            onChange={(e) => setOnlyFailed(e.target.checked)}
            data-testid="evaluation-only-failed"
          />
          {t('onlyFailed')}
        </label>
      </div>
      {!rows.length && <p className="text-[12px] text-zinc-500">{t('noRows')}</p>}
      {rows.length > 0 && (
        <table className="w-full table-fixed border-collapse text-left text-[12px]">
          <thead>
            <tr className="text-[10px] uppercase tracking-wide text-zinc-500">
              <th className="w-8 px-2 py-1">{t('index')}</th>
              <th className="w-[26%] px-2 py-1">{t('inputs')}</th>
              <th className="px-2 py-1">{t('outputs')}</th>
              <th className="w-[20%] px-2 py-1">{t('expected')}</th>
              {names.map((n) => (
                <th key={n} className="w-28 truncate px-2 py-1 normal-case" title={n}>
                  {n}
                </th>
              ))}
              <th className="w-12 px-2 py-1">{t('run')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const expanded = open.has(r.index);
              return (
                <tr
                  key={r.index}
                  className={`cursor-pointer hover:bg-zinc-50 ${failed(r) ? 'bg-red-50/30' : ''}`}
                  data-testid="evaluation-row"
                  data-index={r.index}
                  data-failed={failed(r)}
                  aria-expanded={expanded}
                  onClick={() => toggle(r.index)}
                >
                  <td className={`${cell} tabular-nums text-zinc-500`}>{r.index + 1}</td>
                  <td className={cell}>
                    <RowValue value={r.inputs} expanded={expanded} />
                  </td>
                  <td className={cell}>
                    {r.error ? (
                      <div className={`text-[11px] text-red-600 ${expanded ? 'break-words' : 'truncate'}`}>
                        {t('runFailed', { message: r.error.message })}
                      </div>
                    ) : (
                      <RowValue value={r.outputs} first={fields} expanded={expanded} testId="row-outputs" />
                    )}
                  </td>
                  <td className={cell}>
                    <RowValue value={r.expected} first={fields} expanded={expanded} />
                  </td>
                  {names.map((n) => (
                    <td key={n} className={cell}>
                      <ScoreCell name={n} score={r.scores[n]} showReason={expanded} />
                    </td>
                  ))}
                  <td className={cell}>
                    {r.runId && (
                      <button
                        type="button"
                        className="text-[11px] font-medium text-indigo-700 hover:underline"
                        aria-label={t('openRunLabel', { index: r.index + 1 })}
                        data-testid="evaluation-open-run"
                        onClick={(e) => {
                          e.stopPropagation();
                          onOpenRun(r.runId!);
                        }}
                      >
                        {t('openRun')}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
