// Guarantees: while a 402-node run of pure nodes executes on the state-graph engine, a published endpoint of another
// workflow keeps answering: its sync call is served (inserted, run and committed, all of which needs the event loop)
// before the long run has ended. Before, the long run was one chain of promise callbacks and every other request
// waited for its end.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWorkflow } from '@/app/api/workflows/route';
import { POST as runPublished } from '@/app/api/v1/workflows/[slug]/run/route';
import type { Graph } from '@/engine/graph/schema';
import { getApp } from '@/lib/server/app';
import { busyNode } from '../support/busy-node';
import { call, useFreshDataDir } from '../api/api-helpers';
import { bearer } from '../api/v1-endpoint-helpers';

function chain(type: string, count: number, config: Record<string, unknown> = {}): Graph {
  const at = { x: 0, y: 0 };
  const nodes: Graph['nodes'] = [{ id: 'start', type: 'start', position: at, data: { config: { inputs: [] } } }];
  const edges: Graph['edges'] = [];
  let prev = 'start';
  for (let i = 0; i < count; i++) {
    nodes.push({ id: `n${i}`, type, position: at, data: { config } });
    edges.push({ id: `e${i}`, source: prev, target: `n${i}` });
    prev = `n${i}`;
  }
  nodes.push({ id: 'end', type: 'end', position: at, data: { config: { outputs: [{ name: 'ok', value: 'yes' }] } } });
  edges.push({ id: 'e_end', source: prev, target: 'end' });
  return { nodes, edges };
}

let slug: string;
let key: string;

beforeAll(async () => {
  useFreshDataDir('paiflow-longrun-');
  (await getApp()).registry.register(busyNode);
  const small = await call(createWorkflow, 'POST', '/api/workflows', {
    body: { name: 'Small', graph: chain('template', 1, { template: 'hi' }) },
  });
  const params = { id: small.body.id };
  slug = (await call(publish, 'POST', `/api/workflows/${params.id}/publish`, { params, body: {} })).body.slug;
  key = (await call(createKey, 'POST', `/api/workflows/${params.id}/api-keys`, { params, body: {} })).body.key;
});

afterAll(async () => {
  await (await getApp()).close();
});

it('a published call is answered while a 402-node LangGraph run is still executing', async () => {
  const app = await getApp();
  const long = await call(createWorkflow, 'POST', '/api/workflows', {
    body: { name: 'Long', graph: chain('busy', 400), engine: 'langgraph' },
  });
  expect(long.status, long.text).toBe(201);
  const started = await call(startRun, 'POST', `/api/workflows/${long.body.id}/runs`, {
    params: { id: long.body.id },
    body: { inputs: {} },
  });
  expect(started.status).toBe(202);
  const runId = started.body.runId as string;
  // The bus may replay n1's start inside subscribe() (a busy machine): unsubscribe once the wait is over.
  let unsubscribe = () => {};
  await new Promise<void>((resolve) => {
    unsubscribe = app.bus.subscribe(runId, 0, (e) => {
      if (e.type === 'node.started' && e.nodeId === 'n1') resolve();
    });
  });
  unsubscribe();

  const answer = await call(runPublished, 'POST', `/api/v1/workflows/${slug}/run`, {
    params: { slug },
    headers: bearer(key),
    body: { inputs: {} },
  });
  const longStillRunning = app.runs.isActive(runId);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.status).toBe('succeeded');

  await app.runs.waitFor(runId);
  const done = await app.store.getRun(runId);
  expect(done).toMatchObject({ status: 'succeeded', engine: 'langgraph' });
  expect(longStillRunning, 'the published call had to wait for the long run to end').toBe(true);
});
