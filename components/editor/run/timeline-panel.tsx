'use client';
/**
 * The Timeline tab: the shown run's spans as a Gantt chart (timeline-model.ts builds the bars). Rows are
 * virtualised — only the rows in view are in the DOM — so a run with thousands of spans stays cheap, and a live run
 * re-renders once per frame of events (the run store batches them), not once per event. Ctrl/⌘ + wheel (or a pinch,
 * or the wheel over the axis) zooms around the pointer, Shift + wheel or a drag pans, Fit follows the whole run.
 * Clicking a bar selects its node on the canvas and shows the span's details beside the chart.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { formatDuration } from '@/components/ui/status';
import { useEditorContext, useEditorState, useRunState } from '../editor-context';
import type { EditorState } from '../editor-store';
import type { RunState } from './run-store';
import { TimelineFeed } from './timeline-feed';
import { barFill, barTitle, formatCost, formatTokens, KIND_LABEL, kindChip } from './timeline-labels';
import type { TimelineBar, TimelineModel, TimelineRow } from './timeline-model';
import { fitView, formatOffset, panView, ticks, type TimeView, zoomView } from './timeline-scale';

const ROW_H = 22;
const LABEL_W = 260;
const OVERSCAN = 8;
const WAIT_STRIPES = 'repeating-linear-gradient(135deg, rgba(255,255,255,.55) 0 4px, transparent 4px 8px)';

const selectRunId = (s: RunState) => s.runId;
const selectStatus = (s: RunState) => s.status;
const selectSelected = (s: EditorState) => s.selectedIds;

export function TimelinePanel() {
  const runId = useRunState(selectRunId);
  if (!runId) {
    return (
      <div className="p-6 text-center text-sm text-zinc-500" data-testid="timeline-empty">
        No run yet. Press <b>Run</b>, or open a past run from <b>Runs</b>, to see its timeline.
      </div>
    );
  }
  // Keyed by run: zoom, collapsed rows and the selection start afresh for another run.
  return <Timeline key={runId} runId={runId} />;
}

function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [live]);
  return now;
}

function useSize(ref: React.RefObject<HTMLElement | null>) {
  const [size, setSize] = useState({ width: 900, height: 200 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ width: el.clientWidth, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

function Timeline({ runId }: { runId: string }) {
  const { editor, runs } = useEditorContext();
  const feed = useMemo(() => new TimelineFeed(runs), [runs]);
  const version = useSyncExternalStore(feed.subscribe, feed.snapshot, feed.snapshot);
  const model = feed.model;
  const status = useRunState(selectStatus);
  const selectedIds = useEditorState(selectSelected);
  const live = status === 'running' || status === 'queued' || status === 'waiting';
  const now = useNow(live);

  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [manualView, setManualView] = useState<TimeView | null>(null); // null: fit (and follow a live run)
  const [selected, setSelected] = useState<string | null>(null);
  const [hover, setHover] = useState<{ id: string; x: number; y: number } | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const size = useSize(scrollRef);
  const chartW = Math.max(size.width - LABEL_W, 80);

  // `version` changes whenever the model did: the rows are rebuilt then, or when a subtree is folded.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const rows = useMemo(() => model.rows(collapsed), [model, version, collapsed]);
  const extent = model.extent(now);
  const view = manualView ?? (extent ? fitView(extent[0], extent[1], chartW) : { start: now, pxPerMs: 0.1 });
  const origin = model.startedAt ?? view.start;

  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  });

  const drag = useRef<{ x: number; view: TimeView; moved: boolean } | null>(null);
  const dragged = useRef(false);

  const label = useCallback(
    (id?: string) => {
      const n = id ? editor.state.nodes.find((x) => x.id === id) : undefined;
      return n?.data.label || id || '';
    },
    [editor],
  );

  const choose = useCallback(
    (bar: TimelineBar) => {
      if (dragged.current) return; // the press panned the chart
      setSelected(bar.id);
      if (bar.nodeId) editor.selectNode(bar.nodeId);
    },
    [editor],
  );

  const toggle = useCallback((id: string) => {
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

  // Wheel: Ctrl/⌘ (and trackpad pinch, which Chromium reports as ctrl+wheel) zooms, Shift or a sideways swipe pans;
  // a plain wheel scrolls the rows. A non-passive listener, so the page does not zoom instead.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const x = e.clientX - el.getBoundingClientRect().left - LABEL_W;
      if (x < 0) return;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        setManualView(zoomView(viewRef.current, Math.exp(-e.deltaY * 0.002), x));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        setManualView(panView(viewRef.current, -(e.shiftKey ? e.deltaY || e.deltaX : e.deltaX)));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const axisRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = axisRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const x = e.clientX - el.getBoundingClientRect().left;
      setManualView(zoomView(viewRef.current, Math.exp(-(e.deltaY || e.deltaX) * 0.002), x));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  // Drag to pan; a press that moved is not a click on the bar under it.
  const onPointerDown = (e: React.PointerEvent) => {
    if (e.button !== 0 || e.clientX - e.currentTarget.getBoundingClientRect().left < LABEL_W) return;
    drag.current = { x: e.clientX, view, moved: false };
    dragged.current = false;
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    if (!d.moved && Math.abs(dx) < 4) return;
    if (!d.moved) e.currentTarget.setPointerCapture(e.pointerId);
    d.moved = true;
    dragged.current = true;
    setManualView(panView(d.view, dx));
  };
  const endDrag = () => {
    drag.current = null;
  };

  const zoomBy = (f: number) => setManualView(zoomView(view, f, chartW / 2));
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + size.height) / ROW_H) + OVERSCAN);
  const selectedSet = useMemo(() => new Set(selectedIds), [selectedIds]);
  const axis = ticks(view, chartW, origin);
  const hovered = hover ? model.bars.get(hover.id) : undefined;
  const detail = selected ? model.bars.get(selected) : undefined;
  const withChildren = useMemo(() => rows.filter((r) => r.hasChildren).map((r) => r.bar.id), [rows]);

  return (
    <div
      className="flex h-full flex-col"
      data-testid="timeline-panel"
      data-run-id={runId}
      data-bar-count={model.bars.size}
      data-row-count={rows.length}
      data-px-per-ms={view.pxPerMs.toPrecision(6)}
    >
      <div className="flex h-7 shrink-0 items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 text-[11px]">
        <span className="font-medium text-zinc-700" data-testid="timeline-summary">
          {model.bars.size} span{model.bars.size === 1 ? '' : 's'}
        </span>
        {extent && <span className="text-zinc-500">{formatDuration(extent[1] - extent[0])}</span>}
        <span className="truncate text-zinc-400">Ctrl/⌘ + wheel to zoom · drag or Shift + wheel to pan</span>
        <span className="flex-1" />
        <ToolButton onClick={() => setCollapsed(new Set(withChildren))} testId="timeline-collapse-all">
          Collapse all
        </ToolButton>
        <ToolButton onClick={() => setCollapsed(new Set())} testId="timeline-expand-all">
          Expand all
        </ToolButton>
        <span className="mx-1 h-4 w-px bg-zinc-200" />
        <ToolButton onClick={() => zoomBy(1 / 1.6)} testId="timeline-zoom-out" title="Zoom out">
          −
        </ToolButton>
        <ToolButton onClick={() => zoomBy(1.6)} testId="timeline-zoom-in" title="Zoom in">
          +
        </ToolButton>
        <ToolButton
          onClick={() => setManualView(null)}
          testId="timeline-fit"
          title="Fit the whole run (and follow it while it runs)"
          active={manualView === null}
        >
          Fit
        </ToolButton>
      </div>
      <div className="flex min-h-0 flex-1">
        <div className="relative flex min-w-0 flex-1 flex-col">
          <div className="flex h-5 shrink-0 border-b border-zinc-200 text-[10px] text-zinc-400">
            <div className="shrink-0 px-3 leading-5" style={{ width: LABEL_W }}>
              Span
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
          <div
            ref={scrollRef}
            className="relative min-h-0 flex-1 select-none overflow-y-auto overflow-x-hidden"
            onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
            data-testid="timeline-rows"
          >
            {rows.length === 0 && (
              <div className="p-4 text-[12px] text-zinc-500">
                {live ? 'Waiting for the first spans…' : 'This run has no spans.'}
              </div>
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
                  onToggle={toggle}
                  onChoose={choose}
                  onHover={setHover}
                />
              ))}
            </div>
          </div>
        </div>
        {detail && (
          <Detail
            bar={detail}
            model={model}
            now={now}
            origin={origin}
            title={barTitle(detail, label)}
            onClose={() => setSelected(null)}
          />
        )}
      </div>
      {hovered && hover && (
        <Tooltip bar={hovered} model={model} now={now} origin={origin} x={hover.x} y={hover.y} label={label} />
      )}
    </div>
  );
}

function ToolButton({
  children,
  onClick,
  testId,
  title,
  active,
}: {
  children: React.ReactNode;
  onClick: () => void;
  testId: string;
  title?: string;
  active?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      title={title}
      className={
        'h-5 min-w-5 rounded px-1.5 text-[11px] font-medium ' +
        (active ? 'bg-zinc-800 text-white' : 'text-zinc-600 hover:bg-zinc-200')
      }
    >
      {children}
    </button>
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
  onHover: (h: { id: string; x: number; y: number } | null) => void;
}) {
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
          aria-label={collapsed ? 'Expand' : 'Collapse'}
          aria-expanded={!collapsed}
        >
          <span className={`inline-block transition-transform ${collapsed ? '' : 'rotate-90'}`}>›</span>
        </button>
        <span className={`shrink-0 rounded px-1 text-[9px] font-semibold uppercase ${kindChip(bar.kind)}`}>
          {KIND_LABEL[bar.kind]}
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

function facts(bar: TimelineBar, model: TimelineModel, now: number, origin: number): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['status', bar.status],
    ['starts', formatOffset(bar.start - origin)],
    ['duration', formatDuration(model.durationOf(bar, now)) + (bar.end === null ? ' (so far)' : '')],
  ];
  const tokens = formatTokens(bar.usage);
  if (tokens) out.push(['tokens', tokens]);
  const cost = formatCost(bar.usage);
  if (cost) out.push(['cost', cost]);
  if (bar.attempt !== undefined && bar.kind !== 'attempt') out.push(['attempt', String(bar.attempt)]);
  if (bar.nodeId) out.push(['node', bar.nodeType ? `${bar.nodeId} (${bar.nodeType})` : bar.nodeId]);
  return [...out, ...bar.details];
}

function Tooltip({
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
          {KIND_LABEL[bar.kind]}
        </span>
        <span className="truncate font-medium text-zinc-800">{barTitle(bar, label)}</span>
      </div>
      <FactList facts={facts(bar, model, now, origin).slice(0, 8)} />
      {bar.error && <div className="mt-1 text-red-600">{bar.error}</div>}
    </div>
  );
}

function FactList({ facts: list }: { facts: Array<[string, string]> }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
      {list.map(([k, v], i) => (
        <div key={i} className="contents">
          <dt className="text-zinc-400">{k}</dt>
          <dd className="min-w-0 break-words text-zinc-700" data-testid={`timeline-fact-${k.replace(/\s+/g, '-')}`}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Detail({
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
  return (
    <aside
      className="w-72 shrink-0 overflow-y-auto border-l border-zinc-200 bg-white px-3 py-2 text-[11px]"
      data-testid="timeline-detail"
      data-bar-id={bar.id}
    >
      <div className="mb-1.5 flex items-center gap-1.5">
        <span className={`rounded px-1 text-[9px] font-semibold uppercase ${kindChip(bar.kind)}`}>
          {KIND_LABEL[bar.kind]}
        </span>
        <span className="min-w-0 flex-1 truncate font-medium text-zinc-800">{title}</span>
        <button type="button" className="text-zinc-400 hover:text-zinc-700" onClick={onClose} aria-label="Close">
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
