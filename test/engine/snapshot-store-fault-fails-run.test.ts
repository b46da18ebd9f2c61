// Guarantees, on both engines: when a node's snapshot cannot be persisted the run fails with STORE_WRITE_FAILED and no
// successor starts; afterwards the run resumes, re-running exactly the nodes whose success never became durable.
// Live subscribers hear only what was committed: every live event is the stored event of the same seq.
// (The state-graph engine overlaps each snapshot write with LangGraph's own step: these tests pin that the write is
// still awaited before a successor runs.)
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/engine/events/types';
import type { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { CommitBatch, RunStore } from '@/engine/store/types';
import { chainGraph, createHarness, interceptStore, probeCalls, resetProbes, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

type Fault = 'none' | 'once' | 'outage' | 'final-once';

/**
 * A RunStore whose writes fail on demand: from the commit that persists p2's `succeeded` snapshot, once or until
 * repaired ('once' | 'outage'), or once on the run's final commit (the one carrying its terminal status: 'final-once').
 */
function faultyStore(inner: PrismaStore, ctl: { mode: Fault; down: boolean; injected: number }): RunStore {
  const persistsP2Success = (b: CommitBatch) => !!b.nodes?.some((n) => n.nodeId === 'p2' && n.status === 'succeeded');
  const fail = () => {
    ctl.injected++;
    throw new Error('injected store fault: connection reset');
  };
  return interceptStore(inner, {
    async commit(runId: string, batch: CommitBatch) {
      if (ctl.mode === 'final-once' && batch.run?.status) {
        ctl.mode = 'none';
        fail();
      }
      if ((ctl.mode === 'once' || ctl.mode === 'outage') && !ctl.down && persistsP2Success(batch)) {
        if (ctl.mode === 'once') ctl.mode = 'none';
        else ctl.down = true;
        fail();
      }
      if (ctl.down) fail();
      return inner.commit(runId, batch);
    },
    async updateRun(...args: Parameters<RunStore['updateRun']>) {
      return ctl.down ? fail() : inner.updateRun(...args);
    },
    async heartbeat(...args: Parameters<RunStore['heartbeat']>) {
      return ctl.down ? fail() : inner.heartbeat(...args);
    },
  });
}

const seqsContiguous = (events: TraceEvent[]) => expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
const calls = () => Object.fromEntries([...probeCalls.entries()].sort(([a], [b]) => a.localeCompare(b)));

const cases = kinds.flatMap((kind) => (['dag', 'langgraph'] as const).map((engine) => [kind, engine] as const));

describe.each(cases)('store faults on %s, %s engine', (kind, engine) => {
  let h: Harness;
  const ctl = { mode: 'none' as Fault, down: false, injected: 0 };
  beforeAll(async () => {
    h = await createHarness(kind, { wrapStore: (s) => faultyStore(s, ctl) });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    resetProbes();
    Object.assign(ctl, { mode: 'none', down: false, injected: 0 });
  });

  async function nodeStatus(runId: string) {
    return Object.fromEntries((await h.store.getNodeRuns(runId)).map((n) => [n.nodeId, n.status]));
  }

  it(
    'a failed snapshot write fails the run with STORE_WRITE_FAILED before any ' +
      'successor starts; a transient fault leaves a consistent, resumable record',
    async () => {
      const wf = await h.createWorkflow(chainGraph(5), 'fault', engine);
      ctl.mode = 'once';
      const run = await h.runToEnd(wf);
      expect(ctl.injected).toBe(1);
      expect(run.status).toBe('failed');
      expect(run.error?.code).toBe('STORE_WRITE_FAILED');
      expect(calls()).toEqual({ p1: 1, p2: 1 }); // p3 never executed
      expect(probeCalls.get('p3')).toBeUndefined();

      // The run's final write persisted what the failed commit held, in order: p2's success is durable now.
      const events = await h.events(run.id);
      seqsContiguous(events);
      expect(events.filter((e) => e.nodeId === 'p2').map((e) => e.type)).toEqual(['node.started', 'node.succeeded']);
      expect(events.some((e) => e.nodeId === 'p3')).toBe(false);
      expect(events.at(-1)).toMatchObject({ type: 'run.failed', data: { error: { code: 'STORE_WRITE_FAILED' } } });
      expect(await nodeStatus(run.id)).toEqual({ start: 'succeeded', p1: 'succeeded', p2: 'succeeded' });

      // Durable success is never executed again: the resume starts at p3.
      await h.runs.resume(run.id);
      await h.runs.waitFor(run.id);
      const done = (await h.store.getRun(run.id))!;
      expect(done.status).toBe('succeeded');
      expect(done.outputs).toEqual({ last: { value: 'p5', calls: 1 } });
      expect(calls()).toEqual({ p1: 1, p2: 1, p3: 1, p4: 1, p5: 1 });
      seqsContiguous(await h.events(run.id));
    },
  );

  it(
    "during an outage no successor starts and p2's success is never durable; " +
      'once the store is back the run is recovered and resumed, re-running p2',
    async () => {
      const wf = await h.createWorkflow(chainGraph(5), 'fault', engine);
      const live: TraceEvent[] = [];
      ctl.mode = 'outage';
      const { run } = await h.runs.start({ workflow: (await h.store.getWorkflow(wf))!, inputs: {} });
      const unsubscribe = h.bus.subscribe(run.id, 0, (e) => live.push(e));
      await h.runs.waitFor(run.id);
      unsubscribe();
      expect(ctl.down).toBe(true);
      expect(calls()).toEqual({ p1: 1, p2: 1 });
      expect(live.some((e) => e.nodeId === 'p3')).toBe(false);
      // The outcome never reached the database, so no viewer was told it: not p2's success, not the run's failure.
      expect(live.some((e) => e.type === 'run.failed' || (e.type === 'node.succeeded' && e.nodeId === 'p2'))).toBe(
        false,
      );

      // Nothing after p1 reached the database; the record still says running (its owner could not write the end).
      const stored = (await h.store.getRun(run.id))!;
      expect(stored.status).toBe('running');
      const statuses = await nodeStatus(run.id);
      expect(statuses).toMatchObject({ start: 'succeeded', p1: 'succeeded' });
      expect(statuses.p2 ?? 'none').not.toBe('succeeded');

      // The store is repaired. Recovery (start-up, or the PostgreSQL reaper) marks the orphan interrupted.
      Object.assign(ctl, { mode: 'none', down: false });
      expect(await h.runs.recover(new Date(Date.now() + 1000))).toContain(run.id);
      const interrupted = (await h.store.getRun(run.id))!;
      expect(interrupted.status).toBe('interrupted');
      const history = await h.events(run.id);
      expect(history.at(-1)?.type).toBe('run.interrupted');
      // What a viewer heard live is exactly the start of the stored story, seq by seq.
      expect(live).toEqual(history.slice(0, live.length));

      await h.runs.resume(run.id);
      await h.runs.waitFor(run.id);
      const done = (await h.store.getRun(run.id))!;
      expect(done.status).toBe('succeeded');
      expect(calls()).toEqual({ p1: 1, p2: 2, p3: 1, p4: 1, p5: 1 }); // p2 re-run: its success was never durable
      const events = await h.events(run.id);
      seqsContiguous(events);
      expect(events.filter((e) => e.type === 'node.succeeded' && e.nodeId === 'p1')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'node.succeeded' && e.nodeId === 'p2')).toHaveLength(1);
    },
  );
  // ── Regressions found by this suite and fixed in engine/runtime/run-manager.ts.

  it('after an outage ends, the owning process resumes the orphaned run without needing recover()', async () => {
    const wf = await h.createWorkflow(chainGraph(3), 'fault', engine);
    ctl.mode = 'outage';
    const { run } = await h.runs.start({ workflow: (await h.store.getWorkflow(wf))!, inputs: {} });
    await h.runs.waitFor(run.id);
    expect(h.runs.isActive(run.id)).toBe(false);
    Object.assign(ctl, { mode: 'none', down: false });
    // Nothing executes the run any more, yet its record says `running` and embedded mode only recovers at start-up.
    await h.runs.resume(run.id);
    await h.runs.waitFor(run.id);
    expect((await h.store.getRun(run.id))!.status).toBe('succeeded');
  });

  it('a run whose final write fails publishes no outcome until the database records one', async () => {
    const wf = await h.createWorkflow(chainGraph(3), 'fault', engine);
    const live: TraceEvent[] = [];
    ctl.mode = 'outage';
    const { run } = await h.runs.start({ workflow: (await h.store.getWorkflow(wf))!, inputs: {} });
    const unsubscribe = h.bus.subscribe(run.id, 0, (e) => live.push(e));
    await h.runs.waitFor(run.id);
    const terminal = (e: TraceEvent) =>
      ['run.failed', 'run.succeeded', 'run.cancelled', 'run.interrupted'].includes(e.type);
    expect(live.filter(terminal)).toEqual([]);
    Object.assign(ctl, { mode: 'none', down: false });
    await h.runs.recover(new Date(Date.now() + 1000)); // the database now says how it ended, and so do live events
    unsubscribe();
    expect(live.filter(terminal).map((e) => e.type)).toEqual(['run.interrupted']);
    expect(live).toEqual((await h.events(run.id)).slice(0, live.length));
  });
  it('a transient fault on the final write still records the real outcome once', async () => {
    const wf = await h.createWorkflow(chainGraph(2), 'fault', engine);
    ctl.mode = 'final-once';
    const run = await h.runToEnd(wf);
    expect(ctl.injected).toBe(1);
    const events = await h.events(run.id);
    seqsContiguous(events);
    const terminal = events.filter((e) => ['run.succeeded', 'run.failed', 'run.cancelled'].includes(e.type));
    expect(terminal.map((e) => e.type)).toEqual(['run.succeeded']);
    expect(run.status).toBe('succeeded');
  });
});
