/**
 * Picks the LLM provider for a node: a real OpenAI-compatible endpoint when an API key is available (from the
 * node's settings, else the environment), otherwise the offline DemoProvider. Providers are cached so the SDK
 * client (and its connection pool) is reused; the cache key uses a sha256 of the API key so the plain key is
 * never held as a map key. Its prices: the node's credential's, over MODEL_PRICES, over the built-in list.
 */
import { createHash } from 'node:crypto';
import { PaiError } from '../errors';
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
  return (settings: ProviderSettings = {}) => {
    const ownURL = !!settings.baseURL?.trim() && settings.baseURL.trim() !== env.OPENAI_BASE_URL?.trim();
    // The server's key goes only to the server's provider: a node that names its own base URL brings its own key.
    if (ownURL && !settings.apiKey?.trim() && env.OPENAI_API_KEY?.trim())
      throw new PaiError(
        'SECRET_HOST_NOT_ALLOWED',
        `OPENAI_API_KEY is sent only to OPENAI_BASE_URL, not to ${hostOf(settings.baseURL!.trim())}: ` +
          'give the node a credential bound to that address',
        { path: 'config.provider.baseUrl' },
      );
    const apiKey = settings.apiKey?.trim() || env.OPENAI_API_KEY?.trim();
    if (!apiKey) return sharedDemo;
    const baseURL = settings.baseURL?.trim() || env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL;
    const prices = settings.prices ? JSON.stringify(settings.prices) : '';
    const cacheKey = `${baseURL}\n${createHash('sha256').update(apiKey).digest('hex')}\n${prices}`;
    let provider = cache.get(cacheKey);
    if (!provider) {
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      const userURL = !!settings.baseURL?.trim() && settings.baseURL.trim() !== env.OPENAI_BASE_URL?.trim();
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
  if (!env.OPENAI_API_KEY?.trim()) return 'demo (offline)';
  if (!opts.host) return 'openai-compatible';
  return `openai-compatible (${hostOf(env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL)})`;
}
