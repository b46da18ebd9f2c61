/**
 * The agent's `knowledge_search` tool, ready to hand to an LLM: a tool spec (JSON Schema parameters) and a function
 * that runs it through the same KnowledgeService the knowledge node uses (ctx.knowledge), returning the hits and the
 * formatted [n]-cited context. The agent node decides which knowledge base(s) the tool may search.
 */
import { PaiError } from '../errors';
import type { ChatTool } from '../llm/types';
import { formatContext } from './format-context';
import type { KnowledgeHit, KnowledgeService, SearchMode } from './types';

export const KNOWLEDGE_SEARCH_TOOL = 'knowledge_search';

export function knowledgeSearchToolSpec(
  description = 'Search the knowledge base for passages relevant to a question. Cite results as [n].',
): ChatTool {
  return {
    name: KNOWLEDGE_SEARCH_TOOL,
    description,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in natural language or exact keywords' },
        topK: { type: 'integer', minimum: 1, maximum: 20, description: 'How many passages to return (default 5)' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  };
}

export interface KnowledgeSearchToolResult {
  query: string;
  context: string;
  hits: KnowledgeHit[];
}

/** Runs the tool. `args` is the model's (untrusted) arguments object. */
export async function runKnowledgeSearch(
  knowledge: KnowledgeService | undefined,
  knowledgeBaseId: string,
  args: unknown,
  opts: {
    signal?: AbortSignal;
    runId?: string;
    topK?: number;
    threshold?: number;
    mode?: SearchMode;
    maxContextChars?: number;
  } = {},
): Promise<KnowledgeSearchToolResult> {
  if (!knowledge) throw new PaiError('KNOWLEDGE_UNAVAILABLE', 'knowledge search is not available in this context');
  const a = (args && typeof args === 'object' ? args : {}) as { query?: unknown; topK?: unknown };
  if (typeof a.query !== 'string' || !a.query.trim())
    throw new PaiError('INVALID_TOOL_ARGUMENTS', 'knowledge_search needs a non-empty "query" string', {
      path: 'query',
    });
  const topK =
    typeof a.topK === 'number' && Number.isInteger(a.topK) ? Math.min(20, Math.max(1, a.topK)) : (opts.topK ?? 5);
  const res = await knowledge.search(
    knowledgeBaseId,
    { query: a.query, topK, threshold: opts.threshold, mode: opts.mode },
    { signal: opts.signal, runId: opts.runId },
  );
  return { query: res.query, hits: res.hits, context: formatContext(res.hits, { maxChars: opts.maxContextChars }) };
}
