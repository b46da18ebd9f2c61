// Guarantees, both engines (PGlite): a new run starts executing while its INSERT is in flight, yet
// - no node with effects runs and nothing is committed before the run is stored;
// - its events are published live only once it is stored;
// - if the INSERT fails, start() fails with its error, no node with effects ran and nothing was written (no LangGraph
//   checkpoint either, for a graph that can pause on human input) or published;
// - with an idempotency key the INSERT is awaited first: a repeat returns the stored run and executes nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { NewRun, RunStore } from '@/engine/store/types';
import { chainGraph, createHarness, interceptStore, probeCalls, resetProbes, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;
const cases = kinds.flatMap((kind) => (['dag', 'langgraph'] as const).map((engine) => [kind, engine] as const));

interface Ctl {
  delayMs: number;
  fail: boolean;
  /** Set when the INSERT has finished; with the probe calls seen at that moment. */
  stored: boolean;
  callsWhenStored: Record<string, number> | null;
  lastRunId: string | null;
  commitsBeforeStored: number;
  commits: number;
  /** Called with the run's id when its INSERT starts (before anyone else could know it). */
  onCreate?: (runId: string) => void;
}

function slowInsertStore(inner: PrismaStore, ctl: Ctl): RunStore {
  return interceptStore(inner, {
    async createRun(rec: NewRun) {
      ctl.stored = false;
      ctl.lastRunId = rec.id;
      ctl.onCreate?.(rec.id);
      await new Promise((r) => setTimeout(r, ctl.delayMs));
      if (ctl.fail) throw new Error('injected: the run INSERT failed');
      const out = await inner.createRun(rec);
      ctl.stored = true;
      ctl.callsWhenStored = Object.fromEntries(probeCalls);
      return out;
    },
    async commit(...args: Parameters<RunStore['commit']>) {
      ctl.commits++;
      if (!ctl.stored) ctl.commitsBeforeStored++;
      return inner.commit(...args);
    },
  });
}

describe.each(cases)('a run started while its INSERT is in flight, on %s, %s engine', (kind, engine) => {
  let h: Harness;
  const ctl: Ctl = {
    delayMs: 0,
    fail: false,
    stored: false,
    callsWhenStored: null,
    lastRunId: null,
    commitsBeforeStored: 0,
    commits: 0,
  };
  beforeAll(async () => {
    h = await createHarness(kind, { wrapStore: (s) => slowInsertStore(s, ctl) });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    resetProbes();
    Object.assign(ctl, {
      delayMs: 0,
      fail: false,
      stored: false,
      callsWhenStored: null,
      lastRunId: null,
      commitsBeforeStored: 0,
      commits: 0,
      onCreate: undefined,
    });
  });

  it('runs no node with effects and commits nothing before the run is stored', async () => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(chainGraph(2), 'slow-insert', engine)))!;
    ctl.delayMs = 150;
    // Live events, from the moment the id exists: none before the run is stored, then all of them, in order.
    const live: Array<{ seq: number; type: string; stored: boolean }> = [];
    ctl.onCreate = (id) => {
      h.bus.subscribe(id, 0, (e) => live.push({ seq: e.seq, type: e.type, stored: ctl.stored }));
    };
    const { run, created } = await h.runs.start({ workflow: wf, inputs: {} });
    expect(created).toBe(true);
    expect(ctl.callsWhenStored).toEqual({});
    const done = await h.runs.outcome(run.id);
    expect(done).toMatchObject({ id: run.id, status: 'succeeded', outputs: { last: { value: 'p2', calls: 1 } } });
    expect(ctl.commits).toBeGreaterThan(0);
    expect(ctl.commitsBeforeStored).toBe(0);
    expect((await h.store.getRun(run.id))?.status).toBe('succeeded');
    expect(live.every((e) => e.stored)).toBe(true);
    expect(live.map((e) => e.seq)).toEqual(live.map((_, i) => i + 1));
    expect(live.map((e) => e.type)).toEqual((await h.events(run.id)).map((e) => e.type));
    expect(live[0].type).toBe('run.started');
  });

  it('a failed INSERT fails start() with its error; nothing ran with effects and nothing was written', async () => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(chainGraph(2), 'failed-insert', engine)))!;
    Object.assign(ctl, { delayMs: 100, fail: true });
    const live: string[] = [];
    ctl.onCreate = (id) => {
      h.bus.subscribe(id, 0, (e) => live.push(e.type));
    };
    await expect(h.runs.start({ workflow: wf, inputs: {} })).rejects.toThrow('injected: the run INSERT failed');
    const id = ctl.lastRunId!;
    expect(h.runs.isActive(id)).toBe(false);
    await new Promise((r) => setTimeout(r, 100)); // anything still scheduled would have run by now
    expect(Object.fromEntries(probeCalls)).toEqual({});
    expect(ctl.commits).toBe(0);
    expect(await h.store.getRun(id)).toBeNull();
    expect(await h.store.getEvents(id)).toEqual([]);
    expect(live).toEqual([]); // nothing published for a run that does not exist
  });

  it('with an idempotency key a repeat returns the stored run and executes nothing again', async () => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(chainGraph(1), 'idempotent', engine)))!;
    const first = await h.runs.start({ workflow: wf, inputs: {}, idempotencyKey: `k-${engine}` });
    expect(first.created).toBe(true);
    await h.runs.waitFor(first.run.id);
    const again = await h.runs.start({ workflow: wf, inputs: {}, idempotencyKey: `k-${engine}` });
    expect(again).toMatchObject({ created: false, run: { id: first.run.id, status: 'succeeded' } });
    expect(Object.fromEntries(probeCalls)).toEqual({ p1: 1 });
  });

  it('a failed INSERT of a run that would pause on human input writes no checkpoint of its pause', async () => {
    const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({
      id,
      type,
      position: { x: 0, y: 0 },
      data: { config },
    });
    const graph = {
      nodes: [
        node('start', 'start', { inputs: [] }),
        node('ask', 'human_input', { prompt: 'ok?', answerType: 'text' }),
        node('end', 'end', { outputs: [] }),
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'ask' },
        { id: 'e2', source: 'ask', target: 'end' },
      ],
    };
    const wf = (await h.store.getWorkflow(await h.createWorkflow(graph, 'pause-insert-fails', engine)))!;
    Object.assign(ctl, { delayMs: 150, fail: true });
    await expect(h.runs.start({ workflow: wf, inputs: {} })).rejects.toThrow('injected: the run INSERT failed');
    await new Promise((r) => setTimeout(r, 100));
    const rows = await h.tdb.db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM node_checkpoints WHERE run_id = $1`,
      [ctl.lastRunId],
    );
    expect(rows).toEqual([{ n: 0 }]);
    expect(await h.store.getRun(ctl.lastRunId!)).toBeNull();
  });
});
