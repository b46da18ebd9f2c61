/**
 * What the question classifier and the parameter extractor share: their model settings (as the LLM node's: model,
 * temperature, credential, base URL and key secret) and one structured call — the model asked for a JSON object by a
 * JSON Schema (`response_format: json_schema`, or `json_object` for servers without it), its reply read robustly
 * (code fences, text around the object), with the usage of every call summed.
 */
import { z } from 'zod';
import { totalUsage, withStatedCost } from '../../llm/prices';
import type { ChatMessage, ChatResponse, LlmProvider, Usage } from '../../llm/types';
import type { NodeContext } from '../../node-kit/define';
import { credentialIdSchema, providerConfigSchema } from './provider-settings';

export const structuredModelFields = {
  model: z.string().min(1).default('gpt-4o-mini').describe('Model name as the provider knows it'),
  temperature: z.number().min(0).max(2).default(0).describe('0 answers the same way each time'),
  maxTokens: z.number().int().min(1).max(200_000).optional(),
  structuredOutput: z
    .enum(['json_schema', 'json_object'])
    .default('json_schema')
    .describe('How the JSON answer is asked for: a JSON schema, or JSON mode for servers without schema support'),
  credentialId: credentialIdSchema,
  provider: providerConfigSchema,
};

export interface StructuredModelConfig {
  model: string;
  temperature: number;
  maxTokens?: number;
  structuredOutput: 'json_schema' | 'json_object';
}

/** The JSON in a reply: the whole text, else inside a code fence, else from its first "{" to its last "}". */
export function parseJsonReply(text: string): unknown {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) candidates.push(fenced[1].trim());
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open >= 0 && close > open) candidates.push(text.slice(open, close + 1));
  for (const c of candidates) {
    try {
      return JSON.parse(c);
    } catch {
      // the next candidate
    }
  }
  return undefined;
}

export interface StructuredCall {
  res: ChatResponse;
  /** The reply's JSON object (or a tool call's arguments), undefined when there is none. */
  value: unknown;
}

/** One call to the model for a JSON object shaped by `schema`. */
export async function callStructured(
  ctx: Pick<NodeContext, 'signal'>,
  provider: LlmProvider,
  c: StructuredModelConfig,
  messages: ChatMessage[],
  format: { name: string; schema: Record<string, unknown> },
): Promise<StructuredCall> {
  const res = await provider.chat({
    model: c.model,
    messages,
    temperature: c.temperature,
    maxTokens: c.maxTokens,
    responseFormat: { ...format, wire: c.structuredOutput },
    signal: ctx.signal,
  });
  const value = res.toolCalls.length ? parseJsonReply(res.toolCalls[0].arguments) : parseJsonReply(res.text);
  return { res, value };
}

/** The usage of several calls as one. */
export function summedUsage(calls: StructuredCall[]): Usage {
  if (calls.length === 1) return withStatedCost(calls[0].res.usage);
  const { demo: _demo, ...sum } = totalUsage(calls.map((x) => withStatedCost(x.res.usage)));
  return sum;
}
