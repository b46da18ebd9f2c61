/**
 * TraceExporter over OTLP/HTTP (JSON) with the official OpenTelemetry SDK. Off the run's path by construction:
 * onEvent only appends to the run's buffer; when the run's execution ends its spans are built on a later turn of
 * the event loop and handed to a BatchSpanProcessor, which sends them from a timer. A slow or dead collector costs
 * at most the export timeout per batch, never a run's time, and memory is bounded twice: events buffered for runs
 * still executing (maxBufferedEvents) and spans waiting to be sent (maxQueuedSpans). What does not fit is dropped
 * with a warning (a whole run's spans at once, never half a trace).
 *
 * Our spans are finished when they are built (ids, times and attributes all come from the events), so they are
 * handed to the processor as ReadableSpans, the SDK's own type for finished spans, without a Tracer: no live span,
 * context or id generator is involved, and the ids exported are ours (see ids.ts).
 */
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime, type SpanContext } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TraceEvent } from '../events/types';
import { GENAI, OPERATION } from './attribute-names';
import { traceIdOf } from './ids';
import { buildSpans } from './span-builder';
import type { SpanSpec, TraceExporter } from './types';

/** An export never takes longer than this, whatever OTEL_EXPORTER_OTLP_TIMEOUT says. */
export const MAX_EXPORT_TIMEOUT_MS = 10_000;

export interface OtlpExporterOptions {
  /** The collector's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName?: string;
  /** Per export request (default 10 s, the SDK's; capped at MAX_EXPORT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Sent to the collector only (e.g. its API key); never part of a span. */
  headers?: Record<string, string>;
  /** Export prompts, inputs, outputs, tool arguments and results (OTEL_EXPORT_CONTENT=1). */
  content?: boolean;
  /** Spans built and not yet sent, at most (default 8192). */
  maxQueuedSpans?: number;
  /** Events held for runs still executing, at most (default 200,000; node.token events are never held). */
  maxBufferedEvents?: number;
  /** How long finished spans wait to be batched (default 1000 ms). */
  scheduledDelayMs?: number;
  warn?: (message: string) => void;
}

const SCOPE = { name: 'paiflow' };
/** Epoch milliseconds as OTel's [seconds, nanoseconds]. */
const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** ExportResultCode.SUCCESS of @opentelemetry/core (not a dependency of ours). */
const EXPORT_SUCCESS = 0;
const WARN_EVERY_MS = 30_000;

interface RunBuffer {
  events: TraceEvent[];
  lastSeq: number;
  truncated: boolean;
}

export class OtlpTraceExporter implements TraceExporter {
  private readonly runs = new Map<string, RunBuffer>();
  private buffered = 0;
  /** Spans handed to the SDK whose export has not settled yet. */
  private queued = 0;
  private readonly building = new Set<Promise<void>>();
  private readonly processor: BatchSpanProcessor;
  private readonly resource: Resource;
  private readonly timeoutMs: number;
  private readonly maxQueued: number;
  private readonly maxBuffered: number;
  private readonly content: boolean;
  private readonly say: (message: string) => void;
  private readonly warned = new Map<string, { at: number; count: number }>();
  private closed = false;

  constructor(o: OtlpExporterOptions) {
    this.timeoutMs = Math.min(Math.max(1, o.timeoutMs ?? MAX_EXPORT_TIMEOUT_MS), MAX_EXPORT_TIMEOUT_MS);
    this.maxQueued = o.maxQueuedSpans ?? 8192;
    this.maxBuffered = o.maxBufferedEvents ?? 200_000;
    this.content = !!o.content;
    this.say = o.warn ?? ((m) => console.warn(m));
    const otlp = new OTLPTraceExporter({
      url: `${o.endpoint.replace(/\/+$/, '')}/v1/traces`,
      timeoutMillis: this.timeoutMs,
      headers: o.headers ?? {},
    });
    const counted: SpanExporter = {
      export: (spans: ReadableSpan[], done) =>
        otlp.export(spans, (r) => {
          this.queued -= spans.length;
          if (r.code !== EXPORT_SUCCESS)
            this.warn('export', spans.length, `could not send spans (${r.error?.message ?? 'export failed'})`);
          done(r);
        }),
      shutdown: () => otlp.shutdown(),
      forceFlush: () => otlp.forceFlush(),
    };
    this.resource = defaultResource().merge(
      resourceFromAttributes({ [ATTR_SERVICE_NAME]: o.serviceName ?? 'paiflow' }),
    );
    this.processor = new BatchSpanProcessor(counted, {
      // Above our own bound, so the processor never drops a span we counted as queued.
      maxQueueSize: this.maxQueued + 1024,
      maxExportBatchSize: 512,
      scheduledDelayMillis: o.scheduledDelayMs ?? 1000,
      exportTimeoutMillis: this.timeoutMs + 1000,
    });
  }

  onEvent(ev: TraceEvent): void {
    if (this.closed || ev.type === 'node.token') return;
    let buf = this.runs.get(ev.runId);
    if (ev.type === 'run.started') {
      if (buf) this.onRunEnd(ev.runId); // a new execution: the previous one's spans go on their own
      buf = { events: [], lastSeq: ev.seq - 1, truncated: false };
      this.runs.set(ev.runId, buf);
    }
    // Not an execution of this process (e.g. the app marking another process's orphan), or a repeated publish.
    if (!buf || ev.seq <= buf.lastSeq) return;
    buf.lastSeq = ev.seq;
    const ends = ev.type.startsWith('run.');
    if (this.buffered >= this.maxBuffered && !ends) {
      if (!buf.truncated) this.warn('buffer', 1, `more than ${this.maxBuffered} events held: a run's trace is cut`);
      buf.truncated = true;
      return;
    }
    buf.events.push(ev);
    this.buffered++;
  }

  onRunEnd(runId: string): void {
    const buf = this.runs.get(runId);
    if (!buf) return;
    this.runs.delete(runId);
    this.buffered -= buf.events.length;
    const p = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.building.delete(p);
      this.send(runId, buf);
    });
    this.building.add(p);
  }

  private send(runId: string, buf: RunBuffer) {
    let specs: SpanSpec[];
    try {
      specs = buildSpans(buf.events, { content: this.content, truncated: buf.truncated });
    } catch (e) {
      this.warn('build', 1, `could not build a run's spans (${(e as Error).message})`);
      return;
    }
    if (!specs.length) return;
    if (this.queued + specs.length > this.maxQueued) {
      this.warn(
        'queue',
        specs.length,
        `more than ${this.maxQueued} spans waiting to be sent: a run's trace is dropped`,
      );
      return;
    }
    this.queued += specs.length;
    const traceId = traceIdOf(runId);
    for (const s of specs) this.emit(traceId, s);
  }

  private emit(traceId: string, s: SpanSpec) {
    const context: SpanContext = { traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED };
    const end = Math.max(s.startMs, s.endMs);
    const span: ReadableSpan = {
      name: s.name,
      kind: s.attributes[GENAI.operation] === OPERATION.chat ? SpanKind.CLIENT : SpanKind.INTERNAL,
      spanContext: () => context,
      parentSpanContext: s.parentSpanId
        ? { traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED }
        : undefined,
      startTime: hrTime(s.startMs),
      endTime: hrTime(end),
      duration: hrTime(end - s.startMs),
      status:
        s.status === 'ok'
          ? { code: SpanStatusCode.OK }
          : s.status === 'error'
            ? { code: SpanStatusCode.ERROR, message: s.statusMessage }
            : { code: SpanStatusCode.UNSET },
      attributes: s.attributes,
      links: [],
      events: (s.events ?? []).map((e) => ({ name: e.name, time: hrTime(e.atMs), attributes: e.attributes })),
      ended: true,
      resource: this.resource,
      instrumentationScope: SCOPE,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
    this.processor.onEnd(span);
  }

  /** At most one warning per kind every 30 s, saying how many were affected meanwhile. */
  private warn(kind: string, count: number, message: string) {
    const w = this.warned.get(kind) ?? { at: 0, count: 0 };
    w.count += count;
    const now = Date.now();
    if (now - w.at >= WARN_EVERY_MS) {
      this.say(`[paiflow] OpenTelemetry: ${message} (${w.count} span(s) or event(s) affected since the last warning)`);
      w.at = now;
      w.count = 0;
    }
    this.warned.set(kind, w);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.building]);
    await this.bounded(this.processor.forceFlush());
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    for (const runId of [...this.runs.keys()]) this.onRunEnd(runId);
    await Promise.all([...this.building]);
    this.closed = true;
    await this.bounded(this.processor.shutdown());
  }

  /** Waits for `p`, but never longer than one export timeout (plus a little): closing never hangs on a collector. */
  private async bounded(p: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      p.catch(() => {}),
      new Promise<void>((r) => {
        timer = setTimeout(r, this.timeoutMs + 1000);
        timer.unref?.();
      }),
    ]);
    clearTimeout(timer);
  }
}
