// Guarantees: a loop with concurrency 1 (the default) is the sequential loop it always was: one item's body at a time,
// each pass a trip around the cycle (the loop node runs once per item plus once to finish), and a run with
// `concurrency: 1` written out records exactly what a run without it records: outputs, snapshots and trace events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/engine/events/types';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import type { NodeRunRecord } from '@/engine/store/types';
import { createHarness, type Harness } from '../support/harness';
import { until } from '../support/until';
import { expectedResults, fetchLoopGraph, range, startGateServer, type GateServer } from './loop-concurrency-support';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

let gate: GateServer;
beforeAll(async () => {
  gate = await startGateServer();
});
afterAll(async () => gate.close());
beforeEach(() => gate.reset());

/** A snapshot without what differs between any two runs (ids, clocks). */
const stable = (n: NodeRunRecord) => ({
  nodeId: n.nodeId,
  type: n.type,
  status: n.status,
  attempt: n.attempt,
  input: n.input,
  output: n.nodeId === 'fetch' ? (n.output as { body: unknown }).body : n.output,
  error: n.error,
});
/** An event without ids, clocks and response headers. */
const shape = (e: TraceEvent) => {
  const { durationMs: _d, workflowId: _w, output, ...data } = e.data as Record<string, unknown>;
  const body = (output as { body?: unknown } | undefined)?.body;
  return {
    type: e.type,
    nodeId: e.nodeId,
    data: { ...data, ...(output !== undefined ? { body: body ?? output } : {}) },
  };
};

describe.each(kinds)('loop with concurrency 1 on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind, { fetch: createGuardedFetch({ allowlist: [gate.host] }) });
  });
  afterAll(async () => h.close());

  it('runs one item at a time around the cycle', async () => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(fetchLoopGraph(gate.base, { concurrency: 1 }))))!;
    const { run } = await h.runs.start({ workflow: wf, inputs: { items: range(6) } });
    for (const item of range(6)) {
      await until(() => gate.held.length === 1, `item ${item} held`);
      expect(gate.held).toEqual([item]);
      gate.release(item);
    }
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ results: expectedResults(6) });
    expect(gate.maxInFlight).toBe(1);
    const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((n) => [n.nodeId, n]));
    expect(nodes.loop.attempt).toBe(7); // a pass per item and the one that takes `done`
    expect(nodes.fetch.attempt).toBe(6);
    const events = await h.events(run.id);
    expect(events.filter((e) => e.type === 'node.started' && e.nodeId === 'loop')).toHaveLength(7);
    // No checkpoint of finished items: each pass's snapshot is the loop's progress.
    expect(await h.store.getCheckpoint(run.id, 'loop')).toBeNull();
  });

  it('concurrency: 1 written out records exactly what a loop without it records', async () => {
    gate.hold = false;
    const runOf = async (loop: Record<string, unknown>) => {
      const wf = (await h.store.getWorkflow(await h.createWorkflow(fetchLoopGraph(gate.base, loop))))!;
      const { run } = await h.runs.start({ workflow: wf, inputs: { items: ['x', 'y', 'z'] } });
      await h.runs.waitFor(run.id);
      return {
        run: (await h.store.getRun(run.id))!,
        nodes: (await h.store.getNodeRuns(run.id)).map(stable).sort((a, b) => a.nodeId.localeCompare(b.nodeId)),
        events: (await h.events(run.id)).map(shape),
      };
    };
    const implicit = await runOf({});
    const explicit = await runOf({ concurrency: 1 });
    expect(implicit.run.status).toBe('succeeded');
    expect(explicit.run.outputs).toEqual(implicit.run.outputs);
    expect(explicit.nodes).toEqual(implicit.nodes);
    expect(explicit.events).toEqual(implicit.events);
    const passes = implicit.events.map((e) => (e.data as { iteration?: number }).iteration);
    expect(passes.filter((i) => i !== undefined)).toEqual([1, 1, 2, 2, 3]);
  });
});
