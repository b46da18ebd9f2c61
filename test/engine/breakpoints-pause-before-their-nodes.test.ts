// Guarantees: an editor test run with breakpoints pauses before each marked node (status `waiting`, reason
// `breakpoint`, with the node's resolved input); Continue runs on to the next breakpoint, Step pauses before the next
// node too, Stop cancels the run, and an edited input is what the node runs with. A paused run survives a restart.
// On both engines, on PGlite (the restart case on PostgreSQL too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@/engine/store/types';
import { openTestDb, storeKinds, type TestDb } from '../support/databases';
import { chainGraph, createHarness, probeCalls, resetProbes, type Harness } from '../support/harness';

const kinds = await storeKinds();
const combos = kinds.flatMap((k) => (['dag', 'langgraph'] as const).map((engine) => [k, engine] as const));
const ann = { userId: 'u_ann', name: 'Ann' };

describe.each(combos)('breakpoints on %s with the %s engine', (kind, engine) => {
  // Only the restart case runs on PostgreSQL too: no store conformance suite holds a pending wait's storage yet.
  const onPglite = it.runIf(kind === 'pglite');
  let tdb: TestDb;
  let h: Harness;
  beforeAll(async () => {
    tdb = await openTestDb(kind);
    h = await createHarness(kind, { tdb });
  });
  afterAll(async () => {
    await h?.close();
    await tdb?.dispose();
  });

  async function start(breakpoints: string[]): Promise<RunRecord> {
    resetProbes();
    const wf = (await h.store.getWorkflow(await h.createWorkflow(chainGraph(3), 'debug', engine)))!;
    const { run } = await h.runs.start({ workflow: wf, inputs: {}, breakpoints });
    await h.runs.waitFor(run.id);
    return (await h.store.getRun(run.id))!;
  }
  const waitingOn = async (runId: string) =>
    (await h.events(runId)).filter((e) => e.type === 'run.waiting').at(-1)?.data as
      { nodeId: string; prompt: Record<string, unknown> } | undefined;
  async function answer(runId: string, value: unknown): Promise<RunRecord> {
    await h.runs.answer(runId, (await waitingOn(runId))!.nodeId, value, ann);
    await h.runs.waitFor(runId);
    return (await h.store.getRun(runId))!;
  }

  onPglite('pauses before the marked node with its resolved input; Continue runs the rest', async () => {
    const run = await start(['p2']);
    expect(run.status).toBe('waiting');
    expect(await waitingOn(run.id)).toMatchObject({ nodeId: 'p2', prompt: { kind: 'breakpoint', nodeId: 'p2' } });
    expect(Object.fromEntries(probeCalls)).toEqual({ p1: 1 });
    const p2 = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'p2')!;
    expect(p2).toMatchObject({ status: 'waiting', attempt: 0 });

    const done = await answer(run.id, { action: 'continue' });
    expect(done.status).toBe('succeeded');
    expect(Object.fromEntries(probeCalls)).toEqual({ p1: 1, p2: 1, p3: 1 });
    const note = (await h.events(run.id)).find((e) => e.type === 'node.progress' && e.data.breakpoint);
    expect(note).toMatchObject({ nodeId: 'p2', data: { breakpoint: { action: 'continue', by: ann } } });
  });

  onPglite('Step pauses before the next node as well, then Continue goes to the end', async () => {
    const run = await start(['p1']);
    expect((await waitingOn(run.id))?.nodeId).toBe('p1');
    const stepped = await answer(run.id, { action: 'step' });
    expect(stepped.status).toBe('waiting');
    expect((await waitingOn(run.id))?.nodeId).toBe('p2');
    expect(Object.fromEntries(probeCalls)).toEqual({ p1: 1 });
    // A node paused by step mode (no breakpoint of its own) still runs with the edited input.
    const done = await answer(run.id, { action: 'continue', input: { value: 'edited in step' } });
    expect(done.status).toBe('succeeded');
    expect(Object.fromEntries(probeCalls)).toEqual({ p1: 1, p2: 1, p3: 1 });
    const p2 = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'p2')!;
    expect(p2.output).toEqual({ value: 'edited in step', calls: 1 });
  });

  onPglite('Stop cancels the run; the paused node never runs', async () => {
    const run = await start(['p2']);
    const stopped = await answer(run.id, { action: 'stop' });
    expect(stopped.status).toBe('cancelled');
    expect(Object.fromEntries(probeCalls)).toEqual({ p1: 1 });
    expect((await h.events(run.id)).at(-1)?.type).toBe('run.cancelled');
  });

  onPglite('an edited input is what the node runs with; a bad answer is a 400 with a path', async () => {
    const run = await start(['p3']);
    await expect(h.runs.answer(run.id, 'p3', { action: 'skip' })).rejects.toMatchObject({
      code: 'INVALID_ANSWER',
      path: 'answer.action',
    });
    const done = await answer(run.id, { action: 'continue', input: { value: 'edited by hand' } });
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ last: { value: 'edited by hand', calls: 1 } });
  });

  onPglite(
    'an edited input reaches a node that renders its own template (its stored config is replaced too)',
    async () => {
      resetProbes();
      const graph = chainGraph(1);
      graph.nodes.splice(1, 1, {
        id: 'p1',
        type: 'template',
        position: { x: 200, y: 0 },
        data: { config: { format: 'text', template: 'two' } },
      });
      const wf = (await h.store.getWorkflow(await h.createWorkflow(graph, 'template', engine)))!;
      const { run } = await h.runs.start({ workflow: wf, inputs: {}, breakpoints: ['p1'] });
      await h.runs.waitFor(run.id);
      expect((await waitingOn(run.id))?.prompt).toMatchObject({ input: { template: 'two' } });
      const done = await answer(run.id, { action: 'continue', input: { format: 'text', template: 'edited by hand' } });
      expect(done.outputs).toEqual({ last: { text: 'edited by hand' } });
    },
  );

  it('a paused run survives a restart and continues when answered', async () => {
    const run = await start(['p2']);
    await h.close();
    const db = await tdb.reopen();
    h = await createHarness(kind, { tdb: { ...tdb, db } as TestDb });
    expect(await h.runs.recover(new Date(Date.now() + 1000))).toEqual([]);
    expect((await h.store.getRun(run.id))!.status).toBe('waiting');
    const done = await answer(run.id, { action: 'continue' });
    expect(done.status).toBe('succeeded');
    expect(probeCalls.get('p1')).toBe(1);
  });

  onPglite('a breakpoint on an unknown node is refused with its path', async () => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(chainGraph(1), 'bad', engine)))!;
    await expect(h.runs.start({ workflow: wf, inputs: {}, breakpoints: ['p1', 'nope'] })).rejects.toMatchObject({
      code: 'NODE_NOT_FOUND',
      path: 'breakpoints[1]',
    });
  });
});
