import { z } from 'zod';
import { PaiError } from '../../errors';
import { formatContext } from '../../knowledge/format-context';
import { metadataFilterSchema } from '../../knowledge/metadata';
import { rerankSchema } from '../../knowledge/schemas';
import { SEARCH_MODES } from '../../knowledge/types';
import { defineNode } from '../../node-kit/define';

export const knowledgeConfigSchema = z.strictObject({
  knowledgeBaseId: z.string().min(1, 'choose a knowledge base').max(200).describe('The knowledge base to search'),
  query: z.string().min(1, 'the query is required').max(10_000).describe('Template, e.g. {{inputs.question}}'),
  topK: z.number().int().min(1).max(50).default(5).describe('How many passages to retrieve'),
  threshold: z.number().min(0).optional().describe('Drop hits scoring below this (scale depends on the mode)'),
  mode: z
    .enum(SEARCH_MODES)
    .default('hybrid')
    .describe('hybrid = BM25 + vector; bm25 = keywords only; vector = meaning only'),
  maxContextChars: z
    .number()
    .int()
    .min(100)
    .max(200_000)
    .optional()
    .describe('Cap on output.context (whole passages only)'),
  filter: metadataFilterSchema.optional(),
  rerank: rerankSchema.optional(),
});
export type KnowledgeConfig = z.infer<typeof knowledgeConfigSchema>;

/**
 * Retrieves passages from a knowledge base. output.hits carry [n] citations; output.context is the same passages as
 * one prompt-ready block (formatContext) to feed an LLM node, e.g. "Context:\n{{k1.output.context}}".
 */
export const knowledgeNode = defineNode<KnowledgeConfig>({
  type: 'knowledge',
  version: 1,
  label: 'Knowledge retrieval',
  category: 'ai',
  description: 'Searches a knowledge base (hybrid BM25 + vector) and outputs cited passages and a context block.',
  configSchema: knowledgeConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    { path: 'context', description: 'The hits as one cited context block, for a prompt' },
    { path: 'hits', description: 'The passages found: citation, title, text, score …' },
    { path: 'query', description: 'The query as searched' },
  ],
  async execute(ctx) {
    if (!ctx.knowledge)
      throw new PaiError('KNOWLEDGE_UNAVAILABLE', 'knowledge search is not configured in this runtime');
    const c = ctx.config;
    const query = (typeof c.query === 'string' ? c.query : JSON.stringify(c.query ?? '')).trim();
    if (!query) throw new PaiError('EMPTY_QUERY', 'the query resolved to an empty string', { path: 'config.query' });
    const res = await ctx.knowledge.search(
      c.knowledgeBaseId,
      {
        query,
        topK: c.topK,
        threshold: c.threshold,
        mode: c.mode,
        ...(c.filter ? { filter: c.filter } : {}),
        ...(c.rerank ? { rerank: c.rerank } : {}),
      },
      { signal: ctx.signal, runId: ctx.runId },
    );
    ctx.emit('retrieval.hits', {
      knowledgeBaseId: c.knowledgeBaseId,
      query: res.query,
      mode: res.mode,
      ...(res.reranked ? { reranked: res.reranked } : {}),
      hits: res.hits.map((h) => ({
        citation: h.citation,
        documentId: h.documentId,
        title: h.title,
        chunkIndex: h.chunkIndex,
        page: h.page,
        score: h.score,
        bm25: h.bm25,
        knn: h.knn,
        ...(h.rerank !== undefined ? { rerank: h.rerank } : {}),
      })),
    });
    return {
      output: { query: res.query, hits: res.hits, context: formatContext(res.hits, { maxChars: c.maxContextChars }) },
    };
  },
});
