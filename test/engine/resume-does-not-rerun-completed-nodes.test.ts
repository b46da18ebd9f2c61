// Guarantees: resume re-runs only failed/unfinished nodes (or fromNodeId and its descendants), reuses every other
// succeeded node's stored output, keeps the run id and a contiguous event log, uses the current draft for re-run nodes,
// and is refused (409 RUN_ACTIVE) while the run is active.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PaiError } from '@/engine/errors';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager } from '@/engine/runtime/run-manager';
import { createHarness, probeCalls, probeNode, probeScript, resetProbes, type Harness } from '../support/harness';
import { until } from '../support/until';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

const node = (id: string, type: string, config: Record<string, unknown>, x = 0): Graph['nodes'][number] => ({
  id,
  type,
  position: { x, y: 0 },
  data: { config },
});

/**
 * start → p1 … pN → end; each probe's value extends its predecessor's, so reused outputs must flow into re-run nodes.
 */
function chain(n: number, override: Record<string, Record<string, unknown>> = {}): Graph {
  const nodes = [node('start', 'start', { inputs: [] })];
  const edges: Graph['edges'] = [];
  let prev = 'start';
  for (let i = 1; i <= n; i++) {
    const id = `p${i}`;
    nodes.push(
      node(id, 'probe', override[id] ?? { value: i === 1 ? 'p1' : `{{${prev}.output.value}}>${id}` }, i * 200),
    );
    edges.push({ id: `e${i}`, source: prev, target: id });
    prev = id;
  }
  nodes.push(
    node(
      'end',
      'end',
      {
        outputs: [
          { name: 'chain', value: `{{${prev}.output.value}}` },
          { name: 'first', value: '{{p1.output.value}}' },
        ],
      },
      (n + 1) * 200,
    ),
  );
  edges.push({ id: 'e_end', source: prev, target: 'end' });
  return { nodes, edges };
}

/** start → A, B, C (parallel) → join → end. */
function fanOutIn(): Graph {
  return {
    nodes: [
      node('start', 'start', { inputs: [] }),
      node('A', 'probe', { value: 'a' }),
      node('B', 'probe', { value: 'b' }),
      node('C', 'probe', { value: 'c' }),
      node('join', 'probe', { value: '{{A.output.value}}+{{B.output.value}}+{{C.output.value}}' }),
      node('end', 'end', { outputs: [{ name: 'joined', value: '{{join.output.value}}' }] }),
    ],
    edges: [
      { id: 'sa', source: 'start', target: 'A' },
      { id: 'sb', source: 'start', target: 'B' },
      { id: 'sc', source: 'start', target: 'C' },
      { id: 'aj', source: 'A', target: 'join' },
      { id: 'bj', source: 'B', target: 'join' },
      { id: 'cj', source: 'C', target: 'join' },
      { id: 'je', source: 'join', target: 'end' },
    ],
  };
}

const calls = () => Object.fromEntries([...probeCalls.entries()].sort(([a], [b]) => a.localeCompare(b)));
const seqsContiguous = (events: TraceEvent[]) => expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

describe.each(kinds)('resume on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => resetProbes());

  async function nodes(runId: string) {
    return Object.fromEntries((await h.store.getNodeRuns(runId)).map((n) => [n.nodeId, n]));
  }

  async function resumeToEnd(runId: string, opts?: Parameters<RunManager['resume']>[1]) {
    const resumed = await h.runs.resume(runId, opts);
    expect(resumed.id).toBe(runId);
    await h.runs.waitFor(runId);
    return (await h.store.getRun(runId))!;
  }

  it(
    'a chain that failed at p3 resumes from p3: p1/p2 are not ' +
      'executed again and the outputs match an uninterrupted run',
    async () => {
      const wf = await h.createWorkflow(chain(5));
      const reference = await h.runToEnd(wf);
      expect(reference.status).toBe('succeeded');
      expect(reference.outputs).toEqual({ chain: 'p1>p2>p3>p4>p5', first: 'p1' });
      resetProbes();

      probeScript.set('p3', { fail: 1 });
      const failed = await h.runToEnd(wf);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatchObject({ code: 'PROBE_FAILED', details: { nodeId: 'p3' } });
      expect(calls()).toEqual({ p1: 1, p2: 1, p3: 1 });
      const before = await nodes(failed.id);
      expect(before.p1.status).toBe('succeeded');
      expect(before.p2.status).toBe('succeeded');
      expect(before.p3).toMatchObject({ status: 'failed', attempt: 1, error: { code: 'PROBE_FAILED' } });
      for (const id of ['p4', 'p5', 'end']) expect(before[id]?.status ?? 'pending').toBe('pending');
      const firstEvents = await h.events(failed.id);
      seqsContiguous(firstEvents);
      expect(firstEvents.at(-1)?.type).toBe('run.failed');

      const done = await resumeToEnd(failed.id);
      expect(done.status).toBe('succeeded');
      expect(done.error).toBeNull();
      expect(done.outputs).toEqual(reference.outputs);
      expect(calls()).toEqual({ p1: 1, p2: 1, p3: 2, p4: 1, p5: 1 });

      const after = await nodes(failed.id);
      for (const id of ['start', 'p1', 'p2', 'p3', 'p4', 'p5', 'end']) expect(after[id].status).toBe('succeeded');
      expect(after.p3.attempt).toBe(2);
      expect(after.p1).toEqual(before.p1); // the reused snapshot is untouched
      expect(after.p2).toEqual(before.p2);

      const events = await h.events(failed.id);
      seqsContiguous(events);
      expect(events.slice(0, firstEvents.length)).toEqual(firstEvents);
      const starts = events.filter((e) => e.type === 'run.started');
      expect(starts.map((e) => e.data.resumed)).toEqual([false, true]);
      expect([...(starts[1].data.reused as string[])].sort()).toEqual(['p1', 'p2', 'start']);
      const resumedPart = events.slice(firstEvents.length);
      expect(resumedPart[0].type).toBe('run.started');
      expect(resumedPart.filter((e) => e.type === 'node.started').map((e) => e.nodeId)).toEqual([
        'p3',
        'p4',
        'p5',
        'end',
      ]);
      expect(resumedPart.find((e) => e.type === 'node.started' && e.nodeId === 'p3')?.data.attempt).toBe(2);
      expect(events.at(-1)?.type).toBe('run.succeeded');
      expect(events.filter((e) => e.type === 'run.succeeded')).toHaveLength(1);

      // No new run was created for the resume.
      expect((await h.store.listRuns(wf)).map((r) => r.id).sort()).toEqual([reference.id, failed.id].sort());
    },
  );

  it(
    'parallel branches: when B fails, the resume runs only B, ' + 'join and end; A and C keep their single execution',
    async () => {
      const wf = await h.createWorkflow(fanOutIn());
      probeScript.set('B', { fail: 1 });
      const failed = await h.runToEnd(wf);
      expect(failed.status).toBe('failed');
      expect(calls()).toEqual({ A: 1, B: 1, C: 1 }); // independent branches still finished
      const before = await nodes(failed.id);
      expect([before.A.status, before.B.status, before.C.status]).toEqual(['succeeded', 'failed', 'succeeded']);
      expect(before.join?.status ?? 'pending').toBe('pending');

      const done = await resumeToEnd(failed.id);
      expect(done.status).toBe('succeeded');
      expect(done.outputs).toEqual({ joined: 'a+b+c' });
      expect(calls()).toEqual({ A: 1, B: 2, C: 1, join: 1 });
      const events = await h.events(failed.id);
      seqsContiguous(events);
      const resumedStart = events.findLastIndex((e) => e.type === 'run.started');
      expect(
        events
          .slice(resumedStart)
          .filter((e) => e.type === 'node.started')
          .map((e) => e.nodeId),
      ).toEqual(['B', 'join', 'end']);
    },
  );

  it(
    'resume while the run is active is refused with 409 RUN_ACTIVE ' +
      '(here and from another process); after cancel it resumes',
    async () => {
      const wf = await h.createWorkflow(chain(3));
      probeScript.set('p2', { hang: true });
      const { run } = await h.runs.start({ workflow: (await h.store.getWorkflow(wf))!, inputs: {} });
      await until(() => probeCalls.get('p2') === 1, 'p2 to start');

      for (const opts of [{}, { fromNodeId: 'p1' }]) {
        const err = await h.runs.resume(run.id, opts).then(
          () => null,
          (e) => e,
        );
        expect(err).toBeInstanceOf(PaiError);
        expect(err).toMatchObject({ code: 'RUN_ACTIVE' });
      }
      // Another process sharing the database sees status `running` and must refuse too.
      const other = new RunManager({
        store: h.store,
        workflows: h.store,
        bus: new InProcessEventBus(),
        registry: createDefaultRegistry().register(probeNode),
        services: { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined } },
      });
      try {
        await expect(other.resume(run.id)).rejects.toMatchObject({ code: 'RUN_ACTIVE' });
      } finally {
        await other.close();
      }
      expect((await h.store.getRun(run.id))!.status).toBe('running');
      expect(calls()).toEqual({ p1: 1, p2: 1 });

      await h.runs.cancel(run.id);
      await h.runs.waitFor(run.id);
      expect((await h.store.getRun(run.id))!.status).toBe('cancelled');

      probeScript.delete('p2');
      const done = await resumeToEnd(run.id);
      expect(done.status).toBe('succeeded');
      expect(calls()).toEqual({ p1: 1, p2: 2, p3: 1 });
    },
  );

  it('two concurrent resumes of one failed run: exactly one wins, the other gets 409, nothing runs twice', async () => {
    const wf = await h.createWorkflow(chain(3));
    probeScript.set('p2', { fail: 1 });
    const failed = await h.runToEnd(wf);
    expect(failed.status).toBe('failed');
    const results = await Promise.allSettled([h.runs.resume(failed.id), h.runs.resume(failed.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(loser.reason).toMatchObject({ code: 'RUN_ACTIVE' });
    await h.runs.waitFor(failed.id);
    expect((await h.store.getRun(failed.id))!.status).toBe('succeeded');
    expect(calls()).toEqual({ p1: 1, p2: 2, p3: 1 });
    const events = await h.events(failed.id);
    seqsContiguous(events);
    expect(events.filter((e) => e.type === 'run.started')).toHaveLength(2);
  });

  it('resume with fromNodeId on a succeeded run re-runs that node and its descendants only', async () => {
    const wf = await h.createWorkflow(chain(5));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(calls()).toEqual({ p1: 1, p2: 1, p3: 1, p4: 1, p5: 1 });

    // succeeded needs fromNodeId
    await expect(h.runs.resume(run.id)).rejects.toMatchObject({ code: 'RUN_ACTIVE' });
    await expect(h.runs.resume(run.id, { fromNodeId: 'nope' })).rejects.toMatchObject({
      code: 'NODE_NOT_FOUND',
    });
    expect((await h.store.getRun(run.id))!.status).toBe('succeeded');

    const done = await resumeToEnd(run.id, { fromNodeId: 'p2' });
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual(run.outputs);
    expect(calls()).toEqual({ p1: 1, p2: 2, p3: 2, p4: 2, p5: 2 });
    const after = await nodes(run.id);
    expect(after.p1.attempt).toBe(1);
    expect(after.p2.attempt).toBe(2);
    const events = await h.events(run.id);
    seqsContiguous(events);
    const resumedStart = events.findLast((e) => e.type === 'run.started')!;
    expect(resumedStart.data).toMatchObject({ resumed: true, fromNodeId: 'p2' });
    expect(events.filter((e) => e.seq > resumedStart.seq && e.type === 'node.started').map((e) => e.nodeId)).toEqual([
      'p2',
      'p3',
      'p4',
      'p5',
      'end',
    ]);
  });

  it(
    'resume uses the current draft for the nodes it re-runs (the edit ' +
      'fixes the failed node); reused nodes keep their stored output',
    async () => {
      const broken = chain(5, { p3: { value: 'broken', fail: true } });
      const wf = await h.createWorkflow(broken);
      const failed = await h.runToEnd(wf);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatchObject({ code: 'PROBE_FAILED', details: { nodeId: 'p3' } });

      // Resuming the unchanged draft fails again at p3 (same run, attempt 2).
      const again = await resumeToEnd(failed.id);
      expect(again.status).toBe('failed');
      expect((await nodes(failed.id)).p3.attempt).toBe(2);

      // Edit the draft: p3 no longer fails; p1's config changes too, but p1 already succeeded so it is reused.
      const fixed = chain(5, { p3: { value: 'fixed' }, p1: { value: 'p1-edited' } });
      const updated = await h.store.updateWorkflow(wf, { graph: fixed });
      expect(updated).toMatchObject({ graph: fixed });

      const done = await resumeToEnd(failed.id);
      expect(done.status).toBe('succeeded');
      expect(done.outputs).toEqual({ chain: 'fixed>p4>p5', first: 'p1' });
      expect(done.graph).toEqual(fixed); // the run records the graph its latest execution used
      expect(calls()).toEqual({ p1: 1, p2: 1, p3: 3, p4: 1, p5: 1 });
      const after = await nodes(failed.id);
      expect(after.p3).toMatchObject({
        status: 'succeeded',
        attempt: 3,
        input: { value: 'fixed' },
        output: { value: 'fixed', calls: 3 },
      });
      expect(after.p1.output).toEqual({ value: 'p1', calls: 1 });
    },
  );
});
