/** A timeline span's facts (status, timing, usage, node, details): the hover tooltip and the detail side panel. */
import { useTranslations } from 'next-intl';
import { tr } from '@/components/lib/i18n';
import { formatDuration } from '@/components/ui/status';
import { barTitle, formatCost, formatTokens, kindChip } from './timeline-labels';
import type { TimelineBar, TimelineModel } from './timeline-model';
import { formatOffset } from './timeline-scale';

function facts(bar: TimelineBar, model: TimelineModel, now: number, origin: number): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['status', tr(`common.status.${bar.status}`)],
    ['starts', formatOffset(bar.start - origin)],
    [
      'duration',
      bar.end === null
        ? tr('run.timeline.soFar', { duration: formatDuration(model.durationOf(bar, now)) })
        : formatDuration(model.durationOf(bar, now)),
    ],
  ];
  const tokens = formatTokens(bar.usage);
  if (tokens) out.push(['tokens', tokens]);
  const cost = formatCost(bar.usage);
  if (cost) out.push(['cost', cost]);
  if (bar.attempt !== undefined && bar.kind !== 'attempt') out.push(['attempt', String(bar.attempt)]);
  if (bar.nodeId) out.push(['node', bar.nodeType ? `${bar.nodeId} (${bar.nodeType})` : bar.nodeId]);
  return [...out, ...bar.details];
}

export function Tooltip({
  bar,
  model,
  now,
  origin,
  x,
  y,
  label,
}: {
  bar: TimelineBar;
  model: TimelineModel;
  now: number;
  origin: number;
  x: number;
  y: number;
  label: (id?: string) => string;
}) {
  const t = useTranslations('run.timeline');
  return (
    <div
      className={
        'pointer-events-none fixed z-50 max-w-xs rounded-md border border-zinc-200 bg-white ' +
        'px-2.5 py-1.5 text-[11px] shadow-lg'
      }
      style={{ left: x + 12, top: y - 10, transform: 'translateY(-100%)' }}
      data-testid="timeline-tooltip"
    >
      <div className="mb-1 flex items-center gap-1.5">
        <span className={`rounded px-1 text-[9px] font-semibold uppercase ${kindChip(bar.kind)}`}>
          {t(`kind.${bar.kind}`)}
        </span>
        <span className="truncate font-medium text-zinc-800">{barTitle(bar, label)}</span>
      </div>
      <FactList facts={facts(bar, model, now, origin).slice(0, 8)} />
      {bar.error && <div className="mt-1 text-red-600">{bar.error}</div>}
    </div>
  );
}

/** The facts as name: value; a name is translated where the messages know it (else it is the model's own word). */
function FactList({ facts: list }: { facts: Array<[string, string]> }) {
  const t = useTranslations('run.timeline.fact');
  const name = (k: string) => (t.has(k.replace(/\s+/g, '-')) ? t(k.replace(/\s+/g, '-')) : k);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
      {list.map(([k, v], i) => (
        <div key={i} className="contents">
          <dt className="text-zinc-400">{name(k)}</dt>
          <dd className="min-w-0 break-words text-zinc-700" data-testid={`timeline-fact-${k.replace(/\s+/g, '-')}`}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function Detail({
  bar,
  model,
  now,
  origin,
  title,
  onClose,
}: {
  bar: TimelineBar;
  model: TimelineModel;
  now: number;
  origin: number;
  title: string;
  onClose: () => void;
}) {
  const t = useTranslations('run.timeline');
  return (
    <aside
      className="w-72 shrink-0 overflow-y-auto border-l border-zinc-200 bg-white px-3 py-2 text-[11px]"
      data-testid="timeline-detail"
      data-bar-id={bar.id}
    >
      <div className="mb-1.5 flex items-center gap-1.5">
        <span className={`rounded px-1 text-[9px] font-semibold uppercase ${kindChip(bar.kind)}`}>
          {t(`kind.${bar.kind}`)}
        </span>
        <span className="min-w-0 flex-1 truncate font-medium text-zinc-800">{title}</span>
        <button type="button" className="text-zinc-400 hover:text-zinc-700" onClick={onClose} aria-label={t('close')}>
          ×
        </button>
      </div>
      <FactList facts={facts(bar, model, now, origin)} />
      {bar.error && (
        <div className="mt-1.5 break-words rounded bg-red-50 px-1.5 py-1 text-red-700" data-testid="timeline-error">
          {bar.error}
        </div>
      )}
    </aside>
  );
}
