// Guarantees: a model's price comes from the first layer that knows it — an OpenAI-compatible credential's `prices`,
// then MODEL_PRICES, then the built-in list — and within a layer from its exact id, else the longest `prefix*`, else
// the id without a date suffix; MODEL_PRICES is validated at start-up (a bad value names the variable); a
// credential's prices reach the provider through the node's provider settings; requests go over the real openai SDK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '@/engine/config/settings';
import type { ResolvedCredential } from '@/engine/credentials/types';
import { modelPrices, parsePriceTableJson } from '@/engine/llm/prices';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import type { ProviderSettings } from '@/engine/llm/types';
import { providerSettings } from '@/engine/nodes/shared/provider-settings';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { expectedUsd } from './cost-support';

const ENV_PRICES = JSON.stringify({
  'gpt-4o-mini': { input: 1, cachedInput: 0.5, output: 2 },
  'acme-*': { input: 3, output: 4 },
  'acme-large*': { input: 5, output: 6 },
});

describe('price layers and model matching', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(async () => fake?.close());

  /** One request for `model` through the resolver (real HTTP), answered with 1000 prompt (200 cached) / 100 out. */
  async function costFor(model: string, env: { MODEL_PRICES?: string }, settings: ProviderSettings = {}) {
    const llm = createLlmResolver({
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: fake.baseURL,
      MODEL_PRICES: parseSettings(env).MODEL_PRICES,
    });
    fake.script({
      text: 'ok',
      usage: { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 200 } },
    });
    const res = await llm(settings).chat({ model, messages: [{ role: 'user', content: 'hi' }] });
    return res.usage.costUsd;
  }
  const tokens = { input: 1000, cached: 200, output: 100 };

  it('MODEL_PRICES overrides the built-in price; models it does not name keep theirs', async () => {
    expect(await costFor('gpt-4o-mini', {})).toBeCloseTo(
      expectedUsd({ input: 0.15, cachedInput: 0.075, output: 0.6 }, tokens),
      12,
    );
    expect(await costFor('gpt-4o-mini', { MODEL_PRICES: ENV_PRICES })).toBeCloseTo(
      expectedUsd({ input: 1, cachedInput: 0.5, output: 2 }, tokens),
      12,
    );
    expect(await costFor('gpt-4o', { MODEL_PRICES: ENV_PRICES })).toBeCloseTo(
      expectedUsd({ input: 2.5, cachedInput: 1.25, output: 10 }, tokens),
      12,
    );
  });

  it('matches the exact id, then the longest prefix, then the id without its date; else unknown', async () => {
    const p = modelPrices({ env: parsePriceTableJson(ENV_PRICES) });
    expect(p.priceOf('acme-large-v2')).toEqual({ input: 5, output: 6 });
    expect(p.priceOf('acme-small')).toEqual({ input: 3, output: 4 });
    expect(p.priceOf('GPT-4o-mini')).toEqual({ input: 1, cachedInput: 0.5, output: 2 });
    expect(p.priceOf('gpt-4o-mini-2024-07-18')).toEqual({ input: 1, cachedInput: 0.5, output: 2 });
    expect(p.priceOf('gpt-4o-2024-08-06')).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(p.priceOf('qwen-plus-latest')).toEqual({ input: 0.4, cachedInput: 0.08, output: 1.2 });
    expect(p.priceOf('nobody-knows-me')).toBeUndefined();
    expect(p.priceOf('gpt-4o-mini-search-preview')).toBeUndefined();
    // No price: costUsd null over the wire too (a dated unknown id does not borrow a neighbour's price).
    expect(await costFor('unknown-model-2025-01-01', { MODEL_PRICES: ENV_PRICES })).toBeNull();
  });

  it('a bad MODEL_PRICES is refused at start-up, naming the variable', () => {
    expect(() => parseSettings({ MODEL_PRICES: '{not json' })).toThrow(/MODEL_PRICES/);
    expect(() => parseSettings({ MODEL_PRICES: '{"gpt-4o": {"input": -1, "output": 1}}' })).toThrow(/MODEL_PRICES/);
    expect(() => parseSettings({ MODEL_PRICES: '{"gpt-4o": {"input": 1}}' })).toThrow(/MODEL_PRICES/);
    expect(parseSettings({}).MODEL_PRICES).toBeUndefined();
  });

  it("a credential's prices override MODEL_PRICES and the built-in list", async () => {
    const cred = (prices?: unknown): ResolvedCredential => ({
      id: 'cred_1',
      name: 'priced',
      type: 'openai',
      hosts: [new URL(fake.baseURL).host],
      data: { baseUrl: fake.baseURL, apiKey: 'cred-key', ...(prices ? { prices } : {}) } as unknown as Record<
        string,
        string
      >,
    });
    const ctx = (c: ResolvedCredential) => ({
      runId: 'run_1',
      secrets: { get: () => undefined },
      credentials: { resolve: async () => c },
    });
    const settings = await providerSettings(ctx(cred({ 'gpt-4o-mini': { input: 7, output: 8 } })), {
      credentialId: 'cred_1',
    });
    expect(settings.prices).toEqual({ 'gpt-4o-mini': { input: 7, output: 8 } });
    // No cached rate in the credential's price: cached tokens at its input rate.
    expect(await costFor('gpt-4o-mini', { MODEL_PRICES: ENV_PRICES }, settings)).toBeCloseTo(
      expectedUsd({ input: 7, output: 8 }, tokens),
      12,
    );
    expect(fake.tokens.at(-1)).toBe('cred-key');
    // A model the credential does not price falls through to MODEL_PRICES, then to the built-in list.
    expect(await costFor('acme-small', { MODEL_PRICES: ENV_PRICES }, settings)).toBeCloseTo(
      expectedUsd({ input: 3, output: 4 }, tokens),
      12,
    );
    expect(await costFor('deepseek-chat', { MODEL_PRICES: ENV_PRICES }, settings)).toBeCloseTo(
      expectedUsd({ input: 0.28, cachedInput: 0.028, output: 0.42 }, tokens),
      12,
    );
    // Without prices the credential adds no layer.
    expect((await providerSettings(ctx(cred()), { credentialId: 'cred_1' })).prices).toBeUndefined();
    await expect(
      providerSettings(ctx(cred({ 'gpt-4o-mini': { input: 'free' } })), { credentialId: 'cred_1' }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID' });
  });
});
