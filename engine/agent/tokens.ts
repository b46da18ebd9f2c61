/**
 * Token estimates without a tokenizer: ~4 characters per token plus a small per-message overhead. Used for the
 * compaction trigger and the memory budget, where being roughly right (and slightly pessimistic) is enough.
 */
import { addCost } from '../llm/prices';
import type { ChatMessage, ChatTool, Usage } from '../llm/types';

const PER_MESSAGE = 4;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessageTokens(m: ChatMessage): number {
  let chars = m.content?.length ?? 0;
  if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += c.name.length + c.arguments.length + 16;
  if (m.role === 'tool') chars += m.toolCallId.length;
  return PER_MESSAGE + Math.ceil(chars / 4);
}

export function estimateRequestTokens(messages: ChatMessage[], tools: ChatTool[] = []): number {
  let n = 3;
  for (const m of messages) n += estimateMessageTokens(m);
  for (const t of tools) n += estimateTextTokens(t.name + t.description + JSON.stringify(t.parameters)) + 8;
  return n;
}

/** Tokens and cost summed; the cost is unknown (null) once any part's is (engine/llm/prices.ts addCost). */
export function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (!b) return a;
  const costUsd = addCost(a.costUsd, b.costUsd);
  return {
    inputTokens: a.inputTokens + (b.inputTokens ?? 0),
    outputTokens: a.outputTokens + (b.outputTokens ?? 0),
    cachedTokens: (a.cachedTokens ?? 0) + (b.cachedTokens ?? 0),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** Nothing spent yet: no tokens, and a known cost of 0. */
export const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 });
