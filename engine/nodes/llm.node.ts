import { z } from 'zod';
import { PaiError } from '../errors';
import type { ChatMessage } from '../llm/types';
import { defineNode } from './define';

export const llmConfigSchema = z.object({
  model: z.string().min(1).default('gpt-4o-mini').describe('Model name as the provider knows it'),
  systemPrompt: z.string().max(200_000).default(''),
  userPrompt: z.string().min(1, 'the user prompt is required').max(200_000),
  temperature: z.number().min(0).max(2).default(0.7),
  maxTokens: z.number().int().min(1).max(200_000).optional(),
  jsonMode: z.boolean().default(false).describe('Ask for a JSON object and parse it into output.json'),
  stream: z.boolean().default(true).describe('Stream tokens to the live view'),
  provider: z
    .object({
      baseURL: z.url({ protocol: /^https?$/ }).optional().describe('OpenAI-compatible base URL; default OPENAI_BASE_URL'),
      apiKeySecret: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional().describe('Name of a secret holding the API key; default OPENAI_API_KEY'),
    })
    .default({}),
});
export type LlmConfig = z.infer<typeof llmConfigSchema>;

export const llmNode = defineNode<LlmConfig>({
  type: 'llm',
  version: 1,
  label: 'LLM',
  category: 'ai',
  description: 'Calls an OpenAI-compatible chat model (the offline demo model when no API key is configured).',
  configSchema: llmConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute(ctx) {
    const c = ctx.config;
    let apiKey: string | undefined;
    if (c.provider?.apiKeySecret) {
      apiKey = ctx.secrets.get(c.provider.apiKeySecret);
      if (!apiKey) throw new PaiError('SECRET_NOT_FOUND', `secret "${c.provider.apiKeySecret}" is not configured`, { path: 'config.provider.apiKeySecret' });
    }
    const provider = ctx.llm({ baseURL: c.provider?.baseURL, apiKey });
    const messages: ChatMessage[] = [];
    if (c.systemPrompt) messages.push({ role: 'system', content: String(c.systemPrompt) });
    messages.push({ role: 'user', content: typeof c.userPrompt === 'string' ? c.userPrompt : JSON.stringify(c.userPrompt) });
    const res = await provider.chat({
      model: c.model,
      messages,
      temperature: c.temperature,
      maxTokens: c.maxTokens,
      jsonMode: c.jsonMode,
      signal: ctx.signal,
      onToken: c.stream === false ? undefined : (delta) => ctx.emit('node.token', { delta }),
    });
    let json: unknown;
    if (c.jsonMode) {
      try {
        json = JSON.parse(res.text);
      } catch {
        throw new PaiError('LLM_BAD_JSON', 'JSON mode is on but the model did not return valid JSON', { retryable: true });
      }
    }
    return {
      output: { text: res.text, ...(c.jsonMode ? { json } : {}), model: res.model, provider: res.provider, providerLabel: provider.label, finishReason: res.finishReason },
      usage: res.usage,
    };
  },
});
