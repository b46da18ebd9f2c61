/** The Timeline chart's time axis: the header row of tick labels (offsets from the run's start) and the grid lines. */
import { useTranslations } from 'next-intl';
import { formatOffset, ticks, type TimeView } from './timeline-scale';
import { LABEL_W } from './timeline-view';

export function TimelineAxis({
  view,
  chartW,
  origin,
  axisRef,
}: {
  view: TimeView;
  chartW: number;
  /** Epoch ms the offsets count from. */
  origin: number;
  /** The tick strip, for the zoom-on-wheel listener. */
  axisRef: React.RefObject<HTMLDivElement | null>;
}) {
  const t = useTranslations('run.timeline');
  const axis = ticks(view, chartW, origin);
  return (
    <>
      <div className="flex h-5 shrink-0 border-b border-zinc-200 text-[10px] text-zinc-400">
        <div className="shrink-0 px-3 leading-5" style={{ width: LABEL_W }}>
          {t('span')}
        </div>
        <div ref={axisRef} className="relative min-w-0 flex-1 overflow-hidden" data-testid="timeline-axis">
          {axis.map((t) => (
            <span key={t.offsetMs} className="absolute top-0 pl-1 leading-5 tabular-nums" style={{ left: t.x }}>
              {formatOffset(t.offsetMs)}
            </span>
          ))}
        </div>
      </div>
      <div className="pointer-events-none absolute bottom-0 top-5" style={{ left: LABEL_W, right: 0 }}>
        {axis.map((t) => (
          <div key={t.offsetMs} className="absolute bottom-0 top-0 w-px bg-zinc-100" style={{ left: t.x }} />
        ))}
      </div>
    </>
  );
}
