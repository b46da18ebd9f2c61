// Guarantees: every LLM and agent span carries `costUsd` = its tokens × the model's list price per million (cached
// prompt tokens, as the provider reports them over the real openai SDK, at the cached rate): the LLM node's
// node.succeeded usage, each agent.step's usage and the agent's total; a dated model id is priced as its model; a
// fallback model's request is priced at the model that answered; the run's total is the sum of its nodes'; a model
// without a price has `costUsd: null` everywhere (never a made-up figure); the offline demo model costs 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import type { LlmResolver } from '@/engine/llm/types';
import { presentRun } from '@/lib/server/workflows/workflows';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import { expectedUsd, llmGraph, llmThenAgentGraph } from './cost-support';

// The built-in list prices (engine/llm/price-table.ts), USD per million tokens.
const GPT_4O_MINI = { input: 0.15, cachedInput: 0.075, output: 0.6 };
const DEEPSEEK_CHAT = { input: 0.28, cachedInput: 0.028, output: 0.42 };

describe('cost of LLM and agent spans', () => {
  let fake: FakeOpenAi;
  let h: Harness;
  let llm: LlmResolver;
  const real = () => createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    llm = real();
    h = await createHarness('pglite', { llm: (s) => llm(s) });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  const usageOf = async (runId: string, nodeId: string) =>
    (await h.store.getNodeRuns(runId)).find((n) => n.nodeId === nodeId)?.usage;

  it('an LLM node and a two-round agent cost tokens × price, cached input at the cached rate', async () => {
    fake.script(
      // l1 (streams): a dated id, priced as gpt-4o-mini
      {
        text: 'hi',
        usage: { prompt_tokens: 1000, completion_tokens: 200, prompt_tokens_details: { cached_tokens: 400 } },
      },
      // a1 round 1: a tool call; round 2: the answer
      {
        toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }],
        usage: { prompt_tokens: 3000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 2048 } },
      },
      {
        text: '42',
        usage: { prompt_tokens: 3200, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 3072 } },
      },
    );
    const wf = await h.createWorkflow(
      llmThenAgentGraph({ model: 'gpt-4o-mini-2024-07-18' }, { model: 'deepseek-chat' }),
    );
    const run = await h.runToEnd(wf);
    expect(run.error).toBeNull();
    const events = await h.events(run.id);

    const l1Cost = expectedUsd(GPT_4O_MINI, { input: 1000, cached: 400, output: 200 });
    const l1Done = events.find((e) => e.type === 'node.succeeded' && e.nodeId === 'l1')!;
    expect(l1Done.data.usage).toMatchObject({ inputTokens: 1000, outputTokens: 200, cachedTokens: 400 });
    expect((l1Done.data.usage as any).costUsd).toBeCloseTo(l1Cost, 12);

    const round1 = expectedUsd(DEEPSEEK_CHAT, { input: 3000, cached: 2048, output: 50 });
    const round2 = expectedUsd(DEEPSEEK_CHAT, { input: 3200, cached: 3072, output: 20 });
    const steps = events.filter((e) => e.type === 'agent.step' && e.nodeId === 'a1');
    expect(steps).toHaveLength(2);
    expect((steps[0].data.usage as any).costUsd).toBeCloseTo(round1, 12);
    expect((steps[1].data.usage as any).costUsd).toBeCloseTo(round2, 12);
    expect((steps[1].data.totalUsage as any).costUsd).toBeCloseTo(round1 + round2, 12);

    const a1 = await usageOf(run.id, 'a1');
    expect(a1).toMatchObject({ inputTokens: 6200, outputTokens: 70, cachedTokens: 5120 });
    expect(a1!.costUsd).toBeCloseTo(round1 + round2, 12);
    const a1Done = events.find((e) => e.type === 'node.succeeded' && e.nodeId === 'a1')!;
    expect((a1Done.data.usage as any).costUsd).toBeCloseTo(round1 + round2, 12);

    // Not the uncached price: the cached rate made a difference.
    expect(l1Cost).toBeLessThan(expectedUsd(GPT_4O_MINI, { input: 1000, output: 200 }));

    const view = presentRun(run, await h.store.getNodeRuns(run.id));
    expect(view.usage.inputTokens).toBe(7200);
    expect(view.usage.outputTokens).toBe(270);
    expect(view.usage.costUsd).toBeCloseTo(l1Cost + round1 + round2, 12);
  });

  it('prices a fallback request at the model that answered it', async () => {
    fake.script(
      { text: 'hi', usage: { prompt_tokens: 10, completion_tokens: 1 } },
      { status: 500 },
      { text: 'done', usage: { prompt_tokens: 500, completion_tokens: 100 } },
    );
    const wf = await h.createWorkflow(
      llmThenAgentGraph({}, { model: 'acme-broken', fallbackModels: ['gpt-4o-mini'], maxRetries: 0, tools: [] }),
    );
    const run = await h.runToEnd(wf);
    expect(run.error).toBeNull();
    expect(fake.requests.slice(-2).map((r) => r.model)).toEqual(['acme-broken', 'gpt-4o-mini']);
    expect((await usageOf(run.id, 'a1'))!.costUsd).toBeCloseTo(
      expectedUsd(GPT_4O_MINI, { input: 500, output: 100 }),
      12,
    );
  });

  it('a model without a price: costUsd null in the node, every step and the run, tokens still counted', async () => {
    fake.script(
      { text: 'hi', usage: { prompt_tokens: 100, completion_tokens: 10 } },
      {
        toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }],
        usage: { prompt_tokens: 200, completion_tokens: 20 },
      },
      { text: '2', usage: { prompt_tokens: 300, completion_tokens: 30 } },
    );
    const wf = await h.createWorkflow(
      llmThenAgentGraph({ model: 'acme-large', stream: false }, { model: 'acme-large', stream: false }),
    );
    const run = await h.runToEnd(wf);
    expect(run.error).toBeNull();
    const events = await h.events(run.id);
    const l1Done = events.find((e) => e.type === 'node.succeeded' && e.nodeId === 'l1')!;
    expect(l1Done.data.usage).toEqual({ inputTokens: 100, outputTokens: 10, cachedTokens: 0, costUsd: null });
    const steps = events.filter((e) => e.type === 'agent.step' && e.nodeId === 'a1');
    expect(steps.map((s) => (s.data.usage as any).costUsd)).toEqual([null, null]);
    expect(await usageOf(run.id, 'a1')).toEqual({ inputTokens: 500, outputTokens: 50, cachedTokens: 0, costUsd: null });
    const view = presentRun(run, await h.store.getNodeRuns(run.id));
    expect(view.usage).toEqual({ inputTokens: 600, outputTokens: 60, costUsd: null });
  });

  it('one priced node and one unpriced node: the run total is unknown, not the known part', async () => {
    fake.script(
      { text: 'hi', usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { text: 'x', usage: { prompt_tokens: 100, completion_tokens: 10 } },
    );
    const wf = await h.createWorkflow(llmThenAgentGraph({ model: 'gpt-4o-mini' }, { model: 'acme-large', tools: [] }));
    const run = await h.runToEnd(wf);
    expect((await usageOf(run.id, 'l1'))!.costUsd).toBeGreaterThan(0);
    expect(presentRun(run, await h.store.getNodeRuns(run.id)).usage.costUsd).toBeNull();
  });

  it('the offline demo model costs 0', async () => {
    llm = createLlmResolver({});
    try {
      const wf = await h.createWorkflow(llmGraph({ model: 'gpt-4o-mini' }));
      const run = await h.runToEnd(wf);
      expect(run.error).toBeNull();
      const usage = await usageOf(run.id, 'l1');
      expect(usage!.inputTokens).toBeGreaterThan(0);
      expect(usage!.costUsd).toBe(0);
      expect(presentRun(run, await h.store.getNodeRuns(run.id)).usage.costUsd).toBe(0);
    } finally {
      llm = real();
    }
  });
});
