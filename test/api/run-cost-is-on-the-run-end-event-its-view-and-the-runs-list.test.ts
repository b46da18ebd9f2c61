// Guarantees: a run carries its own `costUsd` — the sum of its nodes' tokens × the model's price — in its end event
// (run.succeeded / run.failed data, with the run's `usage`), in GET /api/runs/:id and in its GET /api/runs row; a
// failed run costs what its nodes spent before failing; a resumed run's total counts the nodes it reused; one node of a
// model without a price makes the run's cost unknown (null) everywhere; a run without LLM work costs 0. Real app on the
// embedded database, an OpenAI-compatible server scripted over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as resumeRun } from '@/app/api/runs/[runId]/resume/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as listRuns } from '@/app/api/runs/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { expectedUsd } from '../llm/cost-support';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { call, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir, waitForRun } from './api-helpers';

useFreshDataDir('paiflow-run-cost-');
process.env.SEED_EXAMPLE = '0';

// MODEL_PRICES (USD per million tokens) for two scripted models; `acme-large` has no price anywhere.
const FIRST = { input: 1, cachedInput: 0.25, output: 3 };
const SECOND = { input: 2, output: 8 };

/** start → l1 (`first`) → l2 (`second`) → end. */
function twoLlmGraph(first: string, second: string) {
  const llm = (id: string, model: string, x: number) => ({
    id,
    type: 'llm',
    position: { x, y: 0 },
    data: { config: { model, userPrompt: `Say ${id}`, stream: false } },
  });
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      llm('l1', first, 200),
      llm('l2', second, 400),
      {
        id: 'end',
        type: 'end',
        position: { x: 600, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{l2.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'l1' },
      { id: 'e2', source: 'l1', target: 'l2' },
      { id: 'e3', source: 'l2', target: 'end' },
    ],
  };
}

describe('the cost of a run, on the run itself', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    process.env.OPENAI_API_KEY = 'test';
    process.env.OPENAI_BASE_URL = fake.baseURL;
    process.env.MODEL_PRICES = JSON.stringify({ 'model-first': FIRST, 'model-second': SECOND });
  });
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await fake?.close();
    delete process.env.MODEL_PRICES;
  });

  async function workflow(graph: unknown): Promise<string> {
    const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: `cost ${Math.random()}`, graph } });
    expect(wf.status, wf.text).toBe(201);
    return wf.body.id;
  }
  async function runOf(workflowId: string) {
    const r = await call(startRun, 'POST', `/api/workflows/${workflowId}/runs`, {
      body: { inputs: { message: 'hi' } },
      params: { id: workflowId },
    });
    expect(r.status, r.text).toBe(202);
    return waitForRun(getRun, r.body.runId);
  }
  async function endEvent(runId: string) {
    const events = await (await getApp()).store.getEvents(runId);
    return events.filter((e) => e.type === 'run.succeeded' || e.type === 'run.failed').at(-1)!;
  }
  async function listed(workflowId: string) {
    const a = await call(listRuns, 'GET', `/api/runs?workflowId=${workflowId}`);
    expect(a.status, a.text).toBe(200);
    return a.body.runs as Array<{ id: string; status: string; costUsd: number | null }>;
  }

  it('a succeeded run: end event, run view and runs list all state tokens × price', async () => {
    fake.script(
      {
        text: 'one',
        usage: { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 600 } },
      },
      { text: 'two', usage: { prompt_tokens: 3000, completion_tokens: 250 } },
    );
    const wf = await workflow(twoLlmGraph('model-first', 'model-second'));
    const run = await runOf(wf);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const expected =
      expectedUsd(FIRST, { input: 1000, cached: 600, output: 100 }) + expectedUsd(SECOND, { input: 3000, output: 250 });
    expect(expected).toBeGreaterThan(0);

    const end = await endEvent(run.id);
    expect(end.type).toBe('run.succeeded');
    expect(end.data.costUsd as number).toBeCloseTo(expected, 12);
    expect(end.data.usage).toMatchObject({ inputTokens: 4000, outputTokens: 350 });
    expect(run.costUsd).toBeCloseTo(expected, 12);
    expect(run.usage.costUsd).toBeCloseTo(expected, 12);
    const [row] = await listed(wf);
    expect(row.id).toBe(run.id);
    expect(row.costUsd as number).toBeCloseTo(expected, 12);
  });

  it('a failed run costs what ran before the failure; its resume counts the reused node', async () => {
    fake.script({ text: 'one', usage: { prompt_tokens: 500, completion_tokens: 50 } }, { status: 400 });
    const wf = await workflow(twoLlmGraph('model-first', 'model-second'));
    const failed = await runOf(wf);
    expect(failed.status).toBe('failed');
    const firstCost = expectedUsd(FIRST, { input: 500, output: 50 });
    const end = await endEvent(failed.id);
    expect(end.type).toBe('run.failed');
    expect(end.data.costUsd as number).toBeCloseTo(firstCost, 12);
    expect(failed.costUsd).toBeCloseTo(firstCost, 12);
    expect((await listed(wf))[0].costUsd as number).toBeCloseTo(firstCost, 12);

    fake.script({ text: 'two', usage: { prompt_tokens: 700, completion_tokens: 70 } });
    const before = fake.requests.length;
    const r = await call(resumeRun, 'POST', `/api/runs/${failed.id}/resume`, {
      body: {},
      params: { runId: failed.id },
    });
    expect(r.status, r.text).toBe(202);
    const resumed = await waitForRun(getRun, failed.id);
    expect(resumed.status, JSON.stringify(resumed.error)).toBe('succeeded');
    expect(fake.requests.length - before).toBe(1); // l1 was reused, not called again
    const total = firstCost + expectedUsd(SECOND, { input: 700, output: 70 });
    const resumedEnd = await endEvent(failed.id);
    expect(resumedEnd.type).toBe('run.succeeded');
    expect(resumedEnd.data.costUsd as number).toBeCloseTo(total, 12);
    expect(resumedEnd.data.usage).toMatchObject({ inputTokens: 1200, outputTokens: 120 });
    expect(resumed.costUsd).toBeCloseTo(total, 12);
    expect((await listed(wf))[0].costUsd as number).toBeCloseTo(total, 12);
  });

  it('one node without a price: the run’s cost is unknown (null), not the known part', async () => {
    fake.script(
      { text: 'one', usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { text: 'two', usage: { prompt_tokens: 100, completion_tokens: 10 } },
    );
    const wf = await workflow(twoLlmGraph('model-first', 'acme-large'));
    const run = await runOf(wf);
    expect(run.status).toBe('succeeded');
    expect((await endEvent(run.id)).data.costUsd).toBeNull();
    expect(run.costUsd).toBeNull();
    expect((await listed(wf))[0].costUsd).toBeNull();
  });

  it('a run without LLM work costs 0', async () => {
    const wf = await workflow(simpleGraph());
    const run = await runOf(wf);
    expect(run.status).toBe('succeeded');
    expect((await endEvent(run.id)).data.costUsd).toBe(0);
    expect(run.costUsd).toBe(0);
    expect((await listed(wf))[0].costUsd).toBe(0);
  });
});
