/**
 * Picks the LLM provider for a node: the OpenAI-compatible server its settings name (a credential's or its own base
 * URL, with its key — or without one: Ollama, vLLM and LM Studio run without keys), else the server's (OPENAI_BASE_URL
 * and/or OPENAI_API_KEY). Only when none of these is configured does the offline DemoProvider answer; the runtime
 * marks every node that used it (demo-model-use.ts). Providers are cached so the SDK client (and its connection pool)
 * is reused; the cache key uses a sha256 of the API key so the plain key is never held as a map key. Its prices: the
 * node's credential's, over MODEL_PRICES, over the built-in list.
 */
import { createHash } from 'node:crypto';
import { DemoProvider } from './demo-provider';
import { DEFAULT_OPENAI_BASE_URL, OpenAiCompatibleProvider, hostOf } from './openai-provider';
import { modelPrices, type PriceTable } from './prices';
import type { LlmProvider, LlmResolver, ProviderSettings } from './types';

export interface LlmEnv {
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  /** Parsed MODEL_PRICES. */
  MODEL_PRICES?: PriceTable;
}

const MAX_CACHED = 64;
const sharedDemo = new DemoProvider();

/**
 * `guardedFetch`: used for base URLs that come from a node's config (user input), so a workflow cannot point the
 * SDK at internal addresses; the admin's OPENAI_BASE_URL is trusted and uses the SDK's own fetch.
 */
export function createLlmResolver(
  env: LlmEnv,
  opts: { guardedFetch?: (url: string | URL, init?: RequestInit) => Promise<Response> } = {},
): LlmResolver {
  const cache = new Map<string, LlmProvider>();
  const envURL = env.OPENAI_BASE_URL?.trim() || undefined;
  const envKey = env.OPENAI_API_KEY?.trim() || undefined;
  return (settings: ProviderSettings = {}) => {
    const nodeURL = settings.baseURL?.trim() || undefined;
    const nodeKey = settings.apiKey?.trim() || undefined;
    if (!nodeURL && !nodeKey && !envURL && !envKey) return sharedDemo;
    const baseURL = nodeURL || envURL || DEFAULT_OPENAI_BASE_URL;
    // A base URL a node chose (not the server's): it gets the node's own key, or none — never OPENAI_API_KEY.
    const userURL = !!nodeURL && nodeURL !== envURL;
    const apiKey = nodeKey ?? (userURL ? undefined : envKey);
    const prices = settings.prices ? JSON.stringify(settings.prices) : '';
    const keyHash = apiKey ? createHash('sha256').update(apiKey).digest('hex') : 'no-key';
    const cacheKey = `${baseURL}\n${keyHash}\n${prices}`;
    let provider = cache.get(cacheKey);
    if (!provider) {
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      provider = new OpenAiCompatibleProvider({
        apiKey,
        baseURL,
        prices: modelPrices({ credential: settings.prices, env: env.MODEL_PRICES }),
        ...(userURL && opts.guardedFetch ? { fetch: opts.guardedFetch as typeof fetch } : {}),
      });
      cache.set(cacheKey, provider);
    }
    return provider;
  };
}

/**
 * For /api/health: which provider answers when nodes don't override it; its host only with `host: true` (admins'
 * details). Never reveals the key.
 */
export function describeLlm(env: LlmEnv, opts: { host?: boolean } = {}): string {
  if (!env.OPENAI_API_KEY?.trim() && !env.OPENAI_BASE_URL?.trim()) return 'demo (offline)';
  if (!opts.host) return 'openai-compatible';
  return `openai-compatible (${hostOf(env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL)})`;
}
