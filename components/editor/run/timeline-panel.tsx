'use client';
/**
 * The Timeline tab: the shown run's spans as a Gantt chart (timeline-model.ts builds the bars). Rows are
 * virtualised — only the rows in view are in the DOM — so a run with thousands of spans stays cheap, and a live run
 * re-renders once per frame of events (the run store batches them), not once per event. Ctrl/⌘ + wheel (or a pinch,
 * or the wheel over the axis) zooms around the pointer, Shift + wheel or a drag pans, Fit follows the whole run.
 * Clicking a bar selects its node on the canvas and shows the span's details beside the chart.
 *
 * This file wires the state together; the parts are timeline-toolbar.tsx, timeline-axis.tsx, timeline-rows.tsx,
 * timeline-detail.tsx (tooltip and detail panel) and timeline-view.ts (clock, size, zoom and pan).
 */
import { useTranslations } from 'next-intl';
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useEditorContext, useEditorState, useRunState } from '../editor-context';
import type { EditorState } from '../editor-store';
import type { RunState } from './run-store';
import { TimelineAxis } from './timeline-axis';
import { Detail, Tooltip } from './timeline-detail';
import { TimelineFeed } from './timeline-feed';
import { barTitle } from './timeline-labels';
import type { TimelineBar } from './timeline-model';
import { type Hover, TimelineRows } from './timeline-rows';
import { TimelineToolbar } from './timeline-toolbar';
import { LABEL_W, useNow, useSize, useZoomPan } from './timeline-view';

const selectRunId = (s: RunState) => s.runId;
const selectStatus = (s: RunState) => s.status;
const selectSelected = (s: EditorState) => s.selectedIds;

export function TimelinePanel() {
  const runId = useRunState(selectRunId);
  const t = useTranslations('run.timeline');
  if (!runId) {
    return (
      <div className="p-6 text-center text-sm text-zinc-500" data-testid="timeline-empty">
        {t.rich('empty', { b: (c) => <b>{c}</b> })}
      </div>
    );
  }
  // Keyed by run: zoom, collapsed rows and the selection start afresh for another run.
  return <Timeline key={runId} runId={runId} />;
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
  const [selected, setSelected] = useState<string | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const size = useSize(scrollRef);
  const chartW = Math.max(size.width - LABEL_W, 80);

  // `version` changes whenever the model did: the rows are rebuilt then, or when a subtree is folded.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const rows = useMemo(() => model.rows(collapsed), [model, version, collapsed]);
  const extent = model.extent(now);
  const { view, fitting, fit, zoomBy, axisRef, draggedRef, pointer } = useZoomPan(extent, now, chartW, scrollRef);
  const origin = model.startedAt ?? view.start;

  const label = useCallback(
    (id?: string) => {
      const n = id ? editor.state.nodes.find((x) => x.id === id) : undefined;
      return n?.data.label || id || '';
    },
    [editor],
  );

  const choose = useCallback(
    (bar: TimelineBar) => {
      if (draggedRef.current) return; // the press panned the chart
      setSelected(bar.id);
      if (bar.nodeId) editor.selectNode(bar.nodeId);
    },
    [editor, draggedRef],
  );

  const toggle = useCallback((id: string) => {
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

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
      <TimelineToolbar
        spans={model.bars.size}
        extent={extent}
        fitting={fitting}
        onCollapseAll={() => setCollapsed(new Set(withChildren))}
        onExpandAll={() => setCollapsed(new Set())}
        onZoom={zoomBy}
        onFit={fit}
      />
      <div className="flex min-h-0 flex-1">
        <div className="relative flex min-w-0 flex-1 flex-col">
          <TimelineAxis view={view} chartW={chartW} origin={origin} axisRef={axisRef} />
          <TimelineRows
            scrollRef={scrollRef}
            pointer={pointer}
            height={size.height}
            rows={rows}
            live={live}
            model={model}
            view={view}
            chartW={chartW}
            now={now}
            label={label}
            collapsed={collapsed}
            selected={selected}
            selectedIds={selectedIds}
            onToggle={toggle}
            onChoose={choose}
            onHover={setHover}
          />
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
