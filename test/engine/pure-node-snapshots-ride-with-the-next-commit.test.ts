// Guarantees, both engines (PGlite):
// - a node with effects (here: probes) has its snapshot committed before any successor with effects starts;
// - pure nodes (Start, Template, Condition, End) never wait for a commit of their own: their snapshots ride with the
//   next commit, and so do the snapshots of nodes followed only by pure nodes (they ride with the run's final
//   commit, which carries the terminal status);
// - nothing is lost: every node's final snapshot is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import type { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { CommitBatch, RunStore } from '@/engine/store/types';
import { chainGraph, createHarness, interceptStore, probeCalls, resetProbes, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;
const cases = kinds.flatMap((kind) => (['dag', 'langgraph'] as const).map((engine) => [kind, engine] as const));

/**
 * Per commit: its node snapshots (id:status), the run status riding along, and how often each probe had run by then.
 */
type Commit = { nodes: string[]; status?: string; calls: Record<string, number> };

function recordingStore(inner: PrismaStore, log: Commit[]): RunStore {
  return interceptStore(inner, {
    async commit(runId: string, batch: CommitBatch) {
      log.push({
        nodes: (batch.nodes ?? []).map((n) => `${n.nodeId}:${n.status}`).sort(),
        status: batch.run?.status,
        calls: Object.fromEntries(probeCalls),
      });
      return inner.commit(runId, batch);
    },
  });
}

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}-${target}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

/** start → t1 (template) → p1 → c (condition) → p2 (taken) | p3 (skipped) → end */
const mixed: Graph = {
  nodes: [
    node('start', 'start', { inputs: [] }),
    node('t1', 'template', { template: 'hello' }),
    node('p1', 'probe'),
    node('c', 'condition', {
      branches: [{ id: 'yes', conditions: [{ left: '{{p1.output.value}}', op: 'eq', right: 'p1' }] }],
    }),
    node('p2', 'probe'),
    node('p3', 'probe'),
    node('end', 'end', { outputs: [{ name: 'out', value: '{{p2.output.value}}' }] }),
  ],
  edges: [
    edge('start', 't1'),
    edge('t1', 'p1'),
    edge('p1', 'c'),
    edge('c', 'p2', 'yes'),
    edge('c', 'p3', 'else'),
    edge('p2', 'end'),
    edge('p3', 'end'),
  ],
};

describe.each(cases)('commits of pure nodes on %s, %s engine', (kind, engine) => {
  let h: Harness;
  const log: Commit[] = [];
  beforeAll(async () => {
    h = await createHarness(kind, { wrapStore: (s) => recordingStore(s, log) });
  });
  afterAll(async () => {
    await h?.close();
  });

  it(
    'a chain: Start rides with p1, p1 is committed before p2 runs, ' + 'p2 and End ride with the final commit',
    async () => {
      resetProbes();
      const wf = await h.createWorkflow(chainGraph(2), 'chain', engine);
      log.length = 0;
      const run = await h.runToEnd(wf);
      expect(run.status).toBe('succeeded');
      expect(run.outputs).toEqual({ last: { value: 'p2', calls: 1 } });
      expect(log.map((c) => c.nodes)).toEqual([
        ['p1:succeeded', 'start:succeeded'],
        ['end:succeeded', 'p2:succeeded'],
      ]);
      expect(log[0].calls).toEqual({ p1: 1 }); // p2 had not started when p1's snapshot was committed
      expect(log[1].status).toBe('succeeded');
      const nodes = await h.store.getNodeRuns(run.id);
      expect(nodes.map((n) => `${n.nodeId}:${n.status}`).sort()).toEqual([
        'end:succeeded',
        'p1:succeeded',
        'p2:succeeded',
        'start:succeeded',
      ]);
      const types = (await h.events(run.id)).map((e) => `${e.type}${e.nodeId ? `:${e.nodeId}` : ''}`);
      expect(types.slice(-3)).toEqual(['node.started:end', 'node.succeeded:end', 'run.succeeded']);
    },
  );

  it('templates and conditions ride along too; a skipped branch is recorded; nothing is lost', async () => {
    resetProbes();
    const wf = await h.createWorkflow(mixed, 'mixed', engine);
    log.length = 0;
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ out: 'p2' });
    expect(log.map((c) => c.nodes)).toEqual([
      ['p1:succeeded', 'start:succeeded', 't1:succeeded'],
      ['c:succeeded', 'end:succeeded', 'p2:succeeded', 'p3:skipped'],
    ]);
    expect(log[0].calls).toEqual({ p1: 1 }); // p1 was durable before p2 (a node with effects) started
    expect(log[1].status).toBe('succeeded');
    const nodes = await h.store.getNodeRuns(run.id);
    expect(Object.fromEntries(nodes.map((n) => [n.nodeId, n.status]))).toEqual({
      start: 'succeeded',
      t1: 'succeeded',
      p1: 'succeeded',
      c: 'succeeded',
      p2: 'succeeded',
      p3: 'skipped',
      end: 'succeeded',
    });
    expect(nodes.find((n) => n.nodeId === 't1')?.output).toEqual({ text: 'hello' });
  });
});
