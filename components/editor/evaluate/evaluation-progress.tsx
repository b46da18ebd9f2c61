'use client';
/** An evaluation's status and how far it got: a bar of rows done of all, how many run now, and Cancel while it runs. */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/ui/status';
import { isActive, type EvaluationView } from './evaluate-api';

export function EvaluationProgress({ evaluation: ev, onCancel }: { evaluation: EvaluationView; onCancel: () => void }) {
  const t = useTranslations('evaluate.progress');
  const [cancelling, setCancelling] = useState(false);
  const { done, total, running } = ev.progress;
  const active = isActive(ev.status);
  const share = total ? done / total : 0;
  const bar = ev.status === 'failed' ? 'bg-red-500' : ev.status === 'cancelled' ? 'bg-zinc-400' : 'bg-indigo-500';
  return (
    <div
      className="flex items-center gap-3"
      data-testid="evaluation-progress"
      data-status={ev.status}
      data-done={done}
      data-total={total}
    >
      <StatusBadge status={ev.status} testId="evaluation-status" />
      <div
        className="h-2 w-48 overflow-hidden rounded-full bg-zinc-200"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-label={t('rows', { done, total })}
      >
        <div
          className={`h-full rounded-full transition-[width] ${bar}`}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </div>
      <span className="text-[11px] tabular-nums text-zinc-600" data-testid="evaluation-rows-done">
        {t('rows', { done, total })}
      </span>
      {active && running > 0 && <span className="text-[11px] text-zinc-500">{t('running', { count: running })}</span>}
      {ev.error && (
        <span className="min-w-0 flex-1 truncate text-[11px] text-red-600" title={ev.error.message}>
          {t('error', { message: ev.error.message })}
        </span>
      )}
      {active && (
        <Button
          size="sm"
          variant="secondary"
          className="ml-auto"
          disabled={cancelling}
          data-testid="evaluation-cancel"
          onClick={() => {
            setCancelling(true);
            onCancel();
          }}
        >
          {cancelling ? t('cancelling') : t('cancel')}
        </Button>
      )}
    </div>
  );
}
