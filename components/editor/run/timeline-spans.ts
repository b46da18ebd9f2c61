/**
 * The timeline's work spans inside a node: agent rounds and multi-agent steps (`agent.step`), tool calls
 * (`tool.*`) and retrievals (`retrieval.hits`). Agent rounds are emitted when they end, so they start at
 * `ts - durationMs`; a multi-agent step or worker attempt opens with its event and ends with its step.
 */
import { tr } from '@/components/lib/i18n';
import type { TraceEvent } from '@/components/api/types';
import { type Data, num, str, usageOf } from './timeline-event-data';
import type { BarStatus, TimelineBar } from './timeline-types';
import type { RunWaits } from './timeline-waits';

/** What the span rules need of the model. */
export interface SpanHost {
  readonly bars: Map<string, TimelineBar>;
  readonly waits: RunWaits;
  add(bar: TimelineBar, parentId?: string | null): TimelineBar;
  /** The parent a child event names, else the node's current pass, else none (a root bar). */
  parentFor(e: TraceEvent): string | null;
  /** Closes every open descendant of `bar` at `t`. */
  closeOpen(bar: TimelineBar, t: number, status: BarStatus): void;
}

export function agentStep(host: SpanHost, e: TraceEvent, t: number, d: Data): void {
  const ms = num(d.durationMs);
  const round = num(d.round);
  const title = str(d.title) ?? (round !== undefined ? tr('run.model.round', { round }) : tr('run.model.agentStep'));
  const existing = host.bars.get(e.spanId);
  if (existing) {
    existing.usage = usageOf(d.usage) ?? existing.usage;
    if (ms !== undefined) existing.reportedMs = ms;
    return;
  }
  const parentId = host.parentFor(e);
  // A multi-agent step or worker attempt opens here and ends with its step; a round or review is reported done.
  const open = ms === undefined && (d.kind === 'step' || d.kind === 'work' || d.kind === 'retry');
  if (d.kind === 'retry' && parentId) {
    for (const id of host.bars.get(parentId)!.children) {
      const sib = host.bars.get(id)!;
      if (sib.kind === 'agent' && sib.end === null) {
        sib.end = t;
        sib.status = 'succeeded';
        host.closeOpen(sib, t, 'succeeded');
      }
    }
  }
  const details: Array<[string, string]> = [];
  if (str(d.model)) details.push(['model', String(d.model)]);
  if (str(d.finishReason)) details.push(['finish', String(d.finishReason)]);
  const calls = Array.isArray(d.toolCalls) ? d.toolCalls.length : 0;
  if (calls) details.push(['tool calls', String(calls)]);
  if (typeof d.approved === 'boolean')
    details.push(['verdict', d.approved ? tr('run.model.approved') : tr('run.model.rejected')]);
  host.add(
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

/** `tool.called` / `tool.result` / `tool.denied` / `tool.approval`, all on the call's own span. */
export function toolEvent(host: SpanHost, e: TraceEvent, t: number, d: Data): void {
  let bar = host.bars.get(e.spanId);
  if (!bar) {
    const ms = e.type === 'tool.result' ? (num(d.durationMs) ?? 0) : 0;
    bar = host.add(
      {
        id: e.spanId,
        parentId: null,
        kind: 'tool',
        name: str(d.name) ?? tr('run.model.tool'),
        nodeId: e.nodeId,
        status: 'running',
        start: t - ms,
        end: null,
        details: [],
        children: [],
        seq: e.seq,
      },
      host.parentFor(e),
    );
  }
  if (e.type === 'tool.called') {
    bar.start = t;
    bar.status = 'running';
  } else if (e.type === 'tool.result') {
    bar.end = Math.max(t, bar.start);
    bar.status = d.ok === false ? 'failed' : 'succeeded';
    bar.reportedMs = num(d.durationMs) ?? null;
    if (d.ok === false) bar.error = typeof d.result === 'string' ? d.result : tr('run.model.toolFailed');
  } else if (e.type === 'tool.denied') {
    bar.end = Math.max(t, bar.start);
    bar.status = 'failed';
    bar.error = tr('run.model.deniedBecause', {
      reason: str(d.reason) ?? tr('run.model.policy'),
      message: str(d.message) ?? '',
    }).trim();
  } else {
    const by = d.by as { name?: unknown } | null | undefined;
    const who = str(by?.name) ?? tr('run.model.someoneLower');
    const decision = str(d.decision) ?? 'decided';
    bar.details.push(['decision', tr('run.model.decidedBy', { decision, who })]);
    host.waits.answered(str(d.toolCallId), tr('run.model.answeredBy', { who, decision, tool: bar.name }));
  }
}

export function retrieval(host: SpanHost, e: TraceEvent, t: number, d: Data): void {
  // On the node's own span (a knowledge node) it is a leaf of that node; with a span of its own, a bar of its own.
  const onNode = host.bars.has(e.spanId);
  const ms = num(d.durationMs) ?? 0;
  const hits = Array.isArray(d.hits) ? d.hits.length : undefined;
  const details: Array<[string, string]> = [];
  if (hits !== undefined) details.push(['hits', String(hits)]);
  if (str(d.query)) details.push(['query', String(d.query)]);
  if (str(d.source)) details.push(['source', String(d.source)]);
  if (str(d.mode)) details.push(['mode', String(d.mode)]);
  host.add(
    {
      id: onNode ? `${e.spanId}:${e.seq}` : e.spanId,
      parentId: null,
      kind: 'retrieval',
      name: str(d.title) ?? (hits !== undefined ? tr('run.model.hits', { count: hits }) : tr('run.model.retrieval')),
      nodeId: e.nodeId,
      status: 'succeeded',
      start: t - ms,
      end: t,
      reportedMs: num(d.durationMs) ?? null,
      details,
      children: [],
      seq: e.seq,
    },
    onNode ? e.spanId : host.parentFor(e),
  );
}
