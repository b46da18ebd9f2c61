// The run's final commit (terminal status + event) starts as soon as its outcome can no longer change: on the
// state-graph engine, when an End node finishes and every node is decided — before LangGraph has wound down. Never
// earlier: a node still running elsewhere in the graph (not on the way to End) decides the outcome too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import type { CommitBatch } from '@/engine/store/types';
import { chainGraph, createHarness, interceptStore, probeScript, resetProbes, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

/**
 * start → p1 → end, and start → s1 → slow: `slow` leads nowhere and runs in the same LangGraph step as End, so End
 * finishes while it still runs.
 */
const sideBranch: Graph = {
  nodes: [
    node('start', 'start', { inputs: [] }),
    node('p1', 'probe'),
    node('s1', 'probe'),
    node('slow', 'probe'),
    node('end', 'end', { outputs: [{ name: 'out', value: '{{p1.output.value}}' }] }),
  ],
  edges: [edge('start', 'p1'), edge('p1', 'end'), edge('start', 's1'), edge('s1', 'slow')],
};

describe.each(kinds)('the final commit on %s', (kind) => {
  let h: Harness;
  /** What happened, in order: each commit (with the run status it carries) and each engine return. */
  const log: string[] = [];

  beforeAll(async () => {
    h = await createHarness(kind, {
      wrapStore: (store) =>
        interceptStore(store, {
          async commit(runId: string, batch: CommitBatch) {
            log.push(`commit${batch.run?.status ? `:${batch.run.status}` : ''}`);
            return store.commit(runId, batch);
          },
        }),
      wrapLangGraph: (engine) => async (a) => {
        const r = await engine(a);
        log.push(`engine returned:${r.status}`);
        return r;
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  async function run(graph: Graph) {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(graph, 'final', 'langgraph')))!;
    log.length = 0;
    const { run } = await h.runs.start({ workflow: wf, inputs: {} });
    const outcome = await h.runs.outcome(run.id);
    return { outcome, stored: (await h.store.getRun(run.id))!, events: await h.events(run.id) };
  }

  it('a chain: the commit with the terminal status is sent when End finishes, before the engine returns', async () => {
    resetProbes();
    const { outcome, stored, events } = await run(chainGraph(2));
    expect(log).toEqual(['commit', 'commit:succeeded', 'engine returned:succeeded']);
    expect(outcome).toMatchObject({ status: 'succeeded', outputs: { last: { value: 'p2', calls: 1 } } });
    expect(stored).toMatchObject({ status: 'succeeded', outputs: { last: { value: 'p2', calls: 1 } }, error: null });
    expect(stored.finishedAt).not.toBeNull();
    expect(events.map((e) => e.type).slice(-3)).toEqual(['node.started', 'node.succeeded', 'run.succeeded']);
    expect((await h.store.getNodeRuns(stored.id)).map((n) => `${n.nodeId}:${n.status}`).sort()).toEqual([
      'end:succeeded',
      'p1:succeeded',
      'p2:succeeded',
      'start:succeeded',
    ]);
  });

  it('End finishing while another branch still runs decides nothing: that branch fails, so the run fails', async () => {
    resetProbes();
    probeScript.set('slow', { sleepMs: 150, fail: true });
    const { outcome, stored, events } = await run(sideBranch);
    expect(log).not.toContain('commit:succeeded');
    expect(log.slice(-2)).toEqual(['engine returned:failed', 'commit:failed']);
    expect(outcome?.status).toBe('failed');
    expect(stored.status).toBe('failed');
    expect(stored.error).toMatchObject({ code: 'PROBE_FAILED', details: { nodeId: 'slow' } });
    expect(events.map((e) => e.type)).not.toContain('run.succeeded');
    expect((await h.store.getNodeRuns(stored.id)).map((n) => `${n.nodeId}:${n.status}`).sort()).toEqual([
      'end:succeeded',
      'p1:succeeded',
      's1:succeeded',
      'slow:failed',
      'start:succeeded',
    ]);
  });

  it("and when that branch succeeds, the run succeeds with End's outputs once it is done", async () => {
    resetProbes();
    probeScript.set('slow', { sleepMs: 150 });
    const { stored } = await run(sideBranch);
    expect(log.slice(-2)).toEqual(['engine returned:succeeded', 'commit:succeeded']);
    expect(stored).toMatchObject({ status: 'succeeded', outputs: { out: 'p1' } });
  });
});
