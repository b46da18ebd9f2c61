'use client';
/** One evaluation: what ran on what, its live progress, then its summary and rows (refreshed until it ends). */
import { useTranslations } from 'next-intl';
import { InlineError } from '../publish/publish-ui';
import type { EvaluationView as Evaluation } from './evaluate-api';
import { EvaluationProgress } from './evaluation-progress';
import { EvaluationRows } from './evaluation-rows';
import { EvaluationSummary } from './evaluation-summary';
import { useEvaluation } from './use-evaluation';

/** "Support cases (dataset v2) on version 3". */
export function useEvaluationTitle() {
  const t = useTranslations('evaluate.results');
  return (ev: Pick<Evaluation, 'datasetName' | 'datasetVersion' | 'version'>) =>
    t('title', {
      dataset: ev.datasetName,
      datasetVersion: ev.datasetVersion,
      version: ev.version === 'draft' ? t('onDraft') : t('onVersion', { version: ev.version }),
    });
}

export function EvaluationView({
  id,
  onEnded,
  onOpenRun,
}: {
  id: string;
  onEnded: (ev: Evaluation) => void;
  onOpenRun: (runId: string) => void;
}) {
  const title = useEvaluationTitle();
  const { evaluation: ev, error, cancel } = useEvaluation(id, onEnded);
  if (!ev) return error ? <InlineError error={error} testId="evaluation-error" /> : null;
  return (
    <div className="space-y-3 p-3" data-testid="evaluation-view" data-evaluation-id={ev.id} data-status={ev.status}>
      <h3 className="truncate text-[13px] font-semibold text-zinc-800" title={ev.id}>
        {title(ev)}
      </h3>
      <EvaluationProgress evaluation={ev} onCancel={() => void cancel()} />
      {error && <InlineError error={error} testId="evaluation-error" />}
      <EvaluationSummary evaluation={ev} />
      <EvaluationRows evaluation={ev} onOpenRun={onOpenRun} />
    </div>
  );
}
