// Guarantees: a node whose output is pinned in the draft (`data.pinned = { output, at }`) is not executed by a run of
// the draft — its pinned output is recorded as its snapshot (attempt 0, a `node.progress { pinned: true }` note) and
// its downstream nodes see it, also after a resume — while a run of a published version executes it, pin or not.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { withoutTestData } from '@/engine/runtime/pinned-data';
import { createHarness, probeCalls, probeScript, resetProbes, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

/** start → p1 (pinned) → p2 (reads p1's value) → end(last = p2's value). */
function pinnedGraph(): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'p1',
        type: 'probe',
        position: { x: 200, y: 0 },
        data: { config: {}, pinned: { output: { value: 'pinned!' }, at: '2026-12-01T00:00:00.000Z' } },
      },
      { id: 'p2', type: 'probe', position: { x: 400, y: 0 }, data: { config: { value: 'saw {{p1.output.value}}' } } },
      {
        id: 'end',
        type: 'end',
        position: { x: 600, y: 0 },
        data: { config: { outputs: [{ name: 'last', value: '{{p2.output.value}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'p1' },
      { id: 'e2', source: 'p1', target: 'p2' },
      { id: 'e3', source: 'p2', target: 'end' },
    ],
  };
}

describe.each(kinds)('pinned data on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => resetProbes());

  it('a draft run reuses the pinned output instead of executing the node', async () => {
    const wf = await h.createWorkflow(pinnedGraph());
    const run = await h.runToEnd(wf);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(probeCalls.get('p1') ?? 0).toBe(0);
    expect(probeCalls.get('p2')).toBe(1);
    expect(run.outputs).toEqual({ last: 'saw pinned!' });

    const snaps = new Map((await h.store.getNodeRuns(run.id)).map((s) => [s.nodeId, s]));
    expect(snaps.get('p1')).toMatchObject({ status: 'succeeded', attempt: 0, output: { value: 'pinned!' } });
    const p1Events = (await h.events(run.id)).filter((e) => e.nodeId === 'p1');
    expect(p1Events.map((e) => e.type)).toEqual(['node.progress', 'node.succeeded']);
    expect(p1Events[0].data).toMatchObject({ pinned: true });
  });

  it('a resumed draft run still does not execute the pinned node', async () => {
    const wf = await h.createWorkflow(pinnedGraph());
    probeScript.set('p2', { fail: 1 });
    const failed = await h.runToEnd(wf);
    expect(failed.status).toBe('failed');
    await h.runs.resume(failed.id);
    await h.runs.waitFor(failed.id);
    const resumed = (await h.store.getRun(failed.id))!;
    expect(resumed.status, JSON.stringify(resumed.error)).toBe('succeeded');
    expect(resumed.outputs).toEqual({ last: 'saw pinned!' });
    expect([probeCalls.get('p1') ?? 0, probeCalls.get('p2')]).toEqual([0, 2]);
  });

  it('a run of a published version executes the node, even when its graph carries a pin', async () => {
    const wfId = await h.createWorkflow(pinnedGraph());
    const wf = (await h.store.getWorkflow(wfId))!;
    const published = await h.store.publishVersion(wfId, {
      id: `ver_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      graph: wf.graph,
      engine: wf.engine,
      slug: `pinned-${randomUUID().slice(0, 8)}`,
    });
    const { run } = await h.runs.start({
      workflow: wf,
      graph: published!.version.graph,
      versionId: published!.version.id,
      inputs: {},
    });
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(probeCalls.get('p1')).toBe(1);
    expect(done.outputs).toEqual({ last: 'saw p1' });
  });

  it('the published form of a graph carries no pins or breakpoints', () => {
    const g = pinnedGraph();
    g.nodes[2].data.breakpoint = true;
    const stripped = withoutTestData(g);
    expect(stripped.nodes.some((n) => 'pinned' in n.data || 'breakpoint' in n.data)).toBe(false);
    expect(g.nodes[1].data.pinned).toBeDefined(); // the draft is left as it is
  });
});
