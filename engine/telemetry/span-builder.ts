/**
 * From the trace events of one execution of a run (run.started … its last event) to spans, with the parent/child
 * structure of our own trace: run → node → agent step / round → tool call, and retrieval under whoever searched.
 * Pure (no OpenTelemetry import), so the mapping is testable on its own and the exporter only sends.
 *
 * Events are grouped by span id. A group's kind is set by the event that opens it: node.started (a node),
 * agent.step (a model round, or a multi-agent step whose later node.progress on the same span closes it),
 * tool.called / tool.denied / tool.approval (a tool call), retrieval.hits (a search); node.skipped is an instant
 * span. Events that share their node's span but are spans of their own kind (a Knowledge node's retrieval.hits) get
 * a child span with a derived id. Prompts, inputs and outputs become attributes only when `content` is on.
 */
import type { TraceEvent } from '../events/types';
import { ERROR_TYPE, GENAI, OPERATION, PAIFLOW } from './attribute-names';
import { derivedSpanId, otelSpanId } from './ids';
import type { SpanSpec } from './types';

export interface BuildOptions {
  /** Export prompts, inputs, outputs, tool arguments and results, retrieval queries (OTEL_EXPORT_CONTENT=1). */
  content: boolean;
  /** Characters of one content attribute (longer ones are cut). */
  maxContentChars?: number;
  /** The execution's events were cut (the exporter's memory bound): said on the run span. */
  truncated?: boolean;
}

type Attrs = SpanSpec['attributes'];
type Data = Record<string, unknown>;

const RUN_END = new Set(['run.succeeded', 'run.failed', 'run.cancelled', 'run.interrupted', 'run.waiting']);
const OWN_KIND = new Set(['agent.step', 'tool.called', 'tool.denied', 'tool.approval', 'retrieval.hits']);

const obj = (v: unknown): Data => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Data) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Sets only defined values (OTel drops undefined attributes anyway; this keeps the specs readable in tests). */
function put(a: Attrs, key: string, v: string | number | boolean | string[] | undefined) {
  if (v !== undefined) a[key] = v;
}

function usage(a: Attrs, u: unknown) {
  const x = obj(u);
  put(a, GENAI.inputTokens, num(x.inputTokens));
  put(a, GENAI.outputTokens, num(x.outputTokens));
  put(a, GENAI.cacheReadTokens, num(x.cachedTokens) || undefined);
}

function errorOf(a: Attrs, s: Partial<SpanSpec>, err: unknown) {
  const e = obj(err);
  const code = str(e.code) ?? 'ERROR';
  a[ERROR_TYPE] = code;
  a[PAIFLOW.errorCode] = code;
  s.status = 'error';
  s.statusMessage = str(e.message);
}

interface Group {
  id: string;
  events: TraceEvent[];
}

export function buildSpans(events: TraceEvent[], o: BuildOptions): SpanSpec[] {
  const started = events.find((e) => e.type === 'run.started');
  if (!started) return [];
  const runId = started.runId;
  const max = o.maxContentChars ?? 8_000;
  const content = (v: unknown): string | undefined => {
    if (!o.content || v === undefined) return undefined;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > max ? `${s.slice(0, max)}…` : s;
  };
  const times = new Map<TraceEvent, number>();
  const at = (e: TraceEvent) => {
    let t = times.get(e);
    if (t === undefined) times.set(e, (t = Date.parse(e.ts)));
    return t;
  };
  const sid = (s: string) => otelSpanId(runId, s);
  const runSpanId = sid(started.spanId);

  const groups = new Map<string, Group>();
  for (const e of events) {
    if (e.type.startsWith('run.') || e.type === 'node.token') continue;
    const id = sid(e.spanId);
    if (id === runSpanId) continue;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { id, events: [] }));
    g.events.push(e);
  }
  const parentOf = (g: Group) => {
    const p = g.events.find((e) => e.parentSpanId)?.parentSpanId;
    const id = p ? sid(p) : runSpanId;
    return id !== g.id && (id === runSpanId || groups.has(id)) ? id : runSpanId;
  };

  const spans: SpanSpec[] = [];
  /** Spans with no event that closes them (a paused node, a multi-agent step): they end with their last child. */
  const open = new Set<string>();
  const nodeInput = new Map<string, Data>(); // node span → its resolved config (node.started's input)
  const spec = (id: string, parent: string, name: string, first: TraceEvent): SpanSpec => ({
    spanId: id,
    parentSpanId: parent,
    name,
    startMs: at(first),
    endMs: at(first),
    attributes: {},
    status: 'unset',
  });

  for (const g of groups.values()) {
    const parent = parentOf(g);
    const opener = g.events.find((e) => e.type === 'node.started' || e.type === 'node.skipped' || OWN_KIND.has(e.type));
    if (!opener) continue;
    if (opener.type === 'node.started' || opener.type === 'node.skipped') {
      const s = nodeSpan(g, parent, opener);
      spans.push(s);
      // Spans of their own kind emitted on the node's span: children with derived ids.
      let prev = opener;
      for (const e of g.events) {
        if (OWN_KIND.has(e.type)) {
          const child = ownKindSpan([e], derivedSpanId(runId, `seq:${e.seq}`), s.spanId, e);
          if (child) {
            child.startMs = Math.min(at(prev), child.startMs);
            spans.push(child);
          }
        }
        prev = e;
      }
    } else {
      const s = ownKindSpan(g.events, g.id, parent, opener);
      if (s) spans.push(s);
    }
  }

  function nodeSpan(g: Group, parent: string, opener: TraceEvent): SpanSpec {
    const d = opener.data;
    const type = str(d.type) ?? 'node';
    const s = spec(g.id, parent, `${type} ${opener.nodeId ?? ''}`.trim(), opener);
    const a = s.attributes;
    a[PAIFLOW.runId] = runId; // on the run's and its nodes' spans (the rest are found by the trace id)
    put(a, PAIFLOW.nodeId, opener.nodeId);
    a[PAIFLOW.nodeType] = type;
    if (opener.type === 'node.skipped') {
      a[PAIFLOW.nodeStatus] = 'skipped';
      return s;
    }
    put(a, PAIFLOW.attempt, num(d.attempt));
    const input = obj(d.input);
    nodeInput.set(g.id, input);
    const model = str(input.model);
    if (type === 'llm') a[GENAI.operation] = OPERATION.chat;
    if (type === 'agent' || type === 'multi_agent') {
      a[GENAI.operation] = OPERATION.invokeAgent;
      put(a, GENAI.agentName, opener.nodeId);
    }
    put(a, GENAI.requestModel, model);
    put(a, PAIFLOW.nodeInput, content(d.input));
    const end = g.events.find((e) => e.type === 'node.succeeded' || e.type === 'node.failed');
    for (const e of g.events) {
      const retry = obj(e.data.retry);
      if (e.type === 'node.progress' && Object.keys(retry).length)
        (s.events ??= []).push({
          name: 'paiflow.node.retry',
          atMs: at(e),
          attributes: {
            [PAIFLOW.attempt]: num(retry.attempt) ?? 0,
            [ERROR_TYPE]: str(obj(retry.error).code) ?? 'ERROR',
          },
        });
    }
    if (!end) {
      // Paused (waiting for a person or an approval), or the execution stopped before the node finished.
      const waiting = g.events.some((e) => e.type === 'node.progress' && e.data.waiting !== undefined);
      a[PAIFLOW.nodeStatus] = waiting ? 'waiting' : 'unfinished';
      s.endMs = at(g.events[g.events.length - 1]);
      open.add(s.spanId);
      return s;
    }
    s.endMs = at(end);
    const ed = end.data;
    put(a, PAIFLOW.attempt, num(ed.attempt));
    if (end.type === 'node.succeeded') {
      a[PAIFLOW.nodeStatus] = 'succeeded';
      s.status = 'ok';
      usage(a, ed.usage);
      put(a, GENAI.responseModel, str(obj(ed.output).model));
      if (type === 'llm') put(a, GENAI.providerName, str(obj(ed.output).providerName));
      put(a, PAIFLOW.nodeOutput, content(ed.output));
    } else if (ed.cancelled) {
      a[PAIFLOW.nodeStatus] = 'cancelled';
      put(a, PAIFLOW.errorCode, str(obj(ed.error).code));
    } else {
      a[PAIFLOW.nodeStatus] = 'failed';
      errorOf(a, s, ed.error);
    }
    return s;
  }

  /** The model requested by the nearest node above (its resolved config's `model`). */
  function requestedModel(parent: string): string | undefined {
    for (let id: string | undefined = parent, hops = 0; id && hops < 64; hops++) {
      const input = nodeInput.get(id);
      if (input) return str(input.model);
      const g = groups.get(id);
      id = g ? parentOf(g) : undefined;
    }
    return undefined;
  }

  function ownKindSpan(evs: TraceEvent[], id: string, parent: string, opener: TraceEvent): SpanSpec | undefined {
    const d = opener.data;
    if (opener.type === 'agent.step') return stepSpan(evs, id, parent, opener, d);
    if (opener.type === 'retrieval.hits') {
      const source = str(d.knowledgeBaseId) ?? str(d.source) ?? 'knowledge';
      const s = spec(id, parent, `${OPERATION.retrieval} ${source}`, opener);
      const a = s.attributes;
      a[GENAI.operation] = OPERATION.retrieval;
      a[GENAI.dataSourceId] = source;
      a[PAIFLOW.retrievalSource] = str(d.source) ?? 'knowledge';
      put(a, PAIFLOW.retrievalMode, str(d.mode));
      const hits = Array.isArray(d.hits) ? d.hits.map(obj) : [];
      a[PAIFLOW.hits] = hits.length;
      put(a, GENAI.retrievalQuery, content(d.query));
      put(
        a,
        GENAI.retrievalDocuments,
        content(hits.map((h) => ({ id: h.documentId ?? h.id, chunk: h.chunkIndex, score: h.score }))),
      );
      s.status = 'ok';
      return s;
    }
    // A tool call: tool.called → tool.result, or tool.denied; tool.approval first when a person decided on it.
    const called = evs.find((e) => e.type === 'tool.called');
    const result = evs.find((e) => e.type === 'tool.result');
    const denied = evs.find((e) => e.type === 'tool.denied');
    const approval = evs.find((e) => e.type === 'tool.approval');
    const first = called ?? denied ?? opener;
    const name = str(first.data.name) ?? str(d.name) ?? 'tool';
    const s = spec(id, parent, `${OPERATION.executeTool} ${name}`, opener);
    const a = s.attributes;
    a[GENAI.operation] = OPERATION.executeTool;
    a[GENAI.toolName] = name;
    a[GENAI.toolType] = 'function';
    put(a, GENAI.toolCallId, str(first.data.toolCallId) ?? str(d.toolCallId));
    put(a, PAIFLOW.round, num(first.data.round));
    put(a, PAIFLOW.approval, str(approval?.data.decision));
    put(a, GENAI.toolCallArguments, content(called?.data.args ?? denied?.data.args));
    const last = result ?? denied ?? evs[evs.length - 1];
    s.endMs = at(last);
    if (result) {
      const status = str(result.data.status) ?? (result.data.ok ? 'ok' : 'failed');
      a[PAIFLOW.toolStatus] = status;
      put(a, GENAI.toolCallResult, content(result.data.result));
      if (result.data.ok === false || status !== 'ok') {
        a[ERROR_TYPE] = status;
        s.status = 'error';
      } else s.status = 'ok';
    } else if (denied) {
      a[PAIFLOW.toolStatus] = 'denied';
      put(a, PAIFLOW.deniedReason, str(denied.data.reason));
    } else {
      a[PAIFLOW.toolStatus] = 'unfinished';
      open.add(id);
    }
    return s;
  }

  function stepSpan(evs: TraceEvent[], id: string, parent: string, opener: TraceEvent, d: Data): SpanSpec {
    const model = str(d.model);
    const chat = !!model || d.usage !== undefined;
    const title = str(d.title) ?? 'agent step';
    const s = spec(id, parent, chat ? `${OPERATION.chat} ${model ?? ''}`.trim() : title, opener);
    const a = s.attributes;
    put(a, PAIFLOW.stepKind, str(d.kind) ?? (chat ? 'round' : undefined));
    put(a, PAIFLOW.stepId, str(d.stepId));
    put(a, PAIFLOW.round, num(d.round));
    const duration = num(d.durationMs);
    if (chat) {
      a[GENAI.operation] = OPERATION.chat;
      put(a, GENAI.providerName, str(d.providerName));
      put(a, GENAI.requestModel, requestedModel(parent) ?? model);
      put(a, GENAI.responseModel, model);
      usage(a, d.usage);
      const finish = str(d.finishReason);
      if (finish) a[GENAI.finishReasons] = [finish];
      const calls = Array.isArray(d.toolCalls) ? d.toolCalls.map(obj) : [];
      a[PAIFLOW.toolCalls] = calls.length;
      const parts = [
        ...(str(d.text) ? [{ type: 'text', content: d.text }] : []),
        ...calls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.args })),
      ];
      put(
        a,
        GENAI.outputMessages,
        content([{ role: 'assistant', parts, ...(finish ? { finish_reason: finish } : {}) }]),
      );
    }
    if (duration !== undefined) {
      // A model round: the event is emitted when the response is in, with how long the request took.
      s.startMs = at(opener) - duration;
      s.endMs = at(opener);
      s.status = 'ok';
      return s;
    }
    // A multi-agent step or attempt: closed by a later node.progress on its span (or by its last child).
    const last = evs[evs.length - 1];
    s.endMs = at(last);
    const status = str(last.data.status);
    if (status === 'failed') {
      s.status = 'error';
      a[ERROR_TYPE] = 'STEP_FAILED';
      s.statusMessage = str(last.data.error);
    } else if (status === 'succeeded') s.status = 'ok';
    else open.add(id);
    return s;
  }

  // Open spans end with their last descendant (children first: deepest spans come later in event order).
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  // An agent span names the provider of its model calls (the first that says, when roles use different ones).
  for (const s of spans) {
    const provider = s.attributes[GENAI.providerName];
    if (s.attributes[GENAI.operation] !== OPERATION.chat || provider === undefined) continue;
    let p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined;
    for (let hops = 0; p && hops < 64; hops++) {
      if (p.attributes[GENAI.operation] === OPERATION.invokeAgent) {
        if (p.attributes[GENAI.providerName] === undefined) p.attributes[GENAI.providerName] = provider;
        break;
      }
      p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined;
    }
  }
  for (let i = spans.length - 1; i >= 0; i--) {
    const s = spans[i];
    const p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined;
    if (p && open.has(p.spanId)) p.endMs = Math.max(p.endMs, s.endMs);
  }

  const run = spec(runSpanId, '', `${OPERATION.invokeWorkflow} ${str(started.data.workflowId) ?? 'run'}`, started);
  delete run.parentSpanId;
  const a = run.attributes;
  const sd = started.data;
  a[GENAI.operation] = OPERATION.invokeWorkflow;
  a[PAIFLOW.runId] = runId;
  put(a, PAIFLOW.workflowId, str(sd.workflowId));
  put(a, PAIFLOW.versionId, str(sd.versionId));
  put(a, PAIFLOW.engine, str(sd.engine));
  a[PAIFLOW.runResumed] = sd.resumed === true;
  if (o.truncated) a[PAIFLOW.truncated] = true;
  const end = [...events].reverse().find((e) => RUN_END.has(e.type));
  const last = events[events.length - 1];
  run.endMs = Math.max(at(end ?? last), ...spans.map((s) => s.endMs));
  const status = end ? end.type.slice('run.'.length) : 'unfinished';
  a[PAIFLOW.runStatus] = status;
  if (status === 'succeeded') {
    run.status = 'ok';
    put(a, PAIFLOW.runOutputs, content(end!.data.outputs));
  } else if (status === 'failed' || status === 'interrupted') {
    errorOf(a, run, end!.data.error ?? { code: status.toUpperCase() });
  }
  for (const s of spans) if (s.startMs < run.startMs) run.startMs = s.startMs;
  return [run, ...spans];
}
