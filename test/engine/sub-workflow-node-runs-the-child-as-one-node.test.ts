// Guarantees: a `workflow` node runs another workflow of the same workspace as one node — its inputs mapped from
// templates, the child's end outputs (plus the child's runId) as the node's output, the child run announced in the
// trace as soon as it exists — on both engines; a child that fails or pauses for a person fails the node with the
// child run named; cancelling the parent cancels the child; nesting stops at the depth limit; a workflow of another
// workspace is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { probeScript } from '../support/harness';
import { until } from '../support/until';
import { childGraph, createSubWorkflowHarness, parentGraph, type SubWorkflowHarness } from './sub-workflow-support';

describe('the sub-workflow node', () => {
  let h: SubWorkflowHarness;
  beforeAll(async () => {
    h = await createSubWorkflowHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const nodeRun = async (runId: string, nodeId = 'w1') =>
    (await h.store.getNodeRuns(runId)).find((n) => n.nodeId === nodeId)!;

  for (const engine of ['dag', 'langgraph'] as const) {
    it(`runs the child and outputs its end outputs and runId (${engine} engine)`, async () => {
      const child = await h.createWorkflow(childGraph('Hello'), { name: 'Greeter' });
      const parent = await h.createWorkflow(parentGraph(child, { version: 'draft' }), { engine });
      const run = await h.runToEnd(parent, { who: 'Grace' });
      expect(run.error).toBeNull();
      expect(run.engine).toBe(engine);
      const childRuns = await h.store.listRuns(child);
      expect(childRuns).toHaveLength(1);
      const childRun = childRuns[0];
      expect(childRun).toMatchObject({ status: 'succeeded', versionId: null, inputs: { name: 'Grace' } });
      expect(run.outputs).toEqual({ greeting: 'Hello, Grace', childRunId: childRun.id });
      expect((await nodeRun(run.id)).output).toEqual({ greeting: 'Hello, Grace', runId: childRun.id });

      // The child run is linked in the trace before the node ends.
      const events = await h.events(run.id);
      const linked = events.findIndex((e) => e.nodeId === 'w1' && e.type === 'node.progress' && e.data.childRun);
      const done = events.findIndex((e) => e.nodeId === 'w1' && e.type === 'node.succeeded');
      expect(linked).toBeGreaterThan(-1);
      expect(linked).toBeLessThan(done);
      expect(events[linked].data.childRun).toEqual({ runId: childRun.id, workflowId: child, version: 'draft' });
    });
  }

  it('a child that fails fails the node with SUBWORKFLOW_FAILED naming the child run', async () => {
    const failing: Graph = childGraph('x');
    failing.nodes.splice(1, 0, { id: 'boom', type: 'probe', position: { x: 100, y: 0 }, data: { config: {} } });
    failing.edges = [
      { id: 'e1', source: 'start', target: 'boom' },
      { id: 'e2', source: 'boom', target: 'end' },
    ];
    const child = await h.createWorkflow(failing);
    probeScript.set('boom', { fail: true });
    const run = await h.runToEnd(await h.createWorkflow(parentGraph(child, { version: 'draft' })));
    expect(run.status).toBe('failed');
    const [childRun] = await h.store.listRuns(child);
    expect(childRun.status).toBe('failed');
    const err = (await nodeRun(run.id)).error as any;
    expect(err.code).toBe('SUBWORKFLOW_FAILED');
    expect(err.message).toContain(childRun.id);
    expect(err.details).toMatchObject({ runId: childRun.id, error: { code: 'PROBE_FAILED' } });
  });

  it('a child that pauses for a person fails the node with SUBWORKFLOW_WAITING', async () => {
    const child = await h.createWorkflow({
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
        { id: 'ask', type: 'human_input', position: { x: 200, y: 0 }, data: { config: { prompt: 'ok?' } } },
        { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { config: { outputs: [] } } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'ask' },
        { id: 'e2', source: 'ask', target: 'end' },
      ],
    });
    const run = await h.runToEnd(await h.createWorkflow(parentGraph(child, { version: 'draft', inputs: {} })));
    expect(run.status).toBe('failed');
    const [childRun] = await h.store.listRuns(child);
    expect(childRun.status).toBe('waiting');
    const err = (await nodeRun(run.id)).error as any;
    expect(err).toMatchObject({ code: 'SUBWORKFLOW_WAITING', details: { runId: childRun.id } });
  });

  it('cancelling the parent cancels the child run', async () => {
    const slow: Graph = childGraph('late');
    slow.nodes.splice(1, 0, { id: 'hang', type: 'probe', position: { x: 100, y: 0 }, data: { config: {} } });
    slow.edges = [
      { id: 'e1', source: 'start', target: 'hang' },
      { id: 'e2', source: 'hang', target: 'end' },
    ];
    probeScript.set('hang', { hang: true });
    const child = await h.createWorkflow(slow);
    const parent = (await h.store.getWorkflow(await h.createWorkflow(parentGraph(child, { version: 'draft' }))))!;
    const { run } = await h.runs.start({ workflow: parent, inputs: {} });
    await until(async () => (await h.store.listRuns(child))[0]?.status === 'running', 'the child run');
    await h.runs.cancel(run.id);
    await h.runs.waitFor(run.id);
    expect((await h.store.getRun(run.id))!.status).toBe('cancelled');
    await until(async () => (await h.store.listRuns(child))[0]?.status === 'cancelled', 'the child cancelled');
  });

  it('a workflow that calls itself stops at the depth limit with WORKFLOW_DEPTH_LIMIT', async () => {
    // Saved through the store, past the save-time cycle check (lib/server), so only the runtime limit holds.
    const self = await h.createWorkflow(childGraph('x'));
    await h.store.updateWorkflow(self, { graph: parentGraph(self, { version: 'draft' }) });
    const run = await h.runToEnd(self);
    expect(run.status).toBe('failed');
    const runs = await h.store.listRuns(self);
    expect(runs).toHaveLength(4); // the top run + 3 nested levels
    const errors = await Promise.all(runs.map(async (r) => ((await nodeRun(r.id)).error as any)?.code));
    expect(errors.sort()).toEqual([
      'SUBWORKFLOW_FAILED',
      'SUBWORKFLOW_FAILED',
      'SUBWORKFLOW_FAILED',
      'WORKFLOW_DEPTH_LIMIT',
    ]);
  });

  it("another workspace's workflow is not found", async () => {
    await h.tdb.db.prisma.workspace.create({ data: { id: 'ws_sub_other', name: 'Other' } });
    const foreign = await h.createWorkflow(childGraph('Secret'), { workspaceId: 'ws_sub_other' });
    await h.publish(foreign);
    const run = await h.runToEnd(await h.createWorkflow(parentGraph(foreign)));
    expect(run.status).toBe('failed');
    expect((await nodeRun(run.id)).error).toMatchObject({ code: 'WORKFLOW_NOT_FOUND' });
    expect(await h.store.listRuns(foreign)).toHaveLength(0);
  });

  it('a resume of the parent continues the same child run: the child resumes from its failed node', async () => {
    const failing: Graph = childGraph('x');
    failing.nodes.splice(1, 0, { id: 'flaky', type: 'probe', position: { x: 100, y: 0 }, data: { config: {} } });
    failing.edges = [
      { id: 'e1', source: 'start', target: 'flaky' },
      { id: 'e2', source: 'flaky', target: 'end' },
    ];
    const child = await h.createWorkflow(failing);
    probeScript.set('flaky', { fail: 1 }); // fails on its first call only
    const parent = await h.createWorkflow(parentGraph(child, { version: 'draft' }));
    const run = await h.runToEnd(parent, { who: 'Ada' });
    expect(run.status).toBe('failed');
    const [first] = await h.store.listRuns(child);
    expect(first.status).toBe('failed');

    await h.runs.resume(run.id);
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('succeeded');
    const childRuns = await h.store.listRuns(child);
    expect(childRuns.map((r) => [r.id, r.status])).toEqual([[first.id, 'succeeded']]);
    expect(done.outputs?.childRunId).toBe(first.id);
    const childStarts = (await h.events(first.id)).filter((e) => e.type === 'run.started');
    expect(childStarts.map((e) => e.data.resumed)).toEqual([false, true]);
    expect(childStarts[1].data.reused).toContain('start');
  });
});
