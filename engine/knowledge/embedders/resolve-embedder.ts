/**
 * Picks the Embedder for a knowledge base's recorded model: "use-lite" is the offline model; "openai:<name>" uses
 * the server's OpenAI-compatible embeddings API (OPENAI_BASE_URL, with OPENAI_API_KEY when it has one: a local server
 * such as Ollama runs without). New knowledge bases get EMBEDDING_MODEL, else openai:text-embedding-3-small when a key
 * is set, else use-lite (a base URL alone does not name a model that server has). A KB keeps its model: setting a key
 * later does not silently switch an existing KB to vectors of another space.
 */
import { PaiError } from '../../errors';
import type { Embedder } from '../types';
import { OpenAiEmbedder } from './openai-embedder';
import { USE_LITE_MODEL, UseLiteEmbedder } from './use-lite-embedder';

export interface EmbedderEnv {
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  EMBEDDING_MODEL?: string;
}

export type EmbedderResolver = (model: string) => Embedder;

export function defaultEmbeddingModel(env: EmbedderEnv): string {
  if (env.EMBEDDING_MODEL?.trim()) return env.EMBEDDING_MODEL.trim();
  return env.OPENAI_API_KEY?.trim() ? 'openai:text-embedding-3-small' : USE_LITE_MODEL;
}

export function createEmbedderResolver(env: EmbedderEnv): EmbedderResolver {
  const cache = new Map<string, Embedder>();
  return (model) => {
    let e = cache.get(model);
    if (e) return e;
    if (model === USE_LITE_MODEL) e = new UseLiteEmbedder();
    else if (model.startsWith('openai:') && model.length > 'openai:'.length) {
      const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
      const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
      if (!apiKey && !baseURL)
        throw new PaiError(
          'EMBEDDER_UNAVAILABLE',
          `embedding model ${model} needs OPENAI_BASE_URL or OPENAI_API_KEY, and neither is set`,
        );
      e = new OpenAiEmbedder({
        apiKey,
        baseURL,
        model: model.slice('openai:'.length),
      });
    } else {
      throw new PaiError(
        'UNKNOWN_EMBEDDING_MODEL',
        `unknown embedding model "${model}"; use "use-lite" or "openai:<model>"`,
        { path: 'embeddingModel' },
      );
    }
    cache.set(model, e);
    return e;
  };
}
