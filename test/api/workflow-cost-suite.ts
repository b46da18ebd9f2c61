/**
 * The cost contract over the HTTP API with the real app (an OpenAI-compatible server scripted over real HTTP), run on
 * the embedded database (its SQL on both databases: the RunAnalyticsStore conformance suite): GET /api/runs/:id has
 * the run's `usage: { inputTokens, outputTokens, costUsd }` (the sum of its nodes', at MODEL_PRICES over the built-in
 * list, a credential's own `prices` over both), and GET /api/workflows/:id/cost sums the workflow's runs created in
 * [from, to): runs, tokens, the known cost and how many runs used a model without a price; another workspace's
 * workflow is 404; a bad date is 400.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { POST as createCred } from '@/app/api/credentials/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as getCost } from '@/app/api/workflows/[id]/cost/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { getApp } from '@/lib/server/app';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { expectedUsd, llmGraph } from '../llm/cost-support';
import { call, expectError, expectNoServerErrorsOrStacks, waitForRun } from './api-helpers';

const ENV_MINI = { input: 1, cachedInput: 0.25, output: 3 };
const CRED_MINI = { input: 10, output: 20 };

/** Call after pointing the app at a fresh database (useFreshDataDir, DATABASE_URL…) and before its first use. */
export function workflowCostSuite(onClose?: () => Promise<void>) {
  process.env.SEED_EXAMPLE = '0';
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    process.env.OPENAI_API_KEY = 'test';
    process.env.OPENAI_BASE_URL = fake.baseURL;
    process.env.MODEL_PRICES = JSON.stringify({ 'gpt-4o-mini': ENV_MINI });
  });
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await fake?.close();
    delete process.env.MODEL_PRICES;
    await onClose?.();
  });

  async function workflow(config: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
    const wf = await call(createWf, 'POST', '/api/workflows', {
      body: { name: `cost ${Math.random()}`, graph: llmGraph(config) },
      headers,
    });
    expect(wf.status, wf.text).toBe(201);
    return wf.body.id;
  }
  async function run(id: string, usage: { prompt_tokens: number; completion_tokens: number; cached?: number }) {
    const { cached, ...rest } = usage;
    fake.script({
      text: 'ok',
      usage: { ...rest, ...(cached ? { prompt_tokens_details: { cached_tokens: cached } } : {}) },
    });
    const r = await call(startRun, 'POST', `/api/workflows/${id}/runs`, { body: { inputs: {} }, params: { id } });
    expect(r.status, r.text).toBe(202);
    const done = await waitForRun(getRun, r.body.runId);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    return done;
  }
  const cost = (id: string, query = '', headers: Record<string, string> = {}) =>
    call(getCost, 'GET', `/api/workflows/${id}/cost${query}`, { params: { id }, headers });

  it("a run's view has its total cost at MODEL_PRICES (over the built-in price)", async () => {
    const wf = await workflow({ model: 'gpt-4o-mini' });
    const done = await run(wf, { prompt_tokens: 1000, completion_tokens: 100, cached: 600 });
    const expected = expectedUsd(ENV_MINI, { input: 1000, cached: 600, output: 100 });
    expect(done.usage.inputTokens).toBe(1000);
    expect(done.usage.outputTokens).toBe(100);
    expect(done.usage.costUsd).toBeCloseTo(expected, 12);
    expect(done.nodes.find((n: any) => n.nodeId === 'l1').usage.costUsd).toBeCloseTo(expected, 12);
  });

  it("a credential's prices override MODEL_PRICES", async () => {
    const cred = await call(createCred, 'POST', '/api/credentials', {
      body: {
        name: 'priced provider',
        type: 'openai',
        data: { baseUrl: fake.baseURL, apiKey: 'cred-key-0123456789', prices: { 'gpt-4o-mini': CRED_MINI } },
      },
    });
    expect(cred.status, cred.text).toBe(201);
    const bad = await call(createCred, 'POST', '/api/credentials', {
      body: { name: 'bad prices', type: 'openai', data: { apiKey: 'k-0123456789', prices: { x: { input: -1 } } } },
    });
    expectError(bad, 400, 'VALIDATION_ERROR');
    const wf = await workflow({ model: 'gpt-4o-mini', credentialId: cred.body.id });
    const done = await run(wf, { prompt_tokens: 2000, completion_tokens: 300 });
    expect(fake.tokens.at(-1)).toBe('cred-key-0123456789');
    expect(done.usage.costUsd).toBeCloseTo(expectedUsd(CRED_MINI, { input: 2000, output: 300 }), 12);
  });

  it('sums the runs of a time range, counts runs without a price, and is scoped to the workspace', async () => {
    const priced = await workflow({ model: 'gpt-4o-mini' });
    const first = await run(priced, { prompt_tokens: 100, completion_tokens: 10 });
    await new Promise((r) => setTimeout(r, 30));
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 30));
    const second = await run(priced, { prompt_tokens: 200, completion_tokens: 20 });

    const all = await cost(priced);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ workflowId: priced, runs: 2, inputTokens: 300, outputTokens: 30 });
    expect(all.body.unknownPriceRuns).toBe(0);
    expect(all.body.costUsd).toBeCloseTo(first.usage.costUsd + second.usage.costUsd, 12);
    expect(all.body.costUsd).toBeCloseTo(expectedUsd(ENV_MINI, { input: 300, output: 30 }), 12);

    const before = await cost(priced, `?to=${encodeURIComponent(between)}`);
    expect(before.body).toMatchObject({ runs: 1, inputTokens: 100, outputTokens: 10 });
    expect(before.body.costUsd).toBeCloseTo(first.usage.costUsd, 12);
    const after = await cost(priced, `?from=${encodeURIComponent(between)}`);
    expect(after.body).toMatchObject({ runs: 1, inputTokens: 200, outputTokens: 20 });
    expect(after.body.costUsd).toBeCloseTo(second.usage.costUsd, 12);
    const none = await cost(priced, '?from=2000-01-01&to=2000-01-02');
    expect(none.body).toMatchObject({ runs: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unknownPriceRuns: 0 });

    const unpriced = await workflow({ model: 'acme-large' });
    const u = await run(unpriced, { prompt_tokens: 50, completion_tokens: 5 });
    expect(u.usage).toEqual({ inputTokens: 50, outputTokens: 5, costUsd: null });
    const uc = await cost(unpriced);
    expect(uc.body).toMatchObject({ runs: 1, inputTokens: 50, outputTokens: 5, costUsd: 0, unknownPriceRuns: 1 });

    expectError(await cost(priced, '?from=yesterday'), 400, 'VALIDATION_ERROR');
    expectError(await cost(priced, `?from=${encodeURIComponent(between)}&to=2000-01-01`), 400, 'VALIDATION_ERROR');

    // Another workspace of the same user: the workflow is not found there.
    const ws = await call(createWorkspace, 'POST', '/api/workspaces', { body: { name: 'Other' } });
    expect(ws.status, ws.text).toBe(201);
    const other = await cost(priced, '', { 'x-workspace-id': ws.body.id });
    expectError(other, 404, 'WORKFLOW_NOT_FOUND');
  });
}
