/**
 * The run timeline: trace events folded into bars for a Gantt view, one bar per span, nested by `parentSpanId`.
 *
 * Pure and incremental: `apply()` takes the next events (seq order) and touches only the bars they name, so a live
 * run costs work per event, not per bar. A bar still open has `end === null`; its duration runs to "now" (or to the
 * run's end). This file dispatches the events and keeps node and run lifecycles; the rest lives beside it:
 * - timeline-tree.ts: the span tree, its rows and the live measures (end, duration, extent);
 * - timeline-passes.ts: loop ITERATIONS and retry ATTEMPTS of one node;
 * - timeline-waits.ts: `run.waiting` … `run.started { resumed }` as WAIT bars, and who answered them;
 * - timeline-spans.ts: agent rounds and steps, tool calls and retrievals inside a node.
 */
import { tr } from '@/components/lib/i18n';
import type { TraceEvent } from '@/components/api/types';
import { type Data, errorText, num, str, usageOf } from './timeline-event-data';
import { NodePasses, type RetryData } from './timeline-passes';
import { agentStep, retrieval, type SpanHost, toolEvent } from './timeline-spans';
import { SpanTree } from './timeline-tree';
import type { BarStatus, TimelineBar } from './timeline-types';
import { RunWaits } from './timeline-waits';

export type { BarKind, BarStatus, BarUsage, TimelineBar, TimelineRow } from './timeline-types';

const TERMINAL: Record<string, BarStatus> = {
  'run.succeeded': 'succeeded',
  'run.failed': 'cancelled',
  'run.cancelled': 'cancelled',
  'run.interrupted': 'cancelled',
};

export class TimelineModel extends SpanTree implements SpanHost {
  /** Bumped by every `apply` that changed something, for views that memoise on it. */
  version = 0;
  lastSeq = 0;
  readonly waits = new RunWaits(this);
  private readonly passes = new NodePasses(this);

  apply(events: readonly TraceEvent[]): void {
    let changed = false;
    for (const e of events) {
      if (e.seq <= this.lastSeq) continue;
      this.lastSeq = e.seq;
      changed = true;
      this.one(e);
    }
    if (changed) this.version++;
  }

  /** The parent a child event names, else the node's current pass, else none (a root bar). */
  parentFor(e: TraceEvent): string | null {
    if (e.parentSpanId && this.bars.has(e.parentSpanId)) return e.parentSpanId;
    return this.passes.current(e.nodeId) ?? null;
  }

  /** Closes every open descendant of `bar` at `t` (an attempt span of a multi-agent step has no end event). */
  closeOpen(bar: TimelineBar, t: number, status: BarStatus): void {
    this.closeDescendants(bar, t, status);
    this.passes.closed(bar);
  }

  private one(e: TraceEvent) {
    const t = Date.parse(e.ts);
    const d: Data = e.data ?? {};
    this.startedAt ??= t;
    if (t > this.lastTs) this.lastTs = t;
    switch (e.type as string) {
      case 'run.started':
        this.finishedAt = null;
        if (d.resumed) {
          if (str(d.fromNodeId)) this.passes.rerun();
          this.waits.resumed(t, d);
        }
        return;
      case 'node.started':
        return this.passes.started(e, t, d);
      case 'node.progress':
        return this.progress(e, t, d);
      case 'node.succeeded':
      case 'node.failed':
        return this.nodeEnded(e, t, d);
      case 'node.skipped':
        return this.nodeSkipped(e, t, d);
      case 'agent.step':
        return agentStep(this, e, t, d);
      case 'tool.called':
      case 'tool.result':
      case 'tool.denied':
      case 'tool.approval':
        return toolEvent(this, e, t, d);
      case 'retrieval.hits':
        return retrieval(this, e, t, d);
      case 'run.waiting':
        return this.waits.waiting(e, t, d);
      case 'node.token':
        return;
      default:
        if (e.type in TERMINAL) this.runEnded(TERMINAL[e.type], t);
    }
  }

  private nodeEnded(e: TraceEvent, t: number, d: Data) {
    const bar = this.bars.get(e.spanId);
    if (!bar) return;
    const ok = e.type === 'node.succeeded';
    const status: BarStatus = ok ? 'succeeded' : d.cancelled ? 'cancelled' : 'failed';
    bar.status = status;
    bar.end = t;
    bar.reportedMs = num(d.durationMs) ?? null;
    bar.usage = usageOf(d.usage) ?? bar.usage;
    if (num(d.attempt)) bar.attempt = num(d.attempt);
    if (!ok) bar.error = errorText(d.error);
    this.closeOpen(bar, t, ok ? 'succeeded' : status);
  }

  private nodeSkipped(e: TraceEvent, t: number, d: Data) {
    this.add({
      id: e.spanId,
      parentId: null,
      kind: 'node',
      name: e.nodeId ?? '',
      nodeId: e.nodeId,
      nodeType: str(d.type),
      status: 'skipped',
      start: t,
      end: t,
      details: str(d.reason) ? [['reason', String(d.reason)]] : [],
      children: [],
      seq: e.seq,
    });
  }

  /** The run's terminal event: every open bar ends here; running or waiting ones take the run's outcome. */
  private runEnded(status: BarStatus, t: number) {
    this.finishedAt = t;
    for (const b of this.bars.values()) {
      if (b.end !== null) continue;
      b.end = t;
      if (b.status === 'running' || b.status === 'waiting') b.status = status;
    }
    this.waits.runEnded();
    this.passes.runEnded();
  }

  /** `node.progress`: a retry, a pause, a multi-agent step's outcome or a child run, on the bar it names. */
  private progress(e: TraceEvent, t: number, d: Data) {
    const bar = this.bars.get(e.spanId);
    if (!bar) return;
    const retry = d.retry as RetryData | undefined;
    if (retry && bar.nodeId) {
      this.passes.retry(bar, bar.nodeId, e, t, retry);
      return;
    }
    if (d.waiting !== undefined && (bar.kind === 'node' || bar.kind === 'iteration')) {
      // A paused node (e.g. a tool call waiting for approval): this pass ends here; the run waits.
      bar.status = 'waiting';
      bar.end = t;
      this.closeOpen(bar, t, 'succeeded');
      return;
    }
    if (bar.kind === 'agent' && (d.status === 'succeeded' || d.status === 'failed')) {
      bar.status = d.status;
      bar.end = t;
      if (d.status === 'failed') bar.error = errorText(d.error);
      if (num(d.attempts)) bar.details.push(['attempts', String(d.attempts)]);
      if (typeof d.approved === 'boolean')
        bar.details.push(['reviewer', d.approved ? tr('run.model.approved') : tr('run.model.notApproved')]);
      this.closeOpen(bar, t, d.status);
      return;
    }
    const child = d.childRun as { runId?: unknown } | undefined;
    if (child && str(child.runId)) bar.details.push(['child run', String(child.runId)]);
  }
}

/** Folds a whole event list (tests, replayed runs). */
export function buildTimeline(events: readonly TraceEvent[]): TimelineModel {
  const m = new TimelineModel();
  m.apply(events);
  return m;
}
