/**
 * The run timeline: trace events folded into bars for a Gantt view, one bar per span, nested by `parentSpanId`.
 *
 * Pure and incremental: `apply()` takes the next events (seq order) and touches only the bars they name, so a live
 * run costs work per event, not per bar. A bar still open has `end === null`; its duration runs to "now" (or to the
 * run's end). How repeated work is told apart:
 * - a node span opens with `node.started`; `node.progress { retry }` inside it splits it into ATTEMPT bars;
 * - a node that gets `node.started` again after its previous pass succeeded is on a loop: each pass is an ITERATION
 *   (a succeeded node is never executed again for the same run, except by a resume `fromNodeId`, which is a re-run);
 * - `run.waiting` … `run.started { resumed }` is a WAIT bar, told who answered by `answeredNodeId` / `tool.approval`.
 * Agent rounds (`agent.step` with `durationMs`) are emitted when they end, so they start at `ts - durationMs`.
 */
import type { TraceEvent } from '@/components/api/types';

export type BarKind = 'node' | 'iteration' | 'attempt' | 'round' | 'agent' | 'tool' | 'retrieval' | 'wait';
export type BarStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'waiting' | 'cancelled';

export interface BarUsage {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number | null;
}

export interface TimelineBar {
  id: string;
  parentId: string | null;
  kind: BarKind;
  /** What it is beyond its kind: the tool's name, the round's title, the wait's subject (a node bar: its node id). */
  name: string;
  nodeId?: string;
  nodeType?: string;
  status: BarStatus;
  /** Epoch ms. */
  start: number;
  /** Epoch ms; null while the span is open. */
  end: number | null;
  /** The duration the engine measured, when it reported one (more exact than end − start). */
  reportedMs?: number | null;
  usage?: BarUsage | null;
  attempt?: number;
  iteration?: number;
  error?: string;
  /** Facts for the detail view, in order: [label, value]. */
  details: Array<[string, string]>;
  children: string[];
  /** The seq of the event that opened the bar. */
  seq: number;
}

export interface TimelineRow {
  bar: TimelineBar;
  depth: number;
  hasChildren: boolean;
}

const TERMINAL: Record<string, BarStatus> = {
  'run.succeeded': 'succeeded',
  'run.failed': 'cancelled',
  'run.cancelled': 'cancelled',
  'run.interrupted': 'cancelled',
};

type Data = Record<string, unknown>;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

function usageOf(v: unknown): BarUsage | null {
  if (!v || typeof v !== 'object') return null;
  const u = v as Data;
  const out: BarUsage = {};
  if (num(u.inputTokens) !== undefined) out.inputTokens = num(u.inputTokens);
  if (num(u.outputTokens) !== undefined) out.outputTokens = num(u.outputTokens);
  if (u.costUsd === null || num(u.costUsd) !== undefined) out.costUsd = u.costUsd as number | null;
  return Object.keys(out).length ? out : null;
}

function errorText(v: unknown): string | undefined {
  if (!v) return undefined;
  if (typeof v === 'string') return v;
  const e = v as { code?: unknown; message?: unknown };
  return [str(e.code), str(e.message)].filter(Boolean).join(': ') || undefined;
}

export class TimelineModel {
  readonly bars = new Map<string, TimelineBar>();
  readonly roots: string[] = [];
  /** Epoch ms of the first event. */
  startedAt: number | null = null;
  /** Epoch ms of the run's terminal event; null while it runs, waits or after a resume. */
  finishedAt: number | null = null;
  /** Bumped by every `apply` that changed something, for views that memoise on it. */
  version = 0;
  lastSeq = 0;
  /** The latest event time seen: "now" is never before it (the browser's clock may lag the server's). */
  lastTs = 0;

  /** Node id → its passes' bar ids, in order (loop iterations and re-runs). */
  private passes = new Map<string, string[]>();
  /** Node id → its currently open attempt bar (after a retry). */
  private openAttempt = new Map<string, string>();
  /** Bumped by a resume `fromNodeId` (which re-runs succeeded nodes); a pass remembers the value it saw. */
  private rerunEpoch = 0;
  private passEpoch = new Map<string, number>();
  private openWaits: string[] = [];
  private waitByCall = new Map<string, string>();

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

  private one(e: TraceEvent) {
    const t = Date.parse(e.ts);
    const d: Data = e.data ?? {};
    this.startedAt ??= t;
    if (t > this.lastTs) this.lastTs = t;
    switch (e.type as string) {
      case 'run.started':
        this.finishedAt = null;
        if (d.resumed) this.resumed(e, t, d);
        return;
      case 'node.started':
        return this.nodeStarted(e, t, d);
      case 'node.progress':
        return this.progress(e, t, d);
      case 'node.succeeded':
      case 'node.failed': {
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
        return;
      }
      case 'node.skipped':
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
        return;
      case 'agent.step':
        return this.agentStep(e, t, d);
      case 'tool.called':
      case 'tool.result':
      case 'tool.denied':
      case 'tool.approval':
        return this.tool(e, t, d);
      case 'retrieval.hits':
        return this.retrieval(e, t, d);
      case 'run.waiting':
        return this.waiting(e, t, d);
      case 'node.token':
        return;
      default:
        if (e.type in TERMINAL) {
          this.finishedAt = t;
          for (const b of this.bars.values()) {
            if (b.end !== null) continue;
            b.end = t;
            if (b.status === 'running' || b.status === 'waiting') b.status = TERMINAL[e.type];
          }
          this.openWaits = [];
          this.openAttempt.clear();
        }
    }
  }

  private add(bar: TimelineBar, parentId?: string | null) {
    const parent = parentId ? this.bars.get(parentId) : undefined;
    bar.parentId = parent ? parent.id : null;
    this.bars.set(bar.id, bar);
    if (parent) parent.children.push(bar.id);
    else this.roots.push(bar.id);
    return bar;
  }

  /** The parent a child event names, else the node's current pass, else none (a root bar). */
  private parentFor(e: TraceEvent): string | null {
    if (e.parentSpanId && this.bars.has(e.parentSpanId)) return e.parentSpanId;
    const passes = e.nodeId ? this.passes.get(e.nodeId) : undefined;
    return passes?.[passes.length - 1] ?? null;
  }

  /** Closes every open descendant of `bar` at `t` (an attempt span of a multi-agent step has no end event). */
  private closeOpen(bar: TimelineBar, t: number, status: BarStatus) {
    const stack = [...bar.children];
    while (stack.length) {
      const c = this.bars.get(stack.pop()!)!;
      if (c.end === null) {
        c.end = Math.max(t, c.start);
        if (c.status === 'running') c.status = status;
      }
      stack.push(...c.children);
    }
    if (bar.nodeId && this.openAttempt.get(bar.nodeId) && bar.kind !== 'attempt') this.openAttempt.delete(bar.nodeId);
  }

  private nodeStarted(e: TraceEvent, t: number, d: Data) {
    if (!e.nodeId) return;
    const passes = this.passes.get(e.nodeId) ?? [];
    const prev = passes.length ? this.bars.get(passes[passes.length - 1]) : undefined;
    const attempt = num(d.attempt);
    const bar: TimelineBar = {
      id: e.spanId,
      parentId: null,
      kind: 'node',
      name: e.nodeId,
      nodeId: e.nodeId,
      nodeType: str(d.type),
      status: 'running',
      start: t,
      end: null,
      attempt,
      details: [],
      children: [],
      seq: e.seq,
    };
    if (prev) {
      const rerun = prev.status !== 'succeeded' || this.passEpoch.get(e.nodeId) !== this.rerunEpoch;
      if (rerun) {
        bar.details.push(['pass', prev.status === 'waiting' ? 'continued after the wait' : 're-run by a resume']);
      } else {
        // A loop pass: the first pass becomes iteration 1, retroactively.
        const iterations = passes.map((id) => this.bars.get(id)!).filter((b) => b.kind === 'iteration');
        if (!iterations.length && prev.kind === 'node') {
          prev.kind = 'iteration';
          prev.iteration = 1;
          iterations.push(prev);
        }
        bar.kind = 'iteration';
        bar.iteration = (iterations[iterations.length - 1]?.iteration ?? 0) + 1;
      }
    }
    passes.push(bar.id);
    this.passes.set(e.nodeId, passes);
    this.passEpoch.set(e.nodeId, this.rerunEpoch);
    this.openAttempt.delete(e.nodeId);
    this.add(bar, e.parentSpanId);
  }

  private progress(e: TraceEvent, t: number, d: Data) {
    const bar = this.bars.get(e.spanId);
    if (!bar) return;
    const retry = d.retry as { attempt?: unknown; nextInMs?: unknown; error?: unknown } | undefined;
    if (retry && bar.nodeId) {
      const failed = num(retry.attempt) ?? 1;
      const nextIn = num(retry.nextInMs) ?? 0;
      const openId = this.openAttempt.get(bar.nodeId);
      const open = openId ? this.bars.get(openId) : undefined;
      const error = errorText(retry.error);
      if (open) {
        open.end = Math.max(t, open.start);
        open.status = 'failed';
        open.error = error;
      } else {
        this.add(
          {
            id: `${bar.id}#attempt-${failed}`,
            parentId: null,
            kind: 'attempt',
            name: `attempt ${failed}`,
            nodeId: bar.nodeId,
            status: 'failed',
            start: bar.start,
            end: t,
            attempt: failed,
            error,
            details: [],
            children: [],
            seq: e.seq,
          },
          bar.id,
        );
      }
      const next = this.add(
        {
          id: `${bar.id}#attempt-${failed + 1}`,
          parentId: null,
          kind: 'attempt',
          name: `attempt ${failed + 1}`,
          nodeId: bar.nodeId,
          status: 'running',
          start: t + nextIn,
          end: null,
          attempt: failed + 1,
          details: [['backoff', `${nextIn} ms after attempt ${failed} failed`]],
          children: [],
          seq: e.seq,
        },
        bar.id,
      );
      this.openAttempt.set(bar.nodeId, next.id);
      bar.attempt = failed + 1;
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
      if (typeof d.approved === 'boolean') bar.details.push(['reviewer', d.approved ? 'approved' : 'not approved']);
      this.closeOpen(bar, t, d.status);
      return;
    }
    const child = d.childRun as { runId?: unknown } | undefined;
    if (child && str(child.runId)) bar.details.push(['child run', String(child.runId)]);
  }

  private agentStep(e: TraceEvent, t: number, d: Data) {
    const ms = num(d.durationMs);
    const round = num(d.round);
    const title = str(d.title) ?? (round !== undefined ? `round ${round}` : 'agent step');
    const existing = this.bars.get(e.spanId);
    if (existing) {
      existing.usage = usageOf(d.usage) ?? existing.usage;
      if (ms !== undefined) existing.reportedMs = ms;
      return;
    }
    const parentId = this.parentFor(e);
    // A multi-agent step or worker attempt opens here and ends with its step; a round or review is reported done.
    const open = ms === undefined && (d.kind === 'step' || d.kind === 'work' || d.kind === 'retry');
    if (d.kind === 'retry' && parentId) {
      for (const id of this.bars.get(parentId)!.children) {
        const sib = this.bars.get(id)!;
        if (sib.kind === 'agent' && sib.end === null) {
          sib.end = t;
          sib.status = 'succeeded';
          this.closeOpen(sib, t, 'succeeded');
        }
      }
    }
    const details: Array<[string, string]> = [];
    if (str(d.model)) details.push(['model', String(d.model)]);
    if (str(d.finishReason)) details.push(['finish', String(d.finishReason)]);
    const calls = Array.isArray(d.toolCalls) ? d.toolCalls.length : 0;
    if (calls) details.push(['tool calls', String(calls)]);
    if (typeof d.approved === 'boolean') details.push(['verdict', d.approved ? 'approved' : 'rejected']);
    this.add(
      {
        id: e.spanId,
        parentId: null,
        kind: round !== undefined ? 'round' : 'agent',
        name: title,
        nodeId: e.nodeId,
        status: open ? 'running' : 'succeeded',
        start: open ? t : t - (ms ?? 0),
        end: open ? null : t,
        reportedMs: ms ?? null,
        usage: usageOf(d.usage),
        details,
        children: [],
        seq: e.seq,
      },
      parentId,
    );
  }

  private tool(e: TraceEvent, t: number, d: Data) {
    let bar = this.bars.get(e.spanId);
    if (!bar) {
      const ms = e.type === 'tool.result' ? (num(d.durationMs) ?? 0) : 0;
      bar = this.add(
        {
          id: e.spanId,
          parentId: null,
          kind: 'tool',
          name: str(d.name) ?? 'tool',
          nodeId: e.nodeId,
          status: 'running',
          start: t - ms,
          end: null,
          details: [],
          children: [],
          seq: e.seq,
        },
        this.parentFor(e),
      );
    }
    if (e.type === 'tool.called') {
      bar.start = t;
      bar.status = 'running';
    } else if (e.type === 'tool.result') {
      bar.end = Math.max(t, bar.start);
      bar.status = d.ok === false ? 'failed' : 'succeeded';
      bar.reportedMs = num(d.durationMs) ?? null;
      if (d.ok === false) bar.error = typeof d.result === 'string' ? d.result : 'the tool failed';
    } else if (e.type === 'tool.denied') {
      bar.end = Math.max(t, bar.start);
      bar.status = 'failed';
      bar.error = `denied (${str(d.reason) ?? 'policy'}): ${str(d.message) ?? ''}`.trim();
    } else {
      const by = d.by as { name?: unknown } | null | undefined;
      const who = str(by?.name) ?? 'someone';
      const decision = str(d.decision) ?? 'decided';
      const verb = { approve: 'approved', edit: 'edited', reject: 'rejected' }[decision] ?? decision;
      bar.details.push(['decision', `${verb} by ${who}`]);
      const waitId = (str(d.toolCallId) && this.waitByCall.get(String(d.toolCallId))) || undefined;
      const wait = waitId ? this.bars.get(waitId) : undefined;
      if (wait) wait.details.push(['answered by', `${who} (${verb} ${bar.name})`]);
    }
  }

  private retrieval(e: TraceEvent, t: number, d: Data) {
    // On the node's own span (a knowledge node) it is a leaf of that node; with a span of its own, a bar of its own.
    const onNode = this.bars.has(e.spanId);
    const ms = num(d.durationMs) ?? 0;
    const hits = Array.isArray(d.hits) ? d.hits.length : undefined;
    const details: Array<[string, string]> = [];
    if (hits !== undefined) details.push(['hits', String(hits)]);
    if (str(d.query)) details.push(['query', String(d.query)]);
    if (str(d.source)) details.push(['source', String(d.source)]);
    if (str(d.mode)) details.push(['mode', String(d.mode)]);
    this.add(
      {
        id: onNode ? `${e.spanId}:${e.seq}` : e.spanId,
        parentId: null,
        kind: 'retrieval',
        name: str(d.title) ?? (hits !== undefined ? `${hits} hit${hits === 1 ? '' : 's'}` : 'retrieval'),
        nodeId: e.nodeId,
        status: 'succeeded',
        start: t - ms,
        end: t,
        reportedMs: num(d.durationMs) ?? null,
        details,
        children: [],
        seq: e.seq,
      },
      onNode ? e.spanId : this.parentFor(e),
    );
  }

  private waiting(e: TraceEvent, t: number, d: Data) {
    const nodeId = str(d.nodeId) ?? e.nodeId;
    const prompt = d.prompt as Data | string | undefined;
    const approval = prompt && typeof prompt === 'object' && prompt.kind === 'tool_approval' ? prompt : undefined;
    const name = approval ? `approval of ${str(approval.name) ?? 'a tool call'}` : `answer for ${nodeId ?? 'the run'}`;
    const details: Array<[string, string]> = [];
    if (typeof prompt === 'string' && prompt) details.push(['prompt', prompt]);
    const bar = this.add({
      id: `wait:${e.seq}`,
      parentId: null,
      kind: 'wait',
      name,
      nodeId,
      status: 'waiting',
      start: t,
      end: null,
      details,
      children: [],
      seq: e.seq,
    });
    this.openWaits.push(bar.id);
    if (approval && str(approval.callId)) this.waitByCall.set(String(approval.callId), bar.id);
  }

  private resumed(e: TraceEvent, t: number, d: Data) {
    if (str(d.fromNodeId)) this.rerunEpoch++;
    for (const id of this.openWaits) {
      const w = this.bars.get(id)!;
      w.end = Math.max(t, w.start);
      w.status = 'succeeded';
      if (str(d.answeredNodeId)) w.details.push(['answered node', String(d.answeredNodeId)]);
    }
    this.openWaits = [];
  }
}

/** Folds a whole event list (tests, replayed runs). */
export function buildTimeline(events: readonly TraceEvent[]): TimelineModel {
  const m = new TimelineModel();
  m.apply(events);
  return m;
}
