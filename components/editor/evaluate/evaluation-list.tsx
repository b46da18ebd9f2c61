'use client';
/**
 * This workflow's past evaluations, newest first (GET /api/workflows/:id/evaluations): open one with a click, tick
 * two and Compare them. The first of the two ticked is A (the earlier one), the second B.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/ui/status';
import type { EvaluationView } from './evaluate-api';
import { formatPercent } from './format';

/** The first scorer's mean: the one number a list row has room for. */
function headline(ev: EvaluationView): string {
  const first = ev.scorers[0]?.name;
  const s = first ? ev.summary[first] : null;
  return s && typeof s === 'object' ? formatPercent(s.mean) : '';
}

export function EvaluationList({
  evaluations,
  openId,
  picked,
  onOpen,
  onPick,
  onNew,
  onCompare,
}: {
  evaluations: EvaluationView[] | null;
  openId: string | null;
  picked: string[];
  onOpen: (id: string) => void;
  onPick: (id: string, on: boolean) => void;
  onNew: () => void;
  onCompare: () => void;
}) {
  const t = useTranslations('evaluate.sidebar');
  const format = useFormatter();
  return (
    <aside className="flex w-56 shrink-0 flex-col border-r border-zinc-200 bg-zinc-50" data-testid="evaluation-list">
      <div className="flex items-center gap-1 border-b border-zinc-200 px-2 py-1.5">
        <span className="min-w-0 flex-1 truncate text-[11px] font-semibold uppercase tracking-wide text-zinc-500">
          {t('heading')}
        </span>
        <Button size="sm" variant="ghost" onClick={onNew} data-testid="evaluate-new">
          {t('new')}
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {evaluations?.length === 0 && <p className="p-3 text-[11px] text-zinc-500">{t('empty')}</p>}
        {evaluations?.map((ev) => (
          <div
            key={ev.id}
            className={
              'flex items-center gap-1.5 border-b border-zinc-100 px-2 py-1 text-[11px] ' +
              (ev.id === openId ? 'bg-indigo-50' : 'hover:bg-white')
            }
            data-testid="evaluation-item"
            data-evaluation-id={ev.id}
            data-status={ev.status}
          >
            <input
              type="checkbox"
              aria-label={t('pick')}
              checked={picked.includes(ev.id)}
              onChange={(e) => onPick(ev.id, e.target.checked)}
              data-testid="evaluation-pick"
            />
            <button type="button" className="min-w-0 flex-1 text-left" onClick={() => onOpen(ev.id)}>
              <div className="flex items-center gap-1.5">
                <StatusBadge status={ev.status} />
                <span className="font-semibold tabular-nums text-zinc-800">{headline(ev)}</span>
                <span className="ml-auto shrink-0 text-zinc-500">
                  {ev.version === 'draft' ? t('draft') : t('version', { version: ev.version })}
                </span>
              </div>
              <div className="truncate text-zinc-500" title={ev.datasetName}>
                {ev.datasetName}
              </div>
              <div className="text-[10px] text-zinc-400">
                {format.dateTime(new Date(ev.createdAt), { dateStyle: 'short', timeStyle: 'medium' })}
              </div>
            </button>
          </div>
        ))}
      </div>
      <div className="border-t border-zinc-200 px-2 py-1.5">
        <Button
          size="sm"
          variant="secondary"
          className="w-full"
          disabled={picked.length !== 2}
          title={picked.length !== 2 ? t('compareHint') : undefined}
          onClick={onCompare}
          data-testid="evaluate-compare"
        >
          {t('compare')}
        </Button>
      </div>
    </aside>
  );
}
