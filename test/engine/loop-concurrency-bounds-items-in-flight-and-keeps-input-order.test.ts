// Guarantees: a list loop with concurrency N runs up to N items' bodies at the same time and never more (counted as
// requests held open by a fake HTTP server, not by timing); its results are in input order whichever item finishes
// first; each item's body node run is a pass of that node in the run's trace (the run panel's timeline shows them as
// iterations, not re-runs); a body the loop cannot run per item fails the loop with a clear error.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTimeline } from '@/components/editor/run/timeline-model';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
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

describe.each(kinds)('loop concurrency on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind, { fetch: createGuardedFetch({ allowlist: [gate.host] }) });
  });
  afterAll(async () => h.close());

  const start = async (graph: Graph, items: unknown[]) => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(graph)))!;
    return (await h.runs.start({ workflow: wf, inputs: { items } })).run;
  };

  it('20 items with concurrency 5: 5 bodies are in flight at once, never more, and each item runs once', async () => {
    const run = await start(fetchLoopGraph(gate.base, { concurrency: 5 }), range(20));
    expect(run.engine).toBe('langgraph');
    let answered = 0;
    while (answered < 20) {
      // The loop keeps 5 items in flight while 5 or more are left: wait for that many, then finish the oldest.
      const expected = Math.min(5, 20 - answered);
      await until(() => gate.held.length === expected, `${expected} requests held (${answered} answered)`);
      expect(gate.inFlight).toBe(expected);
      gate.release(gate.held[0]);
      answered++;
    }
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs).toEqual({ results: expectedResults(20) });
    expect(gate.maxInFlight).toBe(5);
    expect(range(20).map((i) => gate.arrivals.get(i))).toEqual(range(20).map(() => 1));
    // Each item's call names its operation, as on a sequential loop's pass: runId:fetch, then runId:fetch:<index>.
    expect(range(20).map((i) => gate.keys.get(i))).toEqual(
      range(20).map((i) => [`${run.id}:fetch${i ? `:${i}` : ''}`]),
    );

    const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((n) => [n.nodeId, n]));
    expect(nodes.loop).toMatchObject({ status: 'succeeded', attempt: 1 });
    expect(nodes.loop.output).toMatchObject({ index: 20, done: true, count: 20, results: expectedResults(20) });
    // The body node's snapshot is its last item's run, as after a sequential loop.
    expect(nodes.fetch).toMatchObject({ status: 'succeeded', attempt: 20 });
    expect((nodes.fetch.output as { body: unknown }).body).toEqual({ text: 'item-19' });
    expect(nodes.end.status).toBe('succeeded');

    // Every item's body run is a pass of `fetch` (its own span, `iteration` = the item) in the trace.
    const events = await h.events(run.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const started = events.filter((e) => e.type === 'node.started' && e.nodeId === 'fetch');
    expect(started.map((e) => e.data.iteration ?? 0).sort((a, b) => Number(a) - Number(b))).toEqual(range(20));
    expect(new Set(started.map((e) => e.spanId)).size).toBe(20);
    expect(events.filter((e) => e.type === 'node.succeeded' && e.nodeId === 'fetch')).toHaveLength(20);
    expect(events.filter((e) => e.type === 'node.started' && e.nodeId === 'loop')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'node.skipped')).toHaveLength(0);

    // The run panel's timeline: 20 iteration bars of `fetch`, numbered by item, none taken for a re-run.
    const bars = [...buildTimeline(events as TraceEvent[]).bars.values()].filter((b) => b.nodeId === 'fetch');
    expect(bars).toHaveLength(20);
    expect(bars.every((b) => b.kind === 'iteration' && b.status === 'succeeded')).toBe(true);
    expect(bars.map((b) => b.iteration).sort((a, b) => a! - b!)).toEqual(range(20).map((i) => i + 1));
    expect(bars.flatMap((b) => b.details).filter(([k]) => k === 'pass')).toEqual([]);
  });

  it('items finishing in reverse order still give results in input order', async () => {
    const run = await start(fetchLoopGraph(gate.base, { concurrency: 6 }), range(6));
    await until(() => gate.held.length === 6, '6 requests held');
    for (const item of [5, 4, 3, 2, 1, 0]) {
      gate.release(item);
      if (item === 0) break; // the last: the loop finishes
      // The item is finished once the loop has recorded it: only then is the next (earlier) one released.
      await until(async () => {
        const cp = await h.store.getCheckpoint(run.id, 'loop');
        const done = (cp?.state as { done?: Record<string, unknown> } | null)?.done ?? {};
        return String(item) in done;
      }, `item ${item} recorded as finished`);
    }
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('succeeded');
    expect(gate.completionOrder).toEqual([5, 4, 3, 2, 1, 0]);
    const finished = (await h.events(run.id)).filter((e) => e.type === 'node.succeeded' && e.nodeId === 'fetch');
    expect(finished.map((e) => (e.data.output as { body: { text: string } }).body.text)).toEqual(
      [5, 4, 3, 2, 1, 0].map((i) => `item-${i}`),
    );
    expect(done.outputs).toEqual({ results: expectedResults(6) });
    // The checkpoint of finished items is dropped with the loop's success.
    expect((await h.store.getCheckpoint(run.id, 'loop'))?.state ?? null).toBeNull();
  });

  it('each item runs its whole body: a two-node body with a branch, values per item', async () => {
    gate.hold = false;
    const g = fetchLoopGraph(gate.base, { concurrency: 4, collect: '{{label.output.text}}' });
    (g.nodes[0].data.config as { inputs: unknown[] }).inputs.push({ name: 'even', type: 'string' });
    g.nodes.push(
      {
        id: 'odd',
        type: 'condition',
        position: { x: 500, y: 0 },
        data: {
          config: {
            branches: [
              { id: 'even', conditions: [{ left: '{{inputs.even}}', op: 'contains', right: '{{loop.output.item}}' }] },
            ],
          },
        },
      },
      {
        id: 'label',
        type: 'template',
        position: { x: 600, y: 0 },
        data: { config: { template: '{{loop.output.item}}:{{fetch.output.body.text}}:{{odd.output.branch}}' } },
      },
    );
    // fetch → odd? → label, by either branch (the untaken one is skipped within the item only).
    g.edges = g.edges.filter((e) => e.id !== 'e3');
    g.edges.push(
      { id: 'f-odd', source: 'fetch', target: 'odd' },
      { id: 'odd-label-even', source: 'odd', target: 'label', sourceHandle: 'even' },
      { id: 'odd-label-else', source: 'odd', target: 'label', sourceHandle: 'else' },
      { id: 'label-loop', source: 'label', target: 'loop' },
    );
    const wf = (await h.store.getWorkflow(await h.createWorkflow(g)))!;
    const { run } = await h.runs.start({ workflow: wf, inputs: { items: ['a', 'b', 'c', 'd', 'e'], even: 'bd' } });
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs).toEqual({
      results: ['a:item-0:else', 'b:item-1:even', 'c:item-2:else', 'd:item-3:even', 'e:item-4:else'],
    });
  });

  it('a body that is also entered from outside the loop fails the loop clearly, running no item', async () => {
    gate.hold = false;
    const g = fetchLoopGraph(gate.base, { concurrency: 3 });
    g.edges.push({ id: 'leak', source: 'start', target: 'fetch' });
    const run = await start(g, range(3));
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('LOOP_BODY_NOT_CLOSED');
    expect(done.error?.message).toMatch(/"fetch".*"start"/);
    expect(gate.arrivals.size).toBe(0);
  });
});
