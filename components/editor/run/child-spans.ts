/**
 * Child spans of the trace: how an agent step, a tool call or result, a denial, a person's decision on a tool call or
 * retrieval hits becomes a leaf under its node's span, and how a later event (a tool's result) updates the span its
 * call opened.
 */
import { tr } from '@/components/lib/i18n';
import type { TraceEvent } from '@/components/api/types';
import type { TraceSpan } from './run-state';

type Usage = { inputTokens?: number; outputTokens?: number };

export function newChild(e: TraceEvent, spanId: string): TraceSpan {
  const d = e.data ?? {};
  const base: TraceSpan = {
    spanId,
    kind: 'child',
    nodeId: e.nodeId,
    type: e.type,
    name: e.type,
    status: 'succeeded',
    tokens: '',
    notes: [],
    children: [],
    startedSeq: e.seq,
    ts: e.ts,
  };
  switch (e.type as string) {
    case 'tool.approval':
      return approvalChild(base, d);
    case 'agent.step':
      return {
        ...base,
        name: String(d.title ?? tr('run.model.round', { round: String(d.round ?? '') })),
        input: d.toolCalls && (d.toolCalls as unknown[]).length ? { toolCalls: d.toolCalls } : undefined,
        output: d.text,
        durationMs: (d.durationMs as number) ?? null,
        usage: (d.usage as Usage) ?? null,
      };
    case 'tool.called':
      return { ...base, name: String(d.name ?? 'tool'), status: 'running', input: d.args };
    case 'tool.result':
      return {
        ...base,
        name: String(d.name ?? 'tool'),
        status: d.ok === false ? 'failed' : 'succeeded',
        output: d.result,
        durationMs: (d.durationMs as number) ?? null,
      };
    case 'tool.denied':
      return {
        ...base,
        name: String(d.name ?? 'tool'),
        status: 'failed',
        input: d.args,
        error: { code: 'TOOL_DENIED', message: String(d.message ?? d.reason ?? 'denied') },
      };
    case 'retrieval.hits':
      return { ...base, name: tr('run.model.retrieval'), output: d };
    default:
      return { ...base, output: d };
  }
}

export function updateChild(sp: TraceSpan, e: TraceEvent) {
  const d = e.data ?? {};
  if (e.type === 'tool.result') {
    sp.output = d.result;
    sp.status = d.ok === false ? 'failed' : 'succeeded';
    sp.durationMs = (d.durationMs as number) ?? sp.durationMs;
    if (d.ok === false)
      sp.error = { code: String(d.status ?? 'TOOL_FAILED'), message: String(d.result ?? tr('run.model.toolFailed')) };
  } else if (e.type === 'tool.denied') {
    sp.status = 'failed';
    sp.error = { code: 'TOOL_DENIED', message: String(d.message ?? d.reason ?? tr('run.model.denied')) };
  } else {
    sp.notes.push(e.type);
  }
}

/** `tool.approval`: "<who> approved/edited/rejected <tool>", with the edited arguments or the rejection message. */
function approvalChild(base: TraceSpan, d: Record<string, unknown>): TraceSpan {
  const by = d.by as { name?: unknown; userId?: unknown } | null | undefined;
  const who = typeof by?.name === 'string' && by.name ? by.name : tr('run.model.someone');
  const decision = String(d.decision ?? '');
  const tool = String(d.name ?? tr('run.model.aTool'));
  const message = typeof d.message === 'string' && d.message ? d.message : undefined;
  return {
    ...base,
    name: tr('run.model.decided', { who, decision, tool }),
    status: decision === 'reject' ? 'cancelled' : 'succeeded',
    input: d.arguments,
    output:
      decision === 'reject'
        ? (message ?? tr('run.model.rejectedSilently'))
        : decision === 'edit'
          ? d.arguments
          : tr('run.model.approved'),
    ts: typeof d.at === 'string' ? d.at : base.ts,
  };
}
