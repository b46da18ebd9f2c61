// Guarantee: the End node (pure, no successors) does not wait for a commit of its own — its snapshot and events
// ride with the run's final commit, which carries the terminal status; every other node's snapshot is still
// committed before any successor starts. Both engines, every store kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { CommitBatch, RunStore } from '@/engine/store/types';
import { storeKinds } from '../support/databases';
import { chainGraph, createHarness, resetProbes, type Harness } from '../support/harness';

const kinds = await storeKinds();
const cases = kinds.flatMap((kind) => (['dag', 'langgraph'] as const).map((engine) => [kind, engine] as const));

/** Records, per commit, which node snapshots (id:status) and whether the run's status rode along. */
function recordingStore(inner: PrismaStore, log: Array<{ nodes: string[]; status?: string }>): RunStore {
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'commit') {
        return async (runId: string, batch: CommitBatch) => {
          log.push({ nodes: (batch.nodes ?? []).map((n) => `${n.nodeId}:${n.status}`), status: batch.run?.status });
          return target.commit(runId, batch);
        };
      }
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as RunStore;
}

describe.each(cases)('End node snapshot on %s, %s engine', (kind, engine) => {
  let h: Harness;
  const log: Array<{ nodes: string[]; status?: string }> = [];
  beforeAll(async () => { h = await createHarness(kind, { wrapStore: (s) => recordingStore(s, log) }); });
  afterAll(async () => { await h?.close(); });

  it('rides with the final commit; p1 and p2 were each committed on their own before their successor', async () => {
    resetProbes();
    const wf = await h.createWorkflow(chainGraph(2), 'end-rides', engine);
    log.length = 0;
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ last: { value: 'p2', calls: 1 } });
    const final = log.findIndex((c) => c.status === 'succeeded');
    expect(final).toBe(log.length - 1);
    expect(log[final].nodes).toEqual(['end:succeeded']);
    expect(log.slice(0, final).flatMap((c) => c.nodes)).toEqual(['start:succeeded', 'p1:succeeded', 'p2:succeeded']);
    const nodes = await h.store.getNodeRuns(run.id);
    expect(nodes.find((n) => n.nodeId === 'end')).toMatchObject({ status: 'succeeded', output: { last: { value: 'p2', calls: 1 } } });
    const types = (await h.events(run.id)).map((e) => `${e.type}${e.nodeId ? `:${e.nodeId}` : ''}`);
    expect(types.slice(-3)).toEqual(['node.started:end', 'node.succeeded:end', 'run.succeeded']);
  });
});
