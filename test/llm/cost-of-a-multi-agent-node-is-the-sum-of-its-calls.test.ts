// Guarantees: a multi_agent node's usage has `costUsd` = the sum over every call of its team (planner, workers,
// reviewer, summary) of that call's tokens × the price of the model the call went to, each role on its own model;
// one role on a model without a price makes the node's total unknown (null), never the known part alone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi, type ScriptedResponse } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import { multiAgentGraph, planAnswer, roleOf } from '../agent/support/multi-agent-team';
import { expectedUsd, type Price } from './cost-support';

// The built-in list prices (engine/llm/price-table.ts).
const PRICES: Record<string, Price> = {
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'qwen-plus': { input: 0.4, cachedInput: 0.08, output: 1.2 },
};
/** Each model's calls use these tokens (so the expected cost follows from the requests' models alone). */
const TOKENS: Record<string, { input: number; cached: number; output: number }> = {
  'gpt-4o-mini': { input: 1200, cached: 0, output: 300 },
  'deepseek-chat': { input: 2500, cached: 1024, output: 150 },
  'qwen-plus': { input: 800, cached: 256, output: 40 },
  'acme-judge': { input: 100, cached: 0, output: 10 },
};

describe('multi_agent cost', () => {
  let fake: FakeOpenAi;
  let h: Harness;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createHarness('pglite', {
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setDefault((body): ScriptedResponse => {
      const t = TOKENS[body.model];
      const usage = {
        prompt_tokens: t.input,
        completion_tokens: t.output,
        ...(t.cached ? { prompt_tokens_details: { cached_tokens: t.cached } } : {}),
      };
      switch (roleOf(body)) {
        case 'planner':
          return {
            text: planAnswer([
              { id: 's1', description: 'find two facts', dependencies: [] },
              { id: 's2', description: 'write them up', dependencies: ['s1'] },
            ]),
            usage,
          };
        case 'worker':
          return { text: 'a result', usage };
        case 'reviewer':
          return { text: '{"approved": true, "feedback": "fine"}', usage };
        default:
          return { text: 'the final answer', usage };
      }
    });
  });

  const team = (reviewerModel: string) =>
    multiAgentGraph({
      planner: { model: 'gpt-4o-mini' },
      worker: { model: 'deepseek-chat' },
      reviewer: { model: reviewerModel },
    });

  it("sums every call's cost at the price of its role's model", async () => {
    const run = await h.runToEnd(await h.createWorkflow(team('qwen-plus')), { question: 'tea facts' });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const models = fake.requests.map((r) => r.model as string);
    expect(new Set(models)).toEqual(new Set(['gpt-4o-mini', 'deepseek-chat', 'qwen-plus']));
    const expected = models.reduce((sum, m) => sum + expectedUsd(PRICES[m], TOKENS[m]), 0);
    const usage = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'm1')!.usage!;
    expect(usage.inputTokens).toBe(models.reduce((n, m) => n + TOKENS[m].input, 0));
    expect(usage.costUsd).toBeCloseTo(expected, 12);
    const done = (await h.events(run.id)).find((e) => e.type === 'node.succeeded' && e.nodeId === 'm1')!;
    expect((done.data.usage as any).costUsd).toBeCloseTo(expected, 12);
  });

  it('one role on a model without a price: the node total is unknown', async () => {
    const run = await h.runToEnd(await h.createWorkflow(team('acme-judge')), { question: 'tea facts' });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(fake.requests.some((r) => r.model === 'acme-judge')).toBe(true);
    const usage = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'm1')!.usage!;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.costUsd).toBeNull();
  });
});
