'use client';
/** One scorer's score of one row: the score with passed / failed, and its reason (on hover, or written out). */
import { useTranslations } from 'next-intl';
import { formatScore } from './format';

export type Score = { score: number; passed: boolean; reason?: string };

export function ScoreCell({ name, score, showReason }: { name: string; score?: Score; showReason: boolean }) {
  const t = useTranslations('evaluate.results');
  if (!score) return <span className="text-[11px] text-zinc-400">{t('pending')}</span>;
  return (
    <div
      className="min-w-0"
      data-testid="row-score"
      data-scorer={name}
      data-passed={score.passed}
      title={score.reason ? `${name}: ${score.reason}` : name}
    >
      <span
        className={
          'inline-flex items-center gap-1 rounded px-1.5 text-[11px] font-medium ' +
          (score.passed ? 'bg-emerald-50 text-emerald-700' : 'bg-red-50 text-red-700')
        }
      >
        {score.passed ? '✓' : '✗'} {score.passed ? t('passed') : t('failed')}
      </span>
      <span className="ml-1 text-[11px] tabular-nums text-zinc-500">{formatScore(score.score)}</span>
      {showReason && score.reason && (
        <p className="mt-0.5 whitespace-pre-wrap break-words text-[11px] text-zinc-600" data-testid="row-reason">
          {score.reason}
        </p>
      )}
    </div>
  );
}
