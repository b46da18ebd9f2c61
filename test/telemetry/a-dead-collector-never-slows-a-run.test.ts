// Guarantees: exporting happens off the run's path. With a collector that accepts connections and never answers, a
// run still completes well within the export timeout while the previous run's export hangs; flushing gives up after
// the export timeout instead of hanging; a refused collector only yields a warning; and when more spans wait to be
// sent than the bound allows, a whole run's spans are dropped with a warning (memory stays bounded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '@/engine/config/settings';
import { startTelemetry } from '@/lib/server/runs/telemetry';
import { until } from '../support/until';
import { chainGraph, createHarness, type Harness } from '../support/harness';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';

const TIMEOUT_MS = 4_000;

describe('a dead or full OpenTelemetry collector', () => {
  let h: Harness;
  let wf: string;
  const receivers: OtlpReceiver[] = [];

  beforeAll(async () => {
    h = await createHarness('pglite');
    wf = await h.createWorkflow(chainGraph(3));
    await h.runToEnd(wf); // warm up: the first run pays for the engine's lazy set-up, not the exporter
  });
  afterAll(async () => {
    await h?.close();
    for (const r of receivers) await r.close();
  });

  async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const t0 = performance.now();
    const value = await fn();
    return { value, ms: performance.now() - t0 };
  }

  it('lets runs finish while an export hangs, and flush gives up after the export timeout', async () => {
    const dead = await startOtlpReceiver('hang');
    receivers.push(dead);
    const warnings: string[] = [];
    const telemetry = (await startTelemetry(
      parseSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: dead.url, OTEL_EXPORTER_OTLP_TIMEOUT: String(TIMEOUT_MS) }),
      h.bus,
      { scheduledDelayMs: 1, warn: (m) => warnings.push(m) },
    ))!;
    try {
      const first = await timed(() => h.runToEnd(wf));
      expect(first.value.status).toBe('succeeded');
      // The first run's spans are being sent to a collector that never answers.
      await until(() => dead.connections > 0, 'the export to reach the collector', 3_000);
      const second = await timed(() => h.runToEnd(wf));
      expect(second.value.status).toBe('succeeded');
      // Wide margins: a run of three probes takes tens of ms; waiting on the export would take TIMEOUT_MS.
      expect(first.ms).toBeLessThan(TIMEOUT_MS / 2);
      expect(second.ms).toBeLessThan(TIMEOUT_MS / 2);
      expect(dead.bodies).toHaveLength(0); // nothing was ever answered (or read)

      const flush = await timed(() => telemetry.exporter.flush());
      expect(flush.ms, 'flush waits for the hanging export, then gives up').toBeGreaterThan(TIMEOUT_MS / 4);
      expect(flush.ms).toBeLessThan(TIMEOUT_MS * 2 + 2_000);
    } finally {
      const closing = await timed(() => telemetry.close());
      expect(closing.ms).toBeLessThan(TIMEOUT_MS * 2 + 2_000);
    }
    await until(() => warnings.some((w) => w.includes('could not send spans')), 'a warning', TIMEOUT_MS * 2);
  });

  it('only warns when the collector refuses connections', async () => {
    const refused = await startOtlpReceiver('refuse');
    const warnings: string[] = [];
    const telemetry = (await startTelemetry(
      parseSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: refused.url, OTEL_EXPORTER_OTLP_TIMEOUT: String(TIMEOUT_MS) }),
      h.bus,
      { scheduledDelayMs: 1, warn: (m) => warnings.push(m) },
    ))!;
    try {
      const run = await timed(() => h.runToEnd(wf));
      expect(run.value.status).toBe('succeeded');
      expect(run.ms).toBeLessThan(TIMEOUT_MS / 2);
      await telemetry.exporter.flush();
      await until(() => warnings.length > 0, 'a warning', TIMEOUT_MS * 2);
      expect(warnings[0]).toMatch(/OpenTelemetry: could not send spans/);
    } finally {
      await telemetry.close();
    }
  });

  it('drops whole runs with a warning when more spans wait than the bound allows', async () => {
    const dead = await startOtlpReceiver('hang');
    receivers.push(dead);
    const warnings: string[] = [];
    // A run of start → p1 … p3 → end is 6 spans: the first fits in a bound of 8, the second does not.
    const telemetry = (await startTelemetry(
      parseSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: dead.url, OTEL_EXPORTER_OTLP_TIMEOUT: String(TIMEOUT_MS) }),
      h.bus,
      { scheduledDelayMs: 1, maxQueuedSpans: 8, warn: (m) => warnings.push(m) },
    ))!;
    try {
      await h.runToEnd(wf);
      await until(() => dead.connections > 0, 'the export to reach the collector', 3_000);
      await h.runToEnd(wf);
      await until(() => warnings.some((w) => w.includes('spans waiting to be sent')), 'a warning', 3_000);
      expect(warnings.find((w) => w.includes('spans waiting'))).toMatch(
        /more than 8 spans .* a run's trace is dropped/,
      );
    } finally {
      await telemetry.close();
    }
  });
});
