/**
 * OpenTelemetry export of runs, from the settings: with OTEL_EXPORTER_OTLP_ENDPOINT set, every run this process
 * executes (the app's own, or a queue worker's) is sent as a trace over OTLP/HTTP. The exporter taps the process's
 * event bus, so it sees exactly the events this process's runs publish; the SDK is loaded only when export is on.
 */
import type { EventBus } from '@/engine/events/types';
import type { Settings } from '@/engine/config/settings';
import type { OtlpExporterOptions } from '@/engine/telemetry/otlp-trace-exporter';
import type { TraceExporter } from '@/engine/telemetry/types';

export interface Telemetry {
  exporter: TraceExporter;
  /** Stops tapping the bus and sends what is left (bounded by the export timeout). */
  close(): Promise<void>;
}

/** What the settings do not say (tests and benchmarks tune these). */
export type ExportTuning = Pick<OtlpExporterOptions, 'scheduledDelayMs' | 'maxQueuedSpans' | 'warn'>;

/** The exporter the settings ask for; null when OTEL_EXPORTER_OTLP_ENDPOINT is unset. */
export async function createTraceExporter(
  s: Pick<
    Settings,
    | 'OTEL_EXPORTER_OTLP_ENDPOINT'
    | 'OTEL_EXPORTER_OTLP_TIMEOUT'
    | 'OTEL_EXPORTER_OTLP_HEADERS'
    | 'OTEL_SERVICE_NAME'
    | 'OTEL_EXPORT_CONTENT'
  >,
  opts: ExportTuning = {},
): Promise<TraceExporter | null> {
  if (!s.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const { OtlpTraceExporter } = await import('@/engine/telemetry/otlp-trace-exporter');
  return new OtlpTraceExporter({
    endpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT,
    timeoutMs: s.OTEL_EXPORTER_OTLP_TIMEOUT,
    headers: { ...s.OTEL_EXPORTER_OTLP_HEADERS },
    serviceName: s.OTEL_SERVICE_NAME,
    content: s.OTEL_EXPORT_CONTENT,
    ...opts,
  });
}

/** Exports the runs `bus` carries when the settings ask for it; null otherwise. */
export async function startTelemetry(
  s: Parameters<typeof createTraceExporter>[0],
  bus: EventBus,
  opts: ExportTuning = {},
): Promise<Telemetry | null> {
  const exporter = await createTraceExporter(s, opts);
  if (!exporter) return null;
  const { exportFromBus } = await import('@/engine/telemetry/export-from-bus');
  const stop = exportFromBus(bus, exporter);
  return {
    exporter,
    async close() {
      stop();
      await exporter.shutdown();
    },
  };
}
