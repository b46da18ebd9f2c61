// Guarantees: every node the offline demo model answered (an LLM node, an Agent, any node type that calls the model)
// says so in its stored usage (`usage.demo: true`), and so does the run — its end event's usage and GET
// /api/runs/:id's `demo` — while a node a real server answered (here a base URL without a key, the scripted server)
// carries no such mark, and a run with no demo answer says `demo: false`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { presentRun } from '@/lib/server/workflows/workflows';
import { createHarness, type Harness } from '../support/harness';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

const at = { x: 0, y: 0 };
const node = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: at,
  data: { config },
});
const chain = (...ids: string[]) => ids.slice(1).map((id, i) => ({ id: `e${i}`, source: ids[i], target: id }));

let h: Harness;
let local: FakeOpenAi;
beforeAll(async () => {
  local = await startFakeOpenAi();
  h = await createHarness('pglite');
});
afterAll(async () => {
  await h?.close();
  await local?.close();
});

async function runOf(graph: Graph) {
  const run = await h.runToEnd(await h.createWorkflow(graph));
  const nodes = await h.store.getNodeRuns(run.id);
  const end = (await h.events(run.id)).find((e) => e.type === 'run.succeeded');
  return { run, nodes, view: presentRun(run, nodes), endUsage: end?.data.usage as Record<string, unknown> };
}

describe('the demo model', () => {
  it('marks each node it answered, and the run, and no node a real server answered', async () => {
    const { run, nodes, view, endUsage } = await runOf({
      nodes: [
        node('start', 'start'),
        node('offline', 'llm', { userPrompt: 'hello' }),
        node('local', 'llm', { model: 'llama3.1', userPrompt: 'hello', provider: { baseUrl: local.baseURL } }),
        node('agent', 'agent', { task: 'say hi' }),
        node('end', 'end', { outputs: [{ name: 'a', value: '{{local.output.text}}' }] }),
      ],
      edges: chain('start', 'offline', 'local', 'agent', 'end'),
    });
    expect(run.status).toBe('succeeded');
    const usage = Object.fromEntries(nodes.map((n) => [n.nodeId, n.usage]));
    expect(usage.offline).toMatchObject({ demo: true, costUsd: 0 });
    expect(usage.agent).toMatchObject({ demo: true });
    expect(usage.local).not.toHaveProperty('demo');
    expect(usage.local!.inputTokens).toBeGreaterThan(0);
    expect(view.demo).toBe(true);
    expect(view.usage.demo).toBe(true);
    expect(view.nodes.find((n) => n.nodeId === 'offline')!.usage).toMatchObject({ demo: true });
    expect(endUsage).toMatchObject({ demo: true });
  });

  it('is not claimed for a run that no demo answer took part in', async () => {
    const { view, endUsage } = await runOf({
      nodes: [
        node('start', 'start'),
        node('local', 'llm', { model: 'llama3.1', userPrompt: 'hello', provider: { baseUrl: local.baseURL } }),
        node('end', 'end', { outputs: [{ name: 'a', value: '{{local.output.text}}' }] }),
      ],
      edges: chain('start', 'local', 'end'),
    });
    expect(view.status).toBe('succeeded');
    expect(view.demo).toBe(false);
    expect(view.usage).not.toHaveProperty('demo');
    expect(endUsage).not.toHaveProperty('demo');
  });
});
