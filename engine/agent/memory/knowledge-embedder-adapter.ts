/**
 * Memory recall accepts any Embedder of the agent's tiny interface; this adapts the knowledge layer's embedders
 * (offline USE-lite, OpenAI-compatible) to it. The knowledge model id becomes the memory embedder id, so vectors
 * from different models are never compared.
 */
import type { Embedder as KnowledgeEmbedder } from '../../knowledge/types';
import type { Embedder } from '../../node-kit/agent-services';

export function fromKnowledgeEmbedder(e: KnowledgeEmbedder): Embedder {
  let dimension = 0;
  return {
    id: e.model,
    get dimension() {
      return dimension; // known after the first embed; memory never needs it up front
    },
    async embed(texts) {
      const out = (await e.embed(texts)).map((v) => Array.from(v));
      if (out[0]) dimension = out[0].length;
      return out;
    },
  };
}
