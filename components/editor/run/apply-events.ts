/**
 * The fold of trace events into a RunState, apart from the store (run-store.ts) so that it stays pure: no timers,
 * no DOM, testable on its own. Child spans (agent steps, tool calls …) are built in child-spans.ts.
 */
import { tr } from '@/components/lib/i18n';
import type { ErrorJson, NodeStatus, RunStatus, TraceEvent } from '@/components/api/types';
import { newChild, updateChild } from './child-spans';
import { runUsageOf } from './run-cost';
import {
  EMPTY_NODE,
  type ChildRunRef,
  type NodeRunState,
  type RunState,
  type BreakpointPrompt,
  type ToolApprovalPrompt,
  type TraceSpan,
} from './run-state';

const TERMINAL_RUN: Record<string, RunStatus> = {
  'run.succeeded': 'succeeded',
  'run.failed': 'failed',
  'run.cancelled': 'cancelled',
  'run.interrupted': 'interrupted',
};

/** Pure fold of events into a new state; only touched nodes and spans get new objects. */
export function applyEvents(prev: RunState, events: TraceEvent[]): RunState {
  const s: RunState = { ...prev, nodes: new Map(prev.nodes), spans: prev.spans, seqs: prev.seqs.slice() };
  const spanIndex = new Map<string, TraceSpan>();
  const index = (list: TraceSpan[]) => {
    for (const sp of list) {
      spanIndex.set(sp.spanId, sp);
      index(sp.children);
    }
  };
  index(s.spans);
  let spansChanged = false;
  // Spans are mutated copy-on-write: a span touched in this batch is cloned once (with its ancestors' arrays).
  const cloned = new Set<string>();
  const parentOf = new Map<string, TraceSpan | null>();
  const buildParents = (list: TraceSpan[], parent: TraceSpan | null) => {
    for (const sp of list) {
      parentOf.set(sp.spanId, parent);
      buildParents(sp.children, sp);
    }
  };
  buildParents(s.spans, null);
  const editable = (spanId: string): TraceSpan | undefined => {
    const sp = spanIndex.get(spanId);
    if (!sp) return undefined;
    if (cloned.has(spanId)) return sp;
    const parent = parentOf.get(spanId) ?? null;
    const copy: TraceSpan = { ...sp, notes: sp.notes.slice(), children: sp.children.slice() };
    if (parent) {
      const p = editable(parent.spanId)!;
      p.children = p.children.map((c) => (c.spanId === spanId ? copy : c));
      for (const c of copy.children) parentOf.set(c.spanId, copy);
    } else {
      if (!spansChanged) {
        s.spans = s.spans.slice();
        spansChanged = true;
      }
      s.spans = s.spans.map((c) => (c.spanId === spanId ? copy : c));
    }
    for (const c of copy.children) parentOf.set(c.spanId, copy);
    spanIndex.set(spanId, copy);
    cloned.add(spanId);
    return copy;
  };
  const addTop = (sp: TraceSpan) => {
    if (!spansChanged) {
      s.spans = s.spans.slice();
      spansChanged = true;
    }
    s.spans.push(sp);
    spanIndex.set(sp.spanId, sp);
    parentOf.set(sp.spanId, null);
    cloned.add(sp.spanId);
  };
  const setNode = (id: string, patch: Partial<NodeRunState>) => {
    s.nodes.set(id, { ...(s.nodes.get(id) ?? EMPTY_NODE), ...patch });
  };

  for (const e of events) {
    if (e.seq <= s.lastSeq) continue;
    s.lastSeq = e.seq;
    s.seqs.push(e.seq);
    const d = e.data ?? {};
    switch (e.type) {
      case 'run.started': {
        s.status = 'running';
        s.error = null;
        s.outputs = null;
        s.finishedAt = null;
        s.usage = null;
        s.startedAt ??= e.ts;
        if (d.resumed) {
          const reused = new Set((d.reused as string[] | undefined) ?? []);
          for (const [id, n] of s.nodes) if (!reused.has(id)) s.nodes.set(id, { ...n, status: 'pending', tokens: '' });
          addTop({
            spanId: `marker-${e.seq}`,
            kind: 'marker',
            type: 'resume',
            status: 'running',
            tokens: '',
            notes: [],
            children: [],
            startedSeq: e.seq,
            ts: e.ts,
            name: d.answeredNodeId
              ? answeredText(s, d, e.ts)
              : d.fromNodeId
                ? tr('run.model.resumedFrom', { node: String(d.fromNodeId) })
                : resumedText(reused.size),
          });
        }
        break;
      }
      case 'node.started': {
        if (!e.nodeId) break;
        if (s.waitingNodeId === e.nodeId) {
          s.waitingApproval = null;
          s.waitingBreakpoint = null;
        }
        // A node that was waiting for an answer now runs: its placeholder row gives way to the real span.
        if (s.spans.some((sp) => sp.nodeId === e.nodeId && sp.status === 'waiting')) {
          s.spans = s.spans.filter((sp) => !(sp.nodeId === e.nodeId && sp.status === 'waiting'));
          spansChanged = true;
        }
        setNode(e.nodeId, {
          status: 'running',
          attempt: Number(d.attempt ?? 1),
          tokens: '',
          input: d.input,
          output: undefined,
          error: null,
          durationMs: null,
        });
        addTop({
          spanId: e.spanId,
          kind: 'node',
          nodeId: e.nodeId,
          type: String(d.type ?? ''),
          name: e.nodeId,
          status: 'running',
          attempt: Number(d.attempt ?? 1),
          ...(typeof d.iteration === 'number' ? { iteration: d.iteration } : {}),
          input: d.input,
          tokens: '',
          notes: [],
          children: [],
          startedSeq: e.seq,
          ts: e.ts,
        });
        break;
      }
      case 'node.token': {
        if (!e.nodeId) break;
        const delta = String(d.delta ?? '');
        const cur = s.nodes.get(e.nodeId) ?? EMPTY_NODE;
        setNode(e.nodeId, { tokens: cur.tokens + delta });
        const sp = editable(e.spanId);
        if (sp) sp.tokens += delta;
        break;
      }
      case 'node.progress': {
        // A seeded node (pinned output, a single-node run's upstream, a forked run's reused step) never starts: its
        // note opens its row.
        if (e.nodeId && !spanIndex.has(e.spanId) && (d.pinned || d.seeded || d.forkedFrom)) {
          addTop({
            spanId: e.spanId,
            kind: 'node',
            nodeId: e.nodeId,
            type: '', // named by its node.succeeded
            name: e.nodeId,
            status: 'running',
            attempt: 0,
            tokens: '',
            notes: [seededNote(d)],
            children: [],
            startedSeq: e.seq,
            ts: e.ts,
          });
          break;
        }
        const sp = editable(e.spanId);
        const retry = d.retry as { attempt?: number; nextInMs?: number; error?: ErrorJson } | undefined;
        if (sp && !d.childRun) {
          sp.notes.push(
            retry
              ? tr('run.model.retrying', {
                  attempt: retry.attempt ?? '',
                  error: retry.error?.message ?? tr('run.model.error'),
                  ms: retry.nextInMs ?? '',
                })
              : JSON.stringify(d),
          );
          if (retry?.attempt) sp.attempt = retry.attempt + 1;
        }
        if (e.nodeId && retry?.attempt) setNode(e.nodeId, { attempt: retry.attempt + 1, tokens: '' });
        const child = childRunOf(d.childRun);
        if (sp && child) sp.childRun = child;
        break;
      }
      case 'node.succeeded':
      case 'node.failed': {
        if (!e.nodeId) break;
        const ok = e.type === 'node.succeeded';
        const status: NodeStatus = ok ? 'succeeded' : d.cancelled ? 'cancelled' : 'failed';
        const patch = {
          status,
          attempt: Number(d.attempt ?? 1),
          durationMs: (d.durationMs as number) ?? null,
          output: ok ? d.output : undefined,
          error: ok ? null : (d.error as ErrorJson),
          usage: (d.usage as NodeRunState['usage']) ?? null,
        };
        setNode(e.nodeId, patch);
        const sp = editable(e.spanId);
        if (sp) Object.assign(sp, patch, !sp.type && typeof d.type === 'string' ? { type: d.type } : {});
        break;
      }
      case 'node.skipped': {
        if (!e.nodeId) break;
        setNode(e.nodeId, { status: 'skipped', tokens: '' });
        addTop({
          spanId: `${e.spanId}-${e.seq}`,
          kind: 'node',
          nodeId: e.nodeId,
          type: String(d.type ?? ''),
          name: e.nodeId,
          status: 'skipped',
          tokens: '',
          notes: [],
          children: [],
          startedSeq: e.seq,
          ts: e.ts,
        });
        break;
      }
      case 'run.waiting': {
        s.status = 'waiting';
        s.waitingSince = e.ts;
        const nodeId = (d.nodeId as string | undefined) ?? e.nodeId ?? null;
        s.waitingNodeId = nodeId;
        // A human-input node's prompt is its question (text); a paused node's is an object naming what it asks.
        const approval = toolApprovalOf(d.prompt);
        s.waitingApproval = approval;
        const breakpoint = breakpointOf(d.prompt);
        s.waitingBreakpoint = breakpoint;
        s.waitingPrompt = approval
          ? tr('run.model.approvePrompt', { tool: approval.name })
          : breakpoint
            ? tr('run.model.pausedAtBreakpoint')
            : typeof d.prompt === 'string'
              ? d.prompt
              : typeof d.question === 'string'
                ? d.question
                : null;
        if (nodeId) {
          setNode(nodeId, { status: 'waiting' });
          addTop({
            spanId: `waiting-${e.seq}`,
            kind: 'node',
            nodeId,
            type: approval ? 'tool approval' : 'human_input',
            name: nodeId,
            status: 'waiting',
            tokens: '',
            notes: s.waitingPrompt ? [tr('run.model.waitingForAnswer', { prompt: s.waitingPrompt })] : [],
            children: [],
            startedSeq: e.seq,
            ts: e.ts,
          });
        }
        break;
      }
      case 'run.succeeded':
      case 'run.failed':
      case 'run.cancelled':
      case 'run.interrupted': {
        s.status = TERMINAL_RUN[e.type];
        s.finishedAt = e.ts;
        s.outputs = (d.outputs as Record<string, unknown>) ?? s.outputs;
        s.error = (d.error as ErrorJson) ?? null;
        s.usage = runUsageOf(d.usage);
        s.waitingNodeId = null;
        s.waitingApproval = null;
        s.waitingBreakpoint = null;
        for (const [id, n] of s.nodes)
          if (n.status === 'running' || n.status === 'waiting')
            s.nodes.set(id, { ...n, status: e.type === 'run.succeeded' ? n.status : 'cancelled' });
        break;
      }
      default: {
        // Child spans: agent steps, tool calls, retrieval hits … nested under their parent span.
        const own = spanIndex.has(e.spanId) ? editable(e.spanId) : undefined;
        // A decision on a tool call is a leaf of its own, even when it shares the call's span.
        if (own && own.kind === 'child' && (e.type as string) !== 'tool.approval') {
          updateChild(own, e);
          break;
        }
        // An event on a node's own span (e.g. retrieval.hits) becomes a leaf under that node.
        const child = newChild(e, own ? `${e.spanId}:${e.seq}` : e.spanId);
        const parent = own ?? (e.parentSpanId && spanIndex.has(e.parentSpanId) ? editable(e.parentSpanId) : undefined);
        if (parent) {
          parent.children.push(child);
          spanIndex.set(child.spanId, child);
          parentOf.set(child.spanId, parent);
          cloned.add(child.spanId);
        } else {
          addTop(child);
        }
      }
    }
  }
  return s;
}

/** Why a node was recorded without executing (pinned-data.ts's `node.progress` notes). */
function seededNote(d: Record<string, unknown>): string {
  if (d.pinned) return tr('run.model.pinned');
  const fork = d.forkedFrom as { checkpointId?: string } | undefined;
  if (fork) return tr(d.edited ? 'run.model.forkedEdited' : 'run.model.forked', { node: fork.checkpointId ?? '' });
  return tr('run.model.seeded', { from: d.seeded === 'inputs' || d.seeded === 'run' ? d.seeded : 'upstream' });
}

function toolApprovalOf(prompt: unknown): ToolApprovalPrompt | null {
  if (!prompt || typeof prompt !== 'object') return null;
  const p = prompt as Record<string, unknown>;
  if (p.kind !== 'tool_approval' || typeof p.callId !== 'string') return null;
  return { ...p, kind: 'tool_approval', callId: p.callId, name: String(p.name ?? 'tool'), arguments: p.arguments };
}

const resumedText = (reused: number) => tr('run.model.resumed', { count: reused });

/** "Ann answered “Approve?” after 2m 5s": who answered a wait, and how long it lasted (from its run.waiting). */
function answeredText(s: RunState, d: Record<string, unknown>, ts: string): string {
  const by = (d.answeredBy as { name?: string } | null | undefined)?.name;
  const waited = s.waitingSince ? Date.parse(ts) - Date.parse(s.waitingSince) : NaN;
  const values = { who: by ?? tr('run.model.someone'), node: String(d.answeredNodeId) };
  return Number.isFinite(waited) && waited >= 0
    ? tr('run.model.answeredAfter', { ...values, wait: formatWait(waited) })
    : tr('run.model.answered', values);
}

function formatWait(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const sec = Math.round(ms / 1000);
  if (sec < 60) return `${sec} s`;
  const min = Math.floor(sec / 60);
  return min < 60 ? `${min}m ${sec % 60}s` : `${Math.floor(min / 60)}h ${min % 60}m`;
}

function breakpointOf(prompt: unknown): BreakpointPrompt | null {
  if (!prompt || typeof prompt !== 'object') return null;
  const p = prompt as Record<string, unknown>;
  if (p.kind !== 'breakpoint' || typeof p.nodeId !== 'string') return null;
  return { kind: 'breakpoint', nodeId: p.nodeId, input: p.input ?? null };
}

function childRunOf(v: unknown): ChildRunRef | null {
  if (!v || typeof v !== 'object') return null;
  const c = v as Record<string, unknown>;
  if (typeof c.runId !== 'string' || typeof c.workflowId !== 'string') return null;
  return { runId: c.runId, workflowId: c.workflowId, version: (c.version as ChildRunRef['version']) ?? null };
}
