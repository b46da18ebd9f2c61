/**
 * The Timeline chart's rows: the scroll area and its virtualised list (only the rows in view, plus a margin, are in
 * the DOM), and one row — the span's tree toggle, kind chip and title, then its bar and duration on the time scale.
 */
import { useTranslations } from 'next-intl';
import { memo, useMemo, useState } from 'react';
import { formatDuration } from '@/components/ui/status';
import { barFill, barTitle, kindChip } from './timeline-labels';
import type { TimelineBar, TimelineModel, TimelineRow } from './timeline-model';
import type { TimeView } from './timeline-scale';
import { LABEL_W } from './timeline-view';

const ROW_H = 22;
const OVERSCAN = 8;
const WAIT_STRIPES = 'repeating-linear-gradient(135deg, rgba(255,255,255,.55) 0 4px, transparent 4px 8px)';

/** The bar under the pointer, and where the pointer is (client px), for the tooltip. */
export type Hover = { id: string; x: number; y: number };

export function TimelineRows({
  scrollRef,
  pointer,
  height,
  rows,
  live,
  model,
  view,
  chartW,
  now,
  label,
  collapsed,
  selected,
  selectedIds,
  onToggle,
  onChoose,
  onHover,
}: {
  scrollRef: React.RefObject<HTMLDivElement | null>;
  /** The drag-to-pan handlers. */
  pointer: Pick<
    React.DOMAttributes<HTMLDivElement>,
    'onPointerDown' | 'onPointerMove' | 'onPointerUp' | 'onPointerCancel'
  >;
  /** The scroll area's height (px). */
  height: number;
  rows: TimelineRow[];
  live: boolean;
  model: TimelineModel;
  view: TimeView;
  chartW: number;
  now: number;
  label: (id?: string) => string;
  collapsed: ReadonlySet<string>;
  /** The bar shown in the detail panel. */
  selected: string | null;
  /** The nodes selected on the canvas. */
  selectedIds: readonly string[];
  onToggle: (id: string) => void;
  onChoose: (bar: TimelineBar) => void;
  onHover: (h: Hover | null) => void;
}) {
  const t = useTranslations('run.timeline');
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_H) + OVERSCAN);
  const selectedSet = useMemo(() => new Set(selectedIds), [selectedIds]);
  return (
    <div
      ref={scrollRef}
      className="relative min-h-0 flex-1 select-none overflow-y-auto overflow-x-hidden"
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      {...pointer}
      data-testid="timeline-rows"
    >
      {rows.length === 0 && (
        <div className="p-4 text-[12px] text-zinc-500">{live ? t('waitingSpans') : t('noSpans')}</div>
      )}
      <div className="relative" style={{ height: rows.length * ROW_H }}>
        {rows.slice(first, last).map((row, i) => (
          <Row
            key={row.bar.id}
            row={row}
            top={(first + i) * ROW_H}
            model={model}
            view={view}
            chartW={chartW}
            now={now}
            title={barTitle(row.bar, label)}
            collapsed={collapsed.has(row.bar.id)}
            selected={selected === row.bar.id}
            onCanvas={!!row.bar.nodeId && selectedSet.has(row.bar.nodeId)}
            onToggle={onToggle}
            onChoose={onChoose}
            onHover={onHover}
          />
        ))}
      </div>
    </div>
  );
}

const Row = memo(function Row({
  row,
  top,
  model,
  view,
  chartW,
  now,
  title,
  collapsed,
  selected,
  onCanvas,
  onToggle,
  onChoose,
  onHover,
}: {
  row: TimelineRow;
  top: number;
  model: TimelineModel;
  view: TimeView;
  chartW: number;
  now: number;
  title: string;
  collapsed: boolean;
  selected: boolean;
  onCanvas: boolean;
  onToggle: (id: string) => void;
  onChoose: (bar: TimelineBar) => void;
  onHover: (h: Hover | null) => void;
}) {
  const t = useTranslations('run.timeline');
  const { bar, depth, hasChildren } = row;
  const x0 = (bar.start - view.start) * view.pxPerMs;
  const x1 = (model.endOf(bar, now) - view.start) * view.pxPerMs;
  const minW = bar.status === 'skipped' ? 6 : 3;
  const left = Math.max(x0, -8);
  const right = Math.min(Math.max(x1, x0 + minW), chartW + 8);
  const shown = right > -4 && left < chartW + 4;
  const duration = model.durationOf(bar, now);
  // The duration goes after the bar, else inside it (a long bar at the right edge), else before it.
  const place = right + 56 <= chartW ? 'right' : right - left >= 56 ? 'inside' : 'left';
  const hoverAt = (e: React.MouseEvent) => onHover({ id: bar.id, x: e.clientX, y: e.clientY });
  return (
    <div
      className={
        'absolute left-0 right-0 flex items-center border-b border-zinc-50 text-[11px] ' +
        (selected ? 'bg-blue-50' : onCanvas ? 'bg-indigo-50/60' : 'hover:bg-zinc-50')
      }
      style={{ top, height: ROW_H }}
      data-testid="timeline-row"
      data-bar-id={bar.id}
      data-kind={bar.kind}
      data-node-id={bar.nodeId}
      data-status={bar.status}
    >
      <div
        className="flex shrink-0 items-center gap-1 overflow-hidden pr-2"
        style={{ width: LABEL_W, paddingLeft: 6 + depth * 12 }}
      >
        <button
          type="button"
          className={`w-3 shrink-0 text-zinc-400 ${hasChildren ? '' : 'invisible'}`}
          onClick={() => onToggle(bar.id)}
          data-testid="timeline-toggle"
          aria-label={collapsed ? t('expand') : t('collapse')}
          aria-expanded={!collapsed}
        >
          <span className={`inline-block transition-transform ${collapsed ? '' : 'rotate-90'}`}>›</span>
        </button>
        <span className={`shrink-0 rounded px-1 text-[9px] font-semibold uppercase ${kindChip(bar.kind)}`}>
          {t(`kind.${bar.kind}`)}
        </span>
        <button
          type="button"
          className="min-w-0 truncate text-left text-zinc-800 hover:underline"
          onClick={() => onChoose(bar)}
          title={title}
        >
          {title}
        </button>
      </div>
      <div className="relative h-full min-w-0 flex-1 overflow-hidden">
        {shown && (
          <>
            <div
              role="button"
              tabIndex={-1}
              className={
                `absolute top-[5px] h-3 cursor-pointer rounded-sm ${barFill(bar)} ` +
                (selected ? 'ring-2 ring-blue-600 ring-offset-1' : '')
              }
              style={{
                left,
                width: right - left,
                backgroundImage: bar.kind === 'wait' ? WAIT_STRIPES : undefined,
              }}
              onClick={() => onChoose(bar)}
              onMouseEnter={hoverAt}
              onMouseMove={hoverAt}
              onMouseLeave={() => onHover(null)}
              data-testid="timeline-bar"
              data-bar-id={bar.id}
              data-kind={bar.kind}
              data-node-id={bar.nodeId}
              data-status={bar.status}
              data-duration-ms={Math.round(duration)}
            />
            <span
              className={
                'pointer-events-none absolute top-[3px] whitespace-nowrap text-[10px] tabular-nums ' +
                (place === 'inside' ? 'pr-1 text-white' : 'text-zinc-500')
              }
              style={
                place === 'right'
                  ? { left: right + 4 }
                  : place === 'inside'
                    ? { right: chartW - right }
                    : { right: chartW - left + 4 }
              }
            >
              {formatDuration(duration)}
            </span>
          </>
        )}
      </div>
    </div>
  );
});
