// Guarantees: acyclic workflows behave identically on the DAG engine and the LangGraph engine — same node
// statuses, outputs and trace-event type sequence — including skipped branches, fan-out/fan-in and failure + resume,
// and a run whose path reaches no End node, which fails with NO_END_REACHED (never a success with no outputs).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import type { TraceEvent } from '@/engine/events/types';
import { SUPPORT_TRIAGE_EXAMPLE } from '@/engine/examples/support-triage';
import { createHarness, probeCalls, probeScript, resetProbes, type Harness } from '../support/harness';

const n = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const e = (source: string, target: string, sourceHandle?: string): Graph['edges'][number] => ({
  id: `${source}-${target}-${sourceHandle ?? ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
const start = n('start', 'start', { inputs: [{ name: 'x', type: 'number', required: false }] });
const end = (value: string) => n('end', 'end', { outputs: [{ name: 'out', value }] });

const FIXTURES: Record<string, { graph: Graph; inputs?: Record<string, unknown> }> = {
  linear: {
    graph: {
      nodes: [
        start,
        n('a', 'probe'),
        n('b', 'template', { template: 'b saw {{a.output.value}}' }),
        end('{{b.output.text}}'),
      ],
      edges: [e('start', 'a'), e('a', 'b'), e('b', 'end')],
    },
  },
  diamond: {
    graph: {
      nodes: [
        start,
        n('a', 'probe'),
        n('b', 'probe'),
        n('c', 'probe'),
        n('d', 'template', { template: '{{b.output.value}}+{{c.output.value}}' }),
        end('{{d.output.text}}'),
      ],
      edges: [e('start', 'a'), e('a', 'b'), e('a', 'c'), e('b', 'd'), e('c', 'd'), e('d', 'end')],
    },
  },
  'condition with skipped branch': {
    graph: SUPPORT_TRIAGE_EXAMPLE.graph,
    inputs: { message: 'all good, just a question' },
  },
  'fan-out / fan-in': {
    graph: {
      nodes: [
        start,
        n('p1', 'probe'),
        n('p2', 'probe'),
        n('p3', 'probe'),
        n('p4', 'probe'),
        n('join', 'template', {
          template: '{{p1.output.value}},{{p2.output.value}},{{p3.output.value}},{{p4.output.value}}',
        }),
        end('{{join.output.text}}'),
      ],
      edges: [
        e('start', 'p1'),
        e('start', 'p2'),
        e('start', 'p3'),
        e('start', 'p4'),
        e('p1', 'join'),
        e('p2', 'join'),
        e('p3', 'join'),
        e('p4', 'join'),
        e('join', 'end'),
      ],
    },
  },
};

async function runOn(h: Harness, engine: 'dag' | 'langgraph', graph: Graph, inputs: Record<string, unknown> = {}) {
  const wfId = await h.createWorkflow(graph);
  const wf = (await h.store.getWorkflow(wfId))!;
  const { run } = await h.runs.start({ workflow: wf, inputs, engine });
  await h.runs.waitFor(run.id);
  return run.id;
}

async function summary(h: Harness, runId: string) {
  const run = (await h.store.getRun(runId))!;
  const nodes = Object.fromEntries(
    (await h.store.getNodeRuns(runId)).map((x) => [
      x.nodeId,
      { status: x.status, output: x.output, attempt: x.attempt },
    ]),
  );
  const events = await h.events(runId);
  return { status: run.status, outputs: run.outputs, engine: run.engine, nodes, types: normalise(events) };
}

/**
 * Event types in order; within a burst of node.started events the order is a race, so compare them as per-node streams
 * too.
 */
function normalise(events: TraceEvent[]) {
  const perNode: Record<string, string[]> = {};
  for (const ev of events) if (ev.nodeId) (perNode[ev.nodeId] ??= []).push(ev.type);
  return {
    sequence: events.map((x) => x.type).filter((t) => t !== 'node.token'),
    perNode,
    seqs: events.map((x) => x.seq),
  };
}

describe('DAG vs LangGraph parity (embedded store)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => resetProbes());

  for (const [name, fx] of Object.entries(FIXTURES)) {
    it(`${name}: same statuses, outputs and event types`, async () => {
      const dag = await summary(h, await runOn(h, 'dag', fx.graph, fx.inputs));
      resetProbes();
      const lg = await summary(h, await runOn(h, 'langgraph', fx.graph, fx.inputs));
      expect(dag.status).toBe('succeeded');
      expect(lg.engine).toBe('langgraph');
      expect(lg.status).toBe(dag.status);
      expect(lg.outputs).toEqual(dag.outputs);
      expect(lg.nodes).toEqual(dag.nodes);
      expect(lg.types.perNode).toEqual(dag.types.perNode);
      expect([...lg.types.sequence].sort()).toEqual([...dag.types.sequence].sort());
      expect(lg.types.sequence[0]).toBe('run.started');
      expect(lg.types.sequence.at(-1)).toBe('run.succeeded');
      expect(lg.types.seqs).toEqual(lg.types.seqs.map((_, i) => i + 1));
    });
  }

  it('failure + resume: same statuses before and after, completed nodes never re-run, on both engines', async () => {
    const graph: Graph = {
      nodes: [
        start,
        n('a', 'probe'),
        n('b', 'probe'),
        n('c', 'probe'),
        n('c2', 'probe'),
        n('join', 'probe'),
        end('{{join.output.value}}'),
      ],
      edges: [
        e('start', 'a'),
        e('start', 'b'),
        e('start', 'c'),
        e('c', 'c2'),
        e('a', 'join'),
        e('b', 'join'),
        e('c2', 'join'),
        e('join', 'end'),
      ],
    };
    const results: Record<string, unknown> = {};
    for (const engine of ['dag', 'langgraph'] as const) {
      resetProbes();
      probeScript.set('b', { fail: 1 });
      const runId = await runOn(h, engine, graph);
      const failed = await summary(h, runId);
      expect(failed.status).toBe('failed');
      await h.runs.resume(runId);
      await h.runs.waitFor(runId);
      const done = await summary(h, runId);
      expect(done.status).toBe('succeeded');
      expect(Object.fromEntries(probeCalls)).toEqual({ a: 1, b: 2, c: 1, c2: 1, join: 1 });
      results[engine] = {
        failedNodes: failed.nodes,
        doneNodes: done.nodes,
        outputs: done.outputs,
        perNode: done.types.perNode,
      };
    }
    expect(results.langgraph).toEqual(results.dag);
  });

  it('a branch ending nowhere: NO_END_REACHED naming where it stopped, both engines; fixed, it resumes', async () => {
    const nodes = [
      n('start', 'start', { inputs: [{ name: 'x', type: 'number', required: false }] }),
      n('route', 'condition', {
        branches: [{ id: 'big', conditions: [{ left: '{{inputs.x}}', op: 'gt', right: '10', valueType: 'number' }] }],
      }),
      n('answer', 'template', { template: 'big' }),
      n('side', 'probe'),
      end('{{answer.output.text}}'),
    ];
    const edges = [e('start', 'route'), e('route', 'answer', 'big'), e('route', 'side', 'else'), e('answer', 'end')];
    const results: Record<string, unknown> = {};
    for (const engine of ['dag', 'langgraph'] as const) {
      resetProbes();
      const runId = await runOn(h, engine, { nodes, edges }, { x: 1 });
      const run = (await h.store.getRun(runId))!;
      expect(run.status, engine).toBe('failed');
      expect(run.outputs).toBeNull();
      expect(run.error).toMatchObject({ code: 'NO_END_REACHED', details: { endedAt: ['side'] } });
      expect(run.error!.message).toMatch(/"side" without reaching an End node/);
      const failed = await summary(h, runId);
      expect(failed.types.sequence.at(-1)).toBe('run.failed');
      // Resumed as it is, it stops where it did, with the same error (nothing runs again).
      await h.runs.resume(runId);
      await h.runs.waitFor(runId);
      expect((await h.store.getRun(runId))!.error, engine).toMatchObject({ code: 'NO_END_REACHED' });
      // The fix: the path it took now leads to an End node. A resume runs only what is new.
      const wf = (await h.store.getWorkflow(run.workflowId))!;
      await h.store.updateWorkflow(wf.id, { graph: { nodes, edges: [...edges, e('side', 'end')] } }, wf.revision);
      await h.runs.resume(runId);
      await h.runs.waitFor(runId);
      const fixed = await summary(h, runId);
      expect(fixed.status).toBe('succeeded');
      expect(Object.fromEntries(probeCalls)).toEqual({ side: 1 });
      results[engine] = { failedNodes: failed.nodes, error: run.error, fixed: fixed.nodes, outputs: fixed.outputs };
    }
    expect(results.langgraph).toEqual(results.dag);
  });

  it('a failure mid-chain + resume: the nodes before it never re-run, on both engines', async () => {
    // The state-graph engine runs a straight stretch as one LangGraph node (langgraph-plan.ts straightLineBlocks):
    // the resume must start inside it, at the failed node.
    const graph: Graph = {
      nodes: [start, n('a', 'probe'), n('b', 'probe'), n('c', 'probe'), n('d', 'probe'), end('{{d.output.value}}')],
      edges: [e('start', 'a'), e('a', 'b'), e('b', 'c'), e('c', 'd'), e('d', 'end')],
    };
    const results: Record<string, unknown> = {};
    for (const engine of ['dag', 'langgraph'] as const) {
      resetProbes();
      probeScript.set('c', { fail: 1 });
      const runId = await runOn(h, engine, graph);
      const failed = await summary(h, runId);
      expect(failed.status).toBe('failed');
      expect(failed.nodes.d).toBeUndefined();
      await h.runs.resume(runId);
      await h.runs.waitFor(runId);
      const done = await summary(h, runId);
      expect(done.status).toBe('succeeded');
      expect(Object.fromEntries(probeCalls)).toEqual({ a: 1, b: 1, c: 2, d: 1 });
      results[engine] = { failedNodes: failed.nodes, doneNodes: done.nodes, outputs: done.outputs, types: done.types };
    }
    expect(results.langgraph).toEqual(results.dag);
  });
});
