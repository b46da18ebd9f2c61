/**
 * The Timeline chart's view hooks: the clock a live run is measured against, the chart's size, and zoom & pan —
 * Ctrl/⌘ + wheel (or a pinch, or the wheel over the axis) zooms around the pointer, Shift + wheel or a drag pans,
 * and no manual view means "fit the whole run" (following it while it runs).
 */
import { useEffect, useRef, useState } from 'react';
import { fitView, panView, type TimeView, zoomView } from './timeline-scale';

/** Width of the rows' label column, left of the chart. */
export const LABEL_W = 260;

/** "Now" for measuring open spans: ticks 4× a second while the run is live, else stays put. */
export function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [live]);
  return now;
}

export function useSize(ref: React.RefObject<HTMLElement | null>) {
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

/**
 * The chart's time view over `extent` in `chartW` px: the wheel listeners on the rows (`scrollRef`) and on the axis
 * (the returned `axisRef`), the drag-to-pan handlers for the rows, and the toolbar's zoom and fit. `draggedRef` tells
 * the click that ends a drag from a click on a bar.
 */
export function useZoomPan(
  extent: [number, number] | null,
  now: number,
  chartW: number,
  scrollRef: React.RefObject<HTMLDivElement | null>,
) {
  const [manualView, setManualView] = useState<TimeView | null>(null); // null: fit (and follow a live run)
  const view = manualView ?? (extent ? fitView(extent[0], extent[1], chartW) : { start: now, pxPerMs: 0.1 });

  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  });

  const drag = useRef<{ x: number; view: TimeView; moved: boolean } | null>(null);
  const draggedRef = useRef(false);

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
  }, [scrollRef]);

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
    draggedRef.current = false;
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    if (!d.moved && Math.abs(dx) < 4) return;
    if (!d.moved) e.currentTarget.setPointerCapture(e.pointerId);
    d.moved = true;
    draggedRef.current = true;
    setManualView(panView(d.view, dx));
  };
  const endDrag = () => {
    drag.current = null;
  };

  return {
    view,
    /** No manual view: the chart fits the whole run. */
    fitting: manualView === null,
    fit: () => setManualView(null),
    zoomBy: (f: number) => setManualView(zoomView(view, f, chartW / 2)),
    axisRef,
    draggedRef,
    pointer: { onPointerDown, onPointerMove, onPointerUp: endDrag, onPointerCancel: endDrag },
  };
}
