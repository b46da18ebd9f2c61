// Guarantees, on both engines (PGlite): a node's `timeoutMs` aborts its attempt (its signal fires) and fails it
// with NODE_TIMEOUT; a timed-out or failed attempt is retried per `data.retry` with a node.progress event between
// attempts; the snapshot records the attempt count; a node that recovers on retry succeeds and its successors run once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { chainGraph, createHarness, probeCalls, probeScript, resetProbes, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;
const cases = kinds.flatMap((kind) => (['dag', 'langgraph'] as const).map((engine) => [kind, engine] as const));

function withP1(data: Record<string, unknown>): Graph {
  const g = chainGraph(2);
  const p1 = g.nodes.find((n) => n.id === 'p1')!;
  p1.data = { ...p1.data, ...data };
  return g;
}

describe.each(cases)('node timeout and retry on %s, %s engine', (kind, engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => resetProbes());

  it(
    'a hanging node is aborted at timeoutMs, retried, ' + 'and fails with NODE_TIMEOUT; its successor never runs',
    async () => {
      probeScript.set('p1', { hang: true });
      const wf = await h.createWorkflow(
        withP1({ timeoutMs: 150, retry: { maxAttempts: 2, backoffMs: 20 } }),
        'timeout',
        engine,
      );
      const t0 = Date.now();
      const run = await h.runToEnd(wf);
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(run.status).toBe('failed');
      expect(run.error).toMatchObject({ code: 'NODE_TIMEOUT' });
      expect(run.error?.message).toMatch(/timed out after 150 ms/);
      expect(probeCalls.get('p1')).toBe(2);
      expect(probeCalls.get('p2')).toBeUndefined();
      const events = await h.events(run.id);
      const retries = events.filter((e) => e.nodeId === 'p1' && e.type === 'node.progress');
      expect(retries).toHaveLength(1);
      expect(retries[0].data).toMatchObject({ retry: { attempt: 1, nextInMs: 20, error: { code: 'NODE_TIMEOUT' } } });
      const p1 = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'p1')!;
      expect(p1).toMatchObject({ status: 'failed', attempt: 2, error: { code: 'NODE_TIMEOUT' } });
    },
  );

  it('a node that fails once (transiently) and succeeds on retry succeeds, and its successor runs once', async () => {
    probeScript.set('p1', { fail: 1, transient: true });
    const wf = await h.createWorkflow(withP1({ retry: { maxAttempts: 3, backoffMs: 10 } }), 'retry', engine);
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(probeCalls.get('p1')).toBe(2);
    expect(probeCalls.get('p2')).toBe(1);
    const p1 = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'p1')!;
    expect(p1).toMatchObject({ status: 'succeeded', attempt: 2 });
  });

  it('a deterministic failure (a PaiError not marked retryable) is not retried', async () => {
    probeScript.set('p1', { fail: 1 });
    const run = await h.runToEnd(
      await h.createWorkflow(withP1({ retry: { maxAttempts: 3, backoffMs: 10 } }), 'no-retry', engine),
    );
    expect(run.error?.code).toBe('PROBE_FAILED');
    expect(probeCalls.get('p1')).toBe(1);
  });

  it('without a retry policy a timeout fails at the first attempt', async () => {
    probeScript.set('p1', { hang: true });
    const run = await h.runToEnd(await h.createWorkflow(withP1({ timeoutMs: 100 }), 'timeout-once', engine));
    expect(run.error?.code).toBe('NODE_TIMEOUT');
    expect(probeCalls.get('p1')).toBe(1);
  });
});
