/**
 * The run being shown on the canvas, built by folding trace events (live or replayed) in `seq` order.
 * Per-node views are immutable and replaced only when that node changes, so each node card re-renders only
 * for its own events; events are applied in batches, one store update per animation frame.
 */
import type { ErrorJson, NodeStatus, RunStatus, RunView, TraceEvent } from '@/components/api/types';
import { createStore, type Store } from '@/components/lib/external-store';

export interface NodeRunState {
  status: NodeStatus;
  attempt: number;
  /** Streamed `node.token` text of the latest attempt. */
  tokens: string;
  input?: unknown;
  output?: unknown;
  error?: ErrorJson | null;
  durationMs?: number | null;
  usage?: { inputTokens?: number; outputTokens?: number } | null;
}

export interface TraceSpan {
  spanId: string;
  kind: 'node' | 'child' | 'marker';
  nodeId?: string;
  /** Node type for node spans, the event type (agent.step, tool.called …) for child spans. */
  type: string;
  name: string;
  status: NodeStatus;
  attempt?: number;
  input?: unknown;
  output?: unknown;
  error?: ErrorJson | null;
  durationMs?: number | null;
  usage?: { inputTokens?: number; outputTokens?: number } | null;
  tokens: string;
  notes: string[];
  startedSeq: number;
  ts: string;
  children: TraceSpan[];
}

export interface RunState {
  runId: string | null;
  status: RunStatus | 'idle';
  error: ErrorJson | null;
  outputs: Record<string, unknown> | null;
  inputs: Record<string, unknown> | null;
  startedAt: string | null;
  finishedAt: string | null;
  lastSeq: number;
  nodes: Map<string, NodeRunState>;
  spans: TraceSpan[];
  waitingNodeId: string | null;
  waitingPrompt: string | null;
  connection: 'idle' | 'connecting' | 'open' | 'closed' | 'reconnecting';
  /** Every seq ever applied, for the "no gaps, no duplicates" check the e2e suite makes after a dropped connection. */
  seqs: number[];
}

export const EMPTY_RUN: RunState = {
  runId: null,
  status: 'idle',
  error: null,
  outputs: null,
  inputs: null,
  startedAt: null,
  finishedAt: null,
  lastSeq: 0,
  nodes: new Map(),
  spans: [],
  waitingNodeId: null,
  waitingPrompt: null,
  connection: 'idle',
  seqs: [],
};

const TERMINAL_RUN: Record<string, RunStatus> = {
  'run.succeeded': 'succeeded',
  'run.failed': 'failed',
  'run.cancelled': 'cancelled',
  'run.interrupted': 'interrupted',
};
export const isTerminal = (s: RunState['status']) =>
  s === 'succeeded' || s === 'failed' || s === 'cancelled' || s === 'interrupted';

const EMPTY_NODE: NodeRunState = { status: 'pending', attempt: 0, tokens: '' };

export class RunStore {
  readonly store: Store<RunState> = createStore<RunState>(EMPTY_RUN);
  private queue: TraceEvent[] = [];
  private flushHandle: number | null = null;

  get state(): RunState {
    return this.store.get();
  }

  reset(runId: string | null) {
    this.queue = [];
    this.store.set({ ...EMPTY_RUN, runId, status: runId ? 'queued' : 'idle', nodes: new Map() });
  }

  setConnection(connection: RunState['connection']) {
    if (this.state.connection !== connection) this.store.set({ ...this.state, connection });
  }

  /** The highest seq received, counting events still waiting for the next frame. */
  get lastSeq(): number {
    return this.queue.length ? this.queue[this.queue.length - 1].seq : this.state.lastSeq;
  }

  push(e: TraceEvent) {
    if (e.runId !== this.state.runId || e.seq <= this.lastSeq) return; // replayed after a reconnect: already applied
    this.queue.push(e);
    if (this.flushHandle === null) {
      this.flushHandle =
        typeof document !== 'undefined' && document.visibilityState === 'visible'
          ? (requestAnimationFrame(() => this.flush()) as unknown as number)
          : (setTimeout(() => this.flush(), 16) as unknown as number);
    }
  }

  /** Applies queued events now (also called before reading state that must be current). */
  flush() {
    if (this.flushHandle !== null) {
      cancelAnimationFrame(this.flushHandle);
      clearTimeout(this.flushHandle);
      this.flushHandle = null;
    }
    if (!this.queue.length) return;
    const events = this.queue;
    this.queue = [];
    this.store.set(applyEvents(this.state, events));
  }

  /** Reconciles with the stored snapshot (authoritative for statuses and attempt counts). */
  applySnapshot(run: RunView) {
    this.flush();
    const s = this.state;
    if (s.runId !== run.id) return;
    // A snapshot taken while events were still streaming may be older than them: then only run-level facts count.
    const settled = s.lastSeq === 0 || (isTerminal(s.status) && isTerminal(run.status));
    const nodes = settled ? new Map(s.nodes) : s.nodes;
    if (settled) {
      for (const n of run.nodes) {
        const cur = nodes.get(n.nodeId) ?? EMPTY_NODE;
        const next: NodeRunState = {
          ...cur,
          status: n.status,
          attempt: n.attempt,
          input: n.input ?? cur.input,
          output: n.output ?? cur.output,
          error: n.error,
          durationMs: n.durationMs,
          usage: n.usage,
        };
        if (!sameNode(cur, next)) nodes.set(n.nodeId, next);
      }
    }
    this.store.set({
      ...s,
      nodes,
      status: settled ? run.status : s.status,
      error: settled ? run.error : s.error,
      outputs: settled ? run.outputs : s.outputs,
      inputs: run.inputs,
      startedAt: run.startedAt ?? run.createdAt,
      finishedAt: settled ? run.finishedAt : s.finishedAt,
    });
  }
}

function sameNode(a: NodeRunState, b: NodeRunState) {
  return (
    a.status === b.status &&
    a.attempt === b.attempt &&
    a.durationMs === b.durationMs &&
    a.output === b.output &&
    a.error === b.error &&
    a.input === b.input
  );
}

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
            name: d.fromNodeId
              ? `Resumed from “${String(d.fromNodeId)}”`
              : `Resumed${reused.size ? ` (reusing ${reused.size} succeeded node${reused.size > 1 ? 's' : ''})` : ''}`,
          });
        }
        break;
      }
      case 'node.started': {
        if (!e.nodeId) break;
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
        const sp = editable(e.spanId);
        const retry = d.retry as { attempt?: number; nextInMs?: number; error?: ErrorJson } | undefined;
        if (sp) {
          sp.notes.push(
            retry
              ? `Attempt ${retry.attempt} failed (${retry.error?.message ?? 'error'}); retrying in ${retry.nextInMs} ms`
              : JSON.stringify(d),
          );
          if (retry?.attempt) sp.attempt = retry.attempt + 1;
        }
        if (e.nodeId && retry?.attempt) setNode(e.nodeId, { attempt: retry.attempt + 1, tokens: '' });
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
        if (sp) Object.assign(sp, patch);
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
        const nodeId = (d.nodeId as string | undefined) ?? e.nodeId ?? null;
        s.waitingNodeId = nodeId;
        s.waitingPrompt = (d.prompt as string | undefined) ?? (d.question as string | undefined) ?? null;
        if (nodeId) {
          setNode(nodeId, { status: 'waiting' });
          addTop({
            spanId: `waiting-${e.seq}`,
            kind: 'node',
            nodeId,
            type: 'human_input',
            name: nodeId,
            status: 'waiting',
            tokens: '',
            notes: s.waitingPrompt ? [`Waiting for an answer: ${s.waitingPrompt}`] : [],
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
        s.waitingNodeId = null;
        for (const [id, n] of s.nodes)
          if (n.status === 'running' || n.status === 'waiting')
            s.nodes.set(id, { ...n, status: e.type === 'run.succeeded' ? n.status : 'cancelled' });
        break;
      }
      default: {
        // Child spans: agent steps, tool calls, retrieval hits … nested under their parent span.
        const own = spanIndex.has(e.spanId) ? editable(e.spanId) : undefined;
        if (own && own.kind === 'child') {
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

type Usage = { inputTokens?: number; outputTokens?: number };

function newChild(e: TraceEvent, spanId: string): TraceSpan {
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
  switch (e.type) {
    case 'agent.step':
      return {
        ...base,
        name: String(d.title ?? `round ${d.round ?? ''}`),
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
      return { ...base, name: 'retrieval', output: d };
    default:
      return { ...base, output: d };
  }
}

function updateChild(sp: TraceSpan, e: TraceEvent) {
  const d = e.data ?? {};
  if (e.type === 'tool.result') {
    sp.output = d.result;
    sp.status = d.ok === false ? 'failed' : 'succeeded';
    sp.durationMs = (d.durationMs as number) ?? sp.durationMs;
    if (d.ok === false)
      sp.error = { code: String(d.status ?? 'TOOL_FAILED'), message: String(d.result ?? 'the tool failed') };
  } else if (e.type === 'tool.denied') {
    sp.status = 'failed';
    sp.error = { code: 'TOOL_DENIED', message: String(d.message ?? d.reason ?? 'denied') };
  } else {
    sp.notes.push(e.type);
  }
}
