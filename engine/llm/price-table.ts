/**
 * The built-in list prices, USD per million tokens (input / cached input / output), standard tier, text only. They
 * are a starting point, not a bill: providers change prices and tiers (context length, region, batch, peak hours),
 * so MODEL_PRICES and an OpenAI-compatible credential's `prices` override these (engine/llm/prices.ts).
 *
 * Where each figure comes from (checked 2026-12-01; the machines are offline, so through the look-up tool's stored
 * copies of the pages, else from our own knowledge of the providers' price pages — said per group):
 * - OpenAI: platform.openai.com/docs/pricing ("Standard"). gpt-4o, gpt-4o-mini, gpt-4.1, gpt-4.1-mini were
 *   confirmed by stored copies of price pages dated May–June 2026; the rest are the list prices we know from that
 *   page (2025), not re-confirmed here. No cached rate where OpenAI lists none (cached tokens then bill as input).
 * - DeepSeek: api-docs.deepseek.com/quick_start/pricing. The stored copy of that page shows the list in force from
 *   2025-09-05 (cache hit 0.07, miss 0.56, output 1.68); DeepSeek lowered it with V3.2 on 2025-09-29 to the figures
 *   below (from our knowledge of the page, not re-confirmed here). `deepseek-chat` and `deepseek-reasoner` are
 *   priced alike; the input price is the cache-miss one, the cached price the cache-hit one.
 * - Qwen: Alibaba Cloud Model Studio (DashScope), International edition (Singapore),
 *   alibabacloud.com/help/en/model-studio/models, the lowest context tier; from our knowledge of that page (2025),
 *   not re-confirmed here. Cached input is the implicit context cache, billed at 20 % of the input price.
 *   Mainland-China (CNY) prices differ: override them.
 * Newer models that stored pages mention (e.g. OpenAI GPT-5.4/5.5, DeepSeek V4) are left out: their figures could
 * not be confirmed from the providers' own pages. An unlisted model has no price (its cost is unknown, never guessed).
 */
import type { ModelPrice } from '../config/price-table-schema';

export const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // OpenAI
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  // DeepSeek
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  // Qwen (DashScope, International)
  'qwen3-max': { input: 1.2, cachedInput: 0.24, output: 6 },
  'qwen-max': { input: 1.6, cachedInput: 0.32, output: 6.4 },
  'qwen-plus': { input: 0.4, cachedInput: 0.08, output: 1.2 },
  'qwen-flash': { input: 0.05, cachedInput: 0.01, output: 0.4 },
  'qwen-turbo': { input: 0.05, cachedInput: 0.01, output: 0.2 },
});
