/**
 * The model providers PaiFlow knows by name (GET /api/providers): each one's OpenAI-compatible base URL, its docs,
 * what kinds of model it serves and the models a user most likely picks. A credential names one (`data.provider`)
 * and gets its base URL from here; the model pickers offer the provider's live `/models` list, else this one.
 *
 * The lists are a starting point, not the truth: providers add and retire models every month, so a model not listed
 * is always accepted as typed. Model ids were taken from each provider's own model pages as we know them (2025);
 * the machines this was written on are offline, so they were not re-checked against the live APIs.
 *
 * Prices: a model's `inputUsdPerM` / `outputUsdPerM` are the built-in price list's (price-table.ts, which says where
 * each figure comes from and when it was checked), so the catalogue shows exactly what cost reporting charges. Zhipu,
 * Moonshot, Doubao and SiliconFlow publish prices in CNY on their own pages; those are not in the built-in list (a
 * CNY figure turned into USD would be a guess), so their models show no price: set one with MODEL_PRICES or a
 * credential's `prices`.
 */
import { BUILT_IN_PRICES } from './price-table';

export type ModelKind = 'chat' | 'embedding' | 'rerank' | 'tts' | 'image';
export const MODEL_KINDS: readonly ModelKind[] = ['chat', 'embedding', 'rerank', 'tts', 'image'];

export interface CatalogueModel {
  id: string;
  kind: ModelKind;
  contextWindow?: number;
  inputUsdPerM?: number;
  outputUsdPerM?: number;
}

export interface CatalogueProvider {
  id: string;
  /** English name (`names.zh`: the Chinese one). */
  name: string;
  names: { en: string; zh: string };
  /** Null for `openai_compatible`: the user gives it. */
  baseUrl: string | null;
  docsUrl: string;
  kinds: ModelKind[];
  /** Does `GET {baseUrl}/models` list the account's models? Else a test sends one tiny completion. */
  listsModels: boolean;
  /** Does it need an API key? A server on your own machine (Ollama, vLLM, LM Studio) often runs without one. */
  needsKey: boolean;
  /** Hosts of the provider's API (its base URL's and its other regions'): a credential's provider is found by host. */
  hosts: string[];
  models: CatalogueModel[];
}

type ModelSpec = [id: string, kind: ModelKind, contextWindow?: number];

const K = 1000;

function models(specs: ModelSpec[]): CatalogueModel[] {
  return specs.map(([id, kind, contextWindow]) => {
    const price = BUILT_IN_PRICES[id];
    return {
      id,
      kind,
      ...(contextWindow ? { contextWindow } : {}),
      ...(price ? { inputUsdPerM: price.input, outputUsdPerM: price.output } : {}),
    };
  });
}

const PROVIDERS: CatalogueProvider[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    names: { en: 'OpenAI', zh: 'OpenAI' },
    baseUrl: 'https://api.openai.com/v1',
    docsUrl: 'https://platform.openai.com/docs/models',
    kinds: ['chat', 'embedding', 'tts', 'image'],
    listsModels: true,
    needsKey: true,
    hosts: ['api.openai.com'],
    models: models([
      ['gpt-5', 'chat', 400 * K],
      ['gpt-5-mini', 'chat', 400 * K],
      ['gpt-5-nano', 'chat', 400 * K],
      ['gpt-4.1', 'chat', 1_047_576],
      ['gpt-4.1-mini', 'chat', 1_047_576],
      ['gpt-4.1-nano', 'chat', 1_047_576],
      ['gpt-4o', 'chat', 128 * K],
      ['gpt-4o-mini', 'chat', 128 * K],
      ['o3', 'chat', 200 * K],
      ['o4-mini', 'chat', 200 * K],
      ['text-embedding-3-small', 'embedding', 8191],
      ['text-embedding-3-large', 'embedding', 8191],
      ['gpt-4o-mini-tts', 'tts'],
      ['tts-1', 'tts'],
      ['gpt-image-1', 'image'],
      ['dall-e-3', 'image'],
    ]),
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    names: { en: 'DeepSeek', zh: '深度求索 DeepSeek' },
    baseUrl: 'https://api.deepseek.com/v1',
    docsUrl: 'https://api-docs.deepseek.com/',
    kinds: ['chat'],
    listsModels: true,
    needsKey: true,
    hosts: ['api.deepseek.com'],
    models: models([
      ['deepseek-chat', 'chat', 128 * K],
      ['deepseek-reasoner', 'chat', 128 * K],
    ]),
  },
  {
    id: 'qwen',
    name: 'Qwen (Alibaba Cloud DashScope)',
    names: { en: 'Qwen (Alibaba Cloud DashScope)', zh: '通义千问（阿里云百炼）' },
    // Mainland China; the International (Singapore) edition is dashscope-intl.aliyuncs.com with the same path.
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    docsUrl: 'https://help.aliyun.com/zh/model-studio/compatibility-of-openai-with-dashscope',
    kinds: ['chat', 'embedding', 'rerank'],
    listsModels: true,
    needsKey: true,
    hosts: ['dashscope.aliyuncs.com', 'dashscope-intl.aliyuncs.com'],
    models: models([
      ['qwen3-max', 'chat', 256 * K],
      ['qwen-max', 'chat', 32 * K],
      ['qwen-plus', 'chat', 128 * K],
      ['qwen-flash', 'chat', 1000 * K],
      ['qwen-turbo', 'chat', 1000 * K],
      ['text-embedding-v4', 'embedding', 8192],
      ['text-embedding-v3', 'embedding', 8192],
      // Reranked through DashScope's own text-rerank service on the same host (knowledge/rerank.ts).
      ['gte-rerank-v2', 'rerank'],
    ]),
  },
  {
    id: 'zhipu',
    name: 'Zhipu GLM',
    names: { en: 'Zhipu GLM', zh: '智谱 GLM' },
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    docsUrl: 'https://docs.bigmodel.cn/',
    kinds: ['chat', 'embedding', 'image'],
    listsModels: false,
    needsKey: true,
    hosts: ['open.bigmodel.cn'],
    models: models([
      ['glm-4.5', 'chat', 128 * K],
      ['glm-4.5-air', 'chat', 128 * K],
      ['glm-4.5-flash', 'chat', 128 * K],
      ['glm-4-plus', 'chat', 128 * K],
      ['glm-4-flash', 'chat', 128 * K],
      ['embedding-3', 'embedding', 8 * K],
      ['cogview-4', 'image'],
    ]),
  },
  {
    id: 'moonshot',
    name: 'Moonshot Kimi',
    names: { en: 'Moonshot Kimi', zh: '月之暗面 Kimi' },
    baseUrl: 'https://api.moonshot.cn/v1',
    docsUrl: 'https://platform.moonshot.cn/docs',
    kinds: ['chat'],
    listsModels: true,
    needsKey: true,
    hosts: ['api.moonshot.cn', 'api.moonshot.ai'],
    models: models([
      ['kimi-k2-0905-preview', 'chat', 256 * K],
      ['kimi-k2-turbo-preview', 'chat', 256 * K],
      ['moonshot-v1-8k', 'chat', 8 * K],
      ['moonshot-v1-32k', 'chat', 32 * K],
      ['moonshot-v1-128k', 'chat', 128 * K],
    ]),
  },
  {
    id: 'doubao',
    name: 'Doubao (Volcengine Ark)',
    names: { en: 'Doubao (Volcengine Ark)', zh: '豆包（火山方舟）' },
    baseUrl: 'https://ark.cn-beijing.volces.com/api/v3',
    docsUrl: 'https://www.volcengine.com/docs/82379',
    kinds: ['chat', 'embedding', 'image'],
    // Ark calls a model by its id or by an endpoint id (ep-…) of the account: no list to ask for.
    listsModels: false,
    needsKey: true,
    hosts: ['ark.cn-beijing.volces.com'],
    models: models([
      ['doubao-seed-1-6-250615', 'chat', 256 * K],
      ['doubao-1-5-pro-32k-250115', 'chat', 32 * K],
      ['doubao-1-5-lite-32k-250115', 'chat', 32 * K],
      ['doubao-embedding-text-240715', 'embedding', 4 * K],
      ['doubao-seedream-3-0-t2i-250415', 'image'],
    ]),
  },
  {
    id: 'siliconflow',
    name: 'SiliconFlow',
    names: { en: 'SiliconFlow', zh: '硅基流动 SiliconFlow' },
    baseUrl: 'https://api.siliconflow.cn/v1',
    docsUrl: 'https://docs.siliconflow.cn/',
    kinds: ['chat', 'embedding', 'rerank', 'tts', 'image'],
    listsModels: true,
    needsKey: true,
    hosts: ['api.siliconflow.cn', 'api.siliconflow.com'],
    models: models([
      ['deepseek-ai/DeepSeek-V3', 'chat', 128 * K],
      ['deepseek-ai/DeepSeek-R1', 'chat', 128 * K],
      ['Qwen/Qwen3-8B', 'chat', 128 * K],
      ['Qwen/Qwen2.5-72B-Instruct', 'chat', 32 * K],
      ['THUDM/GLM-4-9B-0414', 'chat', 32 * K],
      ['BAAI/bge-m3', 'embedding', 8 * K],
      ['BAAI/bge-reranker-v2-m3', 'rerank', 8 * K],
      ['netease-youdao/bce-reranker-base_v1', 'rerank'],
      ['FunAudioLLM/CosyVoice2-0.5B', 'tts'],
      ['Kwai-Kolors/Kolors', 'image'],
    ]),
  },
  {
    id: 'ollama',
    name: 'Ollama (on your machine)',
    names: { en: 'Ollama (on your machine)', zh: 'Ollama（本机）' },
    // A loopback address: PaiFlow calls it only once HTTP_ALLOWLIST names it (localhost:11434).
    baseUrl: 'http://localhost:11434/v1',
    docsUrl: 'https://github.com/ollama/ollama/blob/main/docs/openai.md',
    kinds: ['chat', 'embedding'],
    listsModels: true,
    needsKey: false,
    hosts: ['localhost:11434', '127.0.0.1:11434'],
    models: models([
      ['qwen3', 'chat'],
      ['llama3.1', 'chat'],
      ['deepseek-r1', 'chat'],
      ['nomic-embed-text', 'embedding'],
      ['bge-m3', 'embedding'],
    ]),
  },
  {
    id: 'openai_compatible',
    name: 'Other OpenAI-compatible (vLLM, LM Studio …)',
    names: { en: 'Other OpenAI-compatible (vLLM, LM Studio …)', zh: '其他 OpenAI 兼容服务（vLLM、LM Studio 等）' },
    baseUrl: null,
    docsUrl: 'https://platform.openai.com/docs/api-reference',
    kinds: ['chat', 'embedding', 'rerank', 'tts', 'image'],
    listsModels: true,
    needsKey: false,
    hosts: [],
    models: [],
  },
];

export const PROVIDER_IDS = PROVIDERS.map((p) => p.id) as [string, ...string[]];

export function providerCatalogue(): readonly CatalogueProvider[] {
  return PROVIDERS;
}

export function catalogueProvider(id: string): CatalogueProvider | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

/** The provider whose API lives at `host` (host or host:port, lower case); `openai_compatible` for any other. */
export function providerOfHost(host: string): CatalogueProvider {
  const h = host.toLowerCase();
  return PROVIDERS.find((p) => p.hosts.includes(h)) ?? catalogueProvider('openai_compatible')!;
}

/** What kind of model an id names when a provider's list does not say: the catalogue's kind, else a guess by name. */
export function kindOfModel(id: string, provider?: CatalogueProvider): ModelKind {
  const known = (provider?.models ?? PROVIDERS.flatMap((p) => p.models)).find((m) => m.id === id);
  if (known) return known.kind;
  const name = id.toLowerCase();
  if (/rerank/.test(name)) return 'rerank';
  if (/embed|bge|e5-|gte-/.test(name)) return 'embedding';
  if (/tts|speech|voice/.test(name)) return 'tts';
  if (/dall-e|image|seedream|cogview|kolors|flux|stable-diffusion|sdxl/.test(name)) return 'image';
  return 'chat';
}
