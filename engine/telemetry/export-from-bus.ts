/**
 * Feeds a TraceExporter from an EventBus: every event a run's journal publishes in this process passes through the
 * bus's publish(), and RunManager calls release() when the run's execution here ends. Tapping those two on the bus
 * instance (rather than wrapping it) keeps one object that the run manager, the routes and the exporter share, and
 * needs nothing from the runtime. An exporter that throws never reaches the run: the bus's own publish still runs.
 */
import type { EventBus } from '../events/types';
import type { TraceExporter } from './types';

/** Starts exporting the runs this bus carries; returns the function that stops it. */
export function exportFromBus(bus: EventBus, exporter: TraceExporter): () => void {
  const publish = bus.publish;
  const release = bus.release;
  bus.publish = function (this: EventBus, event) {
    try {
      exporter.onEvent(event);
    } catch {
      /* telemetry must never break a run */
    }
    return publish.call(this, event);
  };
  bus.release = function (this: EventBus, runId) {
    try {
      exporter.onRunEnd(runId);
    } catch {
      /* as above */
    }
    return release.call(this, runId);
  };
  return () => {
    bus.publish = publish;
    bus.release = release;
  };
}
