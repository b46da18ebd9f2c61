// Guarantees: on the LangGraph engine, cycles and loop nodes iterate the right number of times (recorded as node
// attempts), and endless loops fail with a clear error instead of hanging. (Human input, on either engine:
// human-input-pauses-on-either-engine-and-survives-a-restart.test.ts.)
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { createHarness, probeCalls, resetProbes, type Harness } from '../support/harness';

const n = (
  id: string,
  type: string,
  config: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Graph['nodes'][number] => ({ id, type, position: { x: 0, y: 0 }, data: { config, ...extra } });
const e = (source: string, target: string, sourceHandle?: string): Graph['edges'][number] => ({
  id: `${source}-${target}-${sourceHandle ?? ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

/** draft → review → approved? → (no) back to draft, at most 3 drafts; (yes) → end. */
const REVIEW_LOOP: Graph = {
  nodes: [
    n('start', 'start', { inputs: [{ name: 'topic', type: 'string' }] }),
    n('draft', 'template', {
      template: 'Draft about {{inputs.topic}} (previous review: {{review.output.calls || "none"}})',
    }),
    n('review', 'probe'),
    n('approved', 'condition', {
      branches: [
        { id: 'yes', conditions: [{ left: '{{review.output.calls}}', op: 'gte', right: '3', valueType: 'number' }] },
      ],
    }),
    n('end', 'end', {
      outputs: [
        { name: 'final', value: '{{draft.output.text}}' },
        { name: 'reviews', value: '{{review.output.calls}}' },
      ],
    }),
  ],
  edges: [
    e('start', 'draft'),
    e('draft', 'review'),
    e('review', 'approved'),
    e('approved', 'draft', 'else'),
    e('approved', 'end', 'yes'),
  ],
};

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

describe.each(kinds)('LangGraph engine on %s', (kind) => {
  const harnesses: Harness[] = [];
  const harness = async () => {
    const h = await createHarness(kind);
    harnesses.push(h);
    return h;
  };
  afterAll(async () => {
    for (const h of harnesses) await h.close().catch(() => {});
  });
  beforeEach(() => resetProbes());

  it('picks langgraph automatically for a cycle and runs the review loop 3 times', async () => {
    const h = await harness();
    const wf = await h.createWorkflow(REVIEW_LOOP);
    const run = await h.runToEnd(wf, { topic: 'tides' });
    expect(run.engine).toBe('langgraph');
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ final: 'Draft about tides (previous review: 2)', reviews: 3 });
    const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((x) => [x.nodeId, x]));
    expect(nodes.draft.attempt).toBe(3);
    expect(nodes.review.attempt).toBe(3);
    expect(nodes.approved.attempt).toBe(3);
    expect(nodes.end.attempt).toBe(1);
    expect(probeCalls.get('review')).toBe(3);
    const events = await h.events(run.id);
    expect(events.filter((x) => x.type === 'node.succeeded' && x.nodeId === 'draft')).toHaveLength(3);
    expect(events.map((x) => x.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('an endless cycle fails with LOOP_LIMIT, never hangs', async () => {
    const h = await harness();
    const g: Graph = {
      nodes: [n('start', 'start'), n('a', 'probe', {}, { maxIterations: 5 }), n('b', 'probe'), n('end', 'end')],
      edges: [e('start', 'a'), e('a', 'b'), e('b', 'a'), e('b', 'end')],
    };
    const run = await h.runToEnd(await h.createWorkflow(g));
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('LOOP_LIMIT');
    expect(run.error?.message).toMatch(/limit is 5/);
    expect(probeCalls.get('a')).toBe(5);
  });

  it('a loop node iterates over a list and collects the body results', async () => {
    const h = await harness();
    const g: Graph = {
      nodes: [
        n('start', 'start', { inputs: [{ name: 'items', type: 'array' }] }),
        n('loop', 'loop', {
          mode: 'list',
          items: '{{inputs.items}}',
          collect: '{{body.output.text}}',
          maxIterations: 10,
        }),
        n('body', 'template', { template: 'item {{loop.output.index}}: {{loop.output.item}}' }),
        n('end', 'end', { outputs: [{ name: 'results', value: '{{loop.output.results}}' }] }),
      ],
      edges: [e('start', 'loop'), e('loop', 'body', 'body'), e('body', 'loop'), e('loop', 'end', 'done')],
    };
    const run = await h.runToEnd(await h.createWorkflow(g), { items: ['a', 'b', 'c'] });
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.results).toEqual(['item 0: a', 'item 1: b', 'item 2: c']);
    const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((x) => [x.nodeId, x]));
    expect(nodes.loop.attempt).toBe(4);
    expect(nodes.body.attempt).toBe(3);
  });

  it('a loop over more items than maxIterations fails clearly', async () => {
    const h = await harness();
    const g: Graph = {
      nodes: [
        n('start', 'start', { inputs: [{ name: 'items', type: 'array' }] }),
        n('loop', 'loop', { mode: 'list', items: '{{inputs.items}}', maxIterations: 2 }),
        n('body', 'template', { template: 'x' }),
        n('end', 'end'),
      ],
      edges: [e('start', 'loop'), e('loop', 'body', 'body'), e('body', 'loop'), e('loop', 'end', 'done')],
    };
    const run = await h.runToEnd(await h.createWorkflow(g), { items: [1, 2, 3, 4] });
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('LOOP_LIMIT');
  });
});
