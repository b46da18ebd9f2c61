// Guarantees: a parallel loop's finished items are checkpointed as they finish, so a resume after one item failed or
// after a cancel runs only the items that had not finished: the counting server sees every finished item's request
// exactly once over both executions, the failed or cancelled items again (a failed item's whole body), and the
// results come out whole and in input order. The body's nodes are never restarted on their own outside the loop.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createHarness, probeCalls, probeScript, resetProbes, type Harness } from '../support/harness';
import { until } from '../support/until';
import { expectedResults, fetchLoopGraph, range, startGateServer, type GateServer } from './loop-concurrency-support';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

let gate: GateServer;
beforeAll(async () => {
  gate = await startGateServer();
});
afterAll(async () => gate.close());
beforeEach(() => {
  gate.reset();
  resetProbes();
});

describe.each(kinds)('parallel loop resume on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind, { fetch: createGuardedFetch({ allowlist: [gate.host] }) });
  });
  afterAll(async () => h.close());

  const start = async (items: unknown[], concurrency: number) => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(fetchLoopGraph(gate.base, { concurrency }))))!;
    return (await h.runs.start({ workflow: wf, inputs: { items } })).run;
  };
  const finishedItems = async (runId: string) => {
    const cp = await h.store.getCheckpoint(runId, 'loop');
    return Object.keys((cp?.state as { done?: Record<string, unknown> } | null)?.done ?? {}).map(Number);
  };

  it('after one item failed, a resume runs the failed item and the unstarted ones, never a finished one', async () => {
    gate.failItems.add(1);
    const run = await start(range(12), 3);
    // Items 0 and 2 are held while item 1 fails: no new item starts after a failure; the running ones finish.
    await until(async () => {
      const evs = await h.events(run.id);
      return evs.some((e) => e.type === 'node.failed' && e.nodeId === 'fetch');
    }, 'item 1 failed');
    await until(() => gate.held.length === 2, 'items 0 and 2 held');
    expect([...gate.held].sort()).toEqual([0, 2]);
    gate.release(0);
    gate.release(2);
    await h.runs.waitFor(run.id);
    const failed = (await h.store.getRun(run.id))!;
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('HTTP_STATUS');
    expect(failed.error?.message).toMatch(/item 1 of loop "loop" failed at node "fetch"/);
    expect(failed.error?.details).toMatchObject({ nodeId: 'loop', cause: { item: 1, nodeId: 'fetch' } });
    expect((await finishedItems(run.id)).sort()).toEqual([0, 2]);
    const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((n) => [n.nodeId, n]));
    expect(nodes.loop.status).toBe('failed');
    expect(nodes.fetch.status).toBe('failed'); // the failed item's snapshot, not a later item's
    expect(range(12).filter((i) => gate.arrivals.has(i))).toEqual([0, 1, 2]);

    gate.failItems.clear();
    gate.hold = false;
    await h.runs.resume(run.id);
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs).toEqual({ results: expectedResults(12) });
    // Each item's body finished exactly once over both executions; item 1 was asked twice (failed, then fixed).
    expect(range(12).map((i) => gate.completed.get(i))).toEqual(range(12).map(() => 1));
    expect(range(12).map((i) => gate.arrivals.get(i))).toEqual(range(12).map((i) => (i === 1 ? 2 : 1)));
    // The failed item's call is sent again under the same key, so the receiver can deduplicate it.
    expect(gate.keys.get(1)).toEqual([`${run.id}:fetch:1`, `${run.id}:fetch:1`]);
    // The resume re-ran the loop only (not its body on its own outside the loop, nor the start).
    const resumed = await h.events(run.id);
    const since = resumed.findLastIndex((e) => e.type === 'run.started');
    const rerun = resumed.slice(since).filter((e) => e.type === 'node.started');
    expect(new Set(rerun.map((e) => e.nodeId))).toEqual(new Set(['loop', 'fetch', 'end']));
    expect(rerun.filter((e) => e.nodeId === 'fetch')).toHaveLength(10);
  });

  it('after a cancel, a resume runs only the items that had not finished', async () => {
    const run = await start(range(9), 3);
    // Items 0–3 finish (each recorded before the next is released); 4, 5 and 6 are in flight when the run is cancelled.
    for (const item of [0, 1, 2, 3]) {
      await until(() => gate.held.includes(item), `item ${item} held`);
      gate.release(item);
      await until(async () => (await finishedItems(run.id)).includes(item), `item ${item} recorded`);
    }
    await until(() => gate.held.length === 3, 'items 4, 5 and 6 held');
    expect([...gate.held].sort()).toEqual([4, 5, 6]);
    await h.runs.cancel(run.id);
    await h.runs.waitFor(run.id);
    expect((await h.store.getRun(run.id))!.status).toBe('cancelled');
    await until(() => gate.inFlight === 0, 'the cancelled requests aborted');
    expect((await finishedItems(run.id)).sort()).toEqual([0, 1, 2, 3]);

    gate.hold = false;
    await h.runs.resume(run.id);
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs).toEqual({ results: expectedResults(9) });
    expect(range(9).map((i) => gate.completed.get(i))).toEqual(range(9).map(() => 1));
    // The items cancelled in flight were sent again; the finished ones and the unstarted ones once.
    expect(range(9).map((i) => gate.arrivals.get(i))).toEqual([1, 1, 1, 1, 2, 2, 2, 1, 1]);
  });

  it('an item that failed at the second node of its body runs its whole body again, and only that item', async () => {
    gate.hold = false;
    probeScript.set('check', { fail: 1 }); // the first item to get there fails
    const g = fetchLoopGraph(gate.base, { concurrency: 3 });
    g.nodes.push({ id: 'check', type: 'probe', position: { x: 500, y: 0 }, data: { config: {} } });
    g.edges = g.edges.filter((e) => e.id !== 'e3');
    g.edges.push({ id: 'f-c', source: 'fetch', target: 'check' }, { id: 'c-l', source: 'check', target: 'loop' });
    const wf = (await h.store.getWorkflow(await h.createWorkflow(g)))!;
    const { run } = await h.runs.start({ workflow: wf, inputs: { items: range(8) } });
    await h.runs.waitFor(run.id);
    const failed = (await h.store.getRun(run.id))!;
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('PROBE_FAILED');
    const bad = (failed.error?.details as { cause: { item: number } }).cause.item;
    const finished = await finishedItems(run.id);
    expect(finished).not.toContain(bad);
    const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((n) => [n.nodeId, n]));
    expect(nodes.check.status).toBe('failed');
    expect(nodes.fetch.status).toBe('succeeded'); // some item's fetch: it must not make the loop's body reusable

    await h.runs.resume(run.id);
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs).toEqual({ results: expectedResults(8) });
    expect(range(8).map((i) => gate.completed.get(i))).toEqual(range(8).map((i) => (i === bad ? 2 : 1)));
    expect(probeCalls.get('check')).toBe(9);
  });
});
