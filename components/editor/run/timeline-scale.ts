/**
 * The timeline's horizontal scale: a view is `{ start, pxPerMs }` (epoch ms at the left edge, zoom). Zooming keeps
 * the instant under the cursor in place; ticks fall on round steps (1-2-5 × 10ⁿ ms) so the axis reads easily.
 */
export interface TimeView {
  start: number;
  pxPerMs: number;
}

/** From 1 px per 10 minutes to 50 px per ms. */
export const MIN_PX_PER_MS = 1 / 600_000;
export const MAX_PX_PER_MS = 50;

const clampZoom = (z: number) => Math.min(MAX_PX_PER_MS, Math.max(MIN_PX_PER_MS, z));

/** A view showing [from, to] in `width` px, with a margin on the right for the last bar's duration label. */
export function fitView(from: number, to: number, width: number): TimeView {
  const span = Math.max(to - from, 1);
  const usable = Math.max(width - 72, 40);
  const pxPerMs = clampZoom(usable / span);
  return { start: from - 8 / pxPerMs, pxPerMs };
}

/** Zooms by `factor` around the instant at `atPx` (px from the left edge). */
export function zoomView(v: TimeView, factor: number, atPx: number): TimeView {
  const pxPerMs = clampZoom(v.pxPerMs * factor);
  const at = v.start + atPx / v.pxPerMs;
  return { start: at - atPx / pxPerMs, pxPerMs };
}

export function panView(v: TimeView, dxPx: number): TimeView {
  return { ...v, start: v.start - dxPx / v.pxPerMs };
}

const STEPS = [1, 2, 5];

/** Tick step (ms) giving about one tick per `minGapPx` pixels. */
export function tickStep(pxPerMs: number, minGapPx = 90): number {
  const raw = minGapPx / pxPerMs;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const s of STEPS) if (s * pow >= raw) return s * pow;
  return 10 * pow;
}

/** Ticks as offsets from `origin` (the run's start), inside the visible range of `width` px. */
export function ticks(v: TimeView, width: number, origin: number): Array<{ x: number; offsetMs: number }> {
  const step = tickStep(v.pxPerMs);
  const from = Math.ceil((v.start - origin) / step) * step;
  const to = v.start - origin + width / v.pxPerMs;
  const out: Array<{ x: number; offsetMs: number }> = [];
  for (let o = from; o <= to && out.length < 200; o += step)
    out.push({ x: (origin + o - v.start) * v.pxPerMs, offsetMs: o });
  return out;
}

/** "+1.5 s", "+250 ms", "+2 m 5 s": an offset from the run's start. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  const a = Math.abs(ms);
  if (a < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 60_000) return `${sign}${Number((a / 1000).toFixed(a < 10_000 ? 2 : 1))} s`;
  return `${sign}${Math.floor(a / 60_000)} m ${Math.round((a % 60_000) / 1000)} s`;
}
