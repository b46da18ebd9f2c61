/**
 * Exporting runs as traces to an outside system (OpenTelemetry). The engine hands every trace event of the runs
 * executed in this process to a TraceExporter and says when a run's execution ended; the exporter does its work off
 * the run's path: onEvent and onRunEnd only record and schedule, they never wait and never throw.
 */
import type { TraceEvent } from '../events/types';

export interface TraceExporter {
  /** A trace event of a run executing in this process, as published (called synchronously: keep it cheap). */
  onEvent(event: TraceEvent): void;
  /** The run's execution in this process ended (finished, paused or failed to start): its spans may be sent. */
  onRunEnd(runId: string): void;
  /** Sends what is queued; resolves when sent or when the export timeout passed (never rejects). */
  flush(): Promise<void>;
  /** Flushes (bounded by the export timeout) and stops. */
  shutdown(): Promise<void>;
}

/** One span, built from our trace events; ids are OTel's (32 / 16 hex), times are epoch milliseconds. */
export interface SpanSpec {
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean | string[]>;
  status: 'ok' | 'error' | 'unset';
  statusMessage?: string;
  /** Point-in-time events on the span (a node's retries). */
  events?: { name: string; atMs: number; attributes: Record<string, string | number | boolean> }[];
}
