/**
 * The timeline's span tree and its live measures: bars by id, nested under their parents; the rows to draw
 * (depth-first, collapsible); and where an open bar ends and how long it has run, measured up to "now" (or to the
 * run's end). The event rules that fill it are in timeline-model.ts.
 */
import type { BarStatus, TimelineBar, TimelineRow } from './timeline-types';

export class SpanTree {
  readonly bars = new Map<string, TimelineBar>();
  readonly roots: string[] = [];
  /** Epoch ms of the first event. */
  startedAt: number | null = null;
  /** Epoch ms of the run's terminal event; null while it runs, waits or after a resume. */
  finishedAt: number | null = null;
  /** The latest event time seen: "now" is never before it (the browser's clock may lag the server's). */
  lastTs = 0;

  /** All bars as rows, depth-first, children by start time, skipping the subtrees of collapsed bars. */
  rows(collapsed: ReadonlySet<string> = new Set()): TimelineRow[] {
    const out: TimelineRow[] = [];
    const byStart = (ids: readonly string[]) =>
      ids
        .map((id) => this.bars.get(id)!)
        .sort((a, b) => a.start - b.start || a.seq - b.seq)
        .reverse();
    const stack: Array<{ bar: TimelineBar; depth: number }> = byStart(this.roots).map((bar) => ({ bar, depth: 0 }));
    while (stack.length) {
      const { bar, depth } = stack.pop()!;
      out.push({ bar, depth, hasChildren: bar.children.length > 0 });
      if (collapsed.has(bar.id)) continue;
      for (const c of byStart(bar.children)) stack.push({ bar: c, depth: depth + 1 });
    }
    return out;
  }

  /** Where the bar ends for drawing: its end, else the run's end, else now. */
  endOf(bar: TimelineBar, now: number): number {
    return bar.end ?? this.finishedAt ?? Math.max(now, this.lastTs, bar.start);
  }

  /** The bar's duration: the engine's measure when closed and reported, else wall time so far (never negative). */
  durationOf(bar: TimelineBar, now: number): number {
    if (bar.end !== null && bar.reportedMs != null) return bar.reportedMs;
    return Math.max(0, this.endOf(bar, now) - bar.start);
  }

  /** [first start, last end] over every bar, for "fit". */
  extent(now: number): [number, number] | null {
    if (this.startedAt === null) return null;
    let lo = this.startedAt;
    let hi = this.finishedAt ?? Math.max(now, this.lastTs);
    for (const b of this.bars.values()) {
      if (b.start < lo) lo = b.start;
      const end = this.endOf(b, now);
      if (end > hi) hi = end;
    }
    return [lo, Math.max(hi, lo + 1)];
  }

  /** Adds the bar under `parentId` when that bar exists, else as a root. */
  add(bar: TimelineBar, parentId?: string | null): TimelineBar {
    const parent = parentId ? this.bars.get(parentId) : undefined;
    bar.parentId = parent ? parent.id : null;
    this.bars.set(bar.id, bar);
    if (parent) parent.children.push(bar.id);
    else this.roots.push(bar.id);
    return bar;
  }

  /** Closes every open descendant of `bar` at `t` (an attempt span of a multi-agent step has no end event). */
  protected closeDescendants(bar: TimelineBar, t: number, status: BarStatus): void {
    const stack = [...bar.children];
    while (stack.length) {
      const c = this.bars.get(stack.pop()!)!;
      if (c.end === null) {
        c.end = Math.max(t, c.start);
        if (c.status === 'running') c.status = status;
      }
      stack.push(...c.children);
    }
  }
}
