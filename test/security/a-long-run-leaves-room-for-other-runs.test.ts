// Guarantees: a long run of pure nodes (nothing in it waits for I/O) does not hold up the rest of the process, on
// either engine: a small run started while it executes (its database writes need the event loop) finishes while the
// long run is still going. Without turns given to the event loop, the small run could not even be inserted until the
// long run had ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { busyNode } from '../support/busy-node';
import { createHarness, type Harness } from '../support/harness';

const node = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});

function chain(type: string, count: number): Graph {
  const nodes = [node('start', 'start', { inputs: [] })];
  const edges: Graph['edges'] = [];
  let prev = 'start';
  for (let i = 0; i < count; i++) {
    nodes.push(node(`n${i}`, type));
    edges.push({ id: `e${i}`, source: prev, target: `n${i}` });
    prev = `n${i}`;
  }
  nodes.push(node('end', 'end', { outputs: [{ name: 'done', value: 'yes' }] }));
  edges.push({ id: 'e_end', source: prev, target: 'end' });
  return { nodes, edges };
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness('pglite', { nodes: [busyNode] });
});
afterAll(async () => {
  await h?.close();
});

describe('a long run of pure nodes beside another run', () => {
  for (const engine of ['dag', 'langgraph'] as const) {
    it(`${engine}: the other run finishes while the long one is still executing`, async () => {
      const longId = await h.createWorkflow(chain('busy', 400), 'long', engine);
      const smallId = await h.createWorkflow(chain('probe', 1), 'small', 'dag');
      const long = await h.runs.start({ workflow: (await h.store.getWorkflow(longId))!, inputs: {} });
      // Wait until the long run is executing its busy nodes. The bus may replay n1's start inside subscribe()
      // (on a busy machine): unsubscribe once the wait is over.
      let unsubscribe = () => {};
      await new Promise<void>((resolve) => {
        unsubscribe = h.bus.subscribe(long.run.id, 0, (e) => {
          if (e.type === 'node.started' && e.nodeId === 'n1') resolve();
        });
      });
      unsubscribe();
      const small = await h.runToEnd(smallId);
      const longStillActive = h.runs.isActive(long.run.id);
      await h.runs.waitFor(long.run.id);
      expect(small.status).toBe('succeeded');
      expect((await h.store.getRun(long.run.id))!.status).toBe('succeeded');
      expect(longStillActive, 'the small run had to wait for the long one to end').toBe(true);
    });
  }
});
