// Guarantees: a loop's `concurrency` must be a whole number from 1 to 32: anything else (0, 33, 1.5, "5") is refused
// when the workflow is saved, with a 400 INVALID_CONFIG whose path is the node's `config.concurrency`, and nothing is
// saved; GET /api/node-types describes the field (integer, 1–32, default 1, with its help text) so the editor's form
// offers it; and a loop with concurrency 5 is saved and runs to the same results as one without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as nodeTypes } from '@/app/api/node-types/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from '../api/api-helpers';
import { workflowCount } from '../api/invalid-graph-cases';

useFreshDataDir('paiflow-loop-concurrency-');

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

/** start(items) → loop(concurrency) → body template → back; done → end(results). */
const loopGraph = (concurrency: unknown) => ({
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'items', type: 'array' }] } },
    },
    {
      id: 'loop',
      type: 'loop',
      position: { x: 200, y: 0 },
      data: {
        config: {
          mode: 'list',
          items: '{{inputs.items}}',
          collect: '{{body.output.text}}',
          ...(concurrency !== undefined ? { concurrency } : {}),
        },
      },
    },
    {
      id: 'body',
      type: 'template',
      position: { x: 400, y: 0 },
      data: { config: { template: '{{loop.output.index}}={{loop.output.item}}' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 600, y: 0 },
      data: { config: { outputs: [{ name: 'results', value: '{{loop.output.results}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'loop' },
    { id: 'e2', source: 'loop', target: 'body', sourceHandle: 'body' },
    { id: 'e3', source: 'body', target: 'loop' },
    { id: 'e4', source: 'loop', target: 'end', sourceHandle: 'done' },
  ],
});

describe('loop concurrency in the API', () => {
  it.each([0, 33, 1.5, -2, '5'])(
    'concurrency %j → 400 INVALID_CONFIG at config.concurrency, nothing saved',
    async (bad) => {
      const before = await workflowCount();
      const a = await call(createWf, 'POST', '/api/workflows', { body: { name: 'bad loop', graph: loopGraph(bad) } });
      const err = expectError(a, 400, 'INVALID_CONFIG', 'graph.nodes[1].data.config.concurrency');
      expect(err.errors?.map((e) => e.path)).toContain('graph.nodes[1].data.config.concurrency');
      expect(await workflowCount()).toBe(before);
    },
  );

  it('GET /api/node-types describes concurrency for the form', async () => {
    const a = await call(nodeTypes, 'GET', '/api/node-types');
    expect(a.status).toBe(200);
    const loop = a.body.find((t: { type: string }) => t.type === 'loop');
    expect(loop.configSchema.properties.concurrency).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 32,
      default: 1,
    });
    expect(loop.configSchema.properties.concurrency.description).toMatch(/at the same time/);
  });

  it('a loop with concurrency 5 is saved and gives the results of a sequential one', async () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const results: unknown[] = [];
    for (const concurrency of [5, undefined]) {
      const created = await call(createWf, 'POST', '/api/workflows', {
        body: { name: `loop ${concurrency ?? 'default'}`, graph: loopGraph(concurrency) },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      const started = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
        params: { id },
        body: { inputs: { items } },
      });
      expect(started.status, started.text).toBe(202);
      const run = await waitForRun(getRun, started.body.runId);
      expect(run.status).toBe('succeeded');
      expect(run.engine).toBe('langgraph');
      results.push(run.outputs.results);
    }
    expect(results[0]).toEqual(items.map((x, i) => `${i}=${x}`));
    expect(results[0]).toEqual(results[1]);
  });
});
