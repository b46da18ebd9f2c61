/**
 * formatContext(hits): the retrieved chunks as one prompt-ready block, numbered with the same [n] citations the hits
 * carry, so a model can cite its sources and a reader can map [n] back to hits[n-1]:
 *
 *   [1] Refund policy (p. 2)
 *   Customers may return items within 30 days…
 *
 *   [2] …
 *
 * Use it in an LLM prompt, e.g. systemPrompt "Answer only from the context and cite sources as [n]." and
 * userPrompt "Context:\n{{k1.output.context}}\n\nQuestion: {{inputs.question}}" — the knowledge node already puts
 * this block in `output.context`. `maxChars` keeps the block within a prompt budget (whole hits only).
 */
import type { KnowledgeHit } from './types';

export function formatContext(
  hits: Array<Pick<KnowledgeHit, 'citation' | 'title' | 'page' | 'text' | 'question'>>,
  opts: { maxChars?: number } = {},
): string {
  const max = opts.maxChars ?? Infinity;
  const parts: string[] = [];
  let used = 0;
  for (const h of hits) {
    const head = `${h.citation} ${h.title}${h.page ? ` (p. ${h.page})` : ''}`;
    // Q&A: the question, then its answer.
    const block = `${head}\n${h.question ? `${h.question.trim()}\n` : ''}${h.text.trim()}`;
    if (parts.length && used + block.length + 2 > max) break;
    parts.push(block);
    used += block.length + 2;
  }
  return parts.join('\n\n');
}
