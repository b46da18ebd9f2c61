import { z } from 'zod';
import { PaiError } from '../../errors';
import { withStatedCost } from '../../llm/prices';
import type { ChatMessage } from '../../llm/types';
import { imageInputs, imagesConfigSchema } from '../../media/image-inputs';
import { credentialIdSchema, providerConfigSchema, providerSettings, scrubbedError } from '../shared/provider-settings';
import { defineNode } from '../../node-kit/define';

export const llmConfigSchema = z.strictObject({
  model: z.string().min(1).default('gpt-4o-mini').describe('Model name as the provider knows it'),
  systemPrompt: z.string().max(200_000).default(''),
  userPrompt: z.string().min(1, 'the user prompt is required').max(200_000),
  history: z
    .string()
    .max(2_000)
    .default('')
    .describe('Earlier turns sent before the prompt, a list of { role, content }: e.g. {{inputs.history}} of a chat'),
  temperature: z.number().min(0).max(2).default(0.7),
  maxTokens: z.number().int().min(1).max(200_000).optional(),
  jsonMode: z.boolean().default(false).describe('Ask for a JSON object and parse it into output.json'),
  stream: z.boolean().default(true).describe('Stream tokens to the live view'),
  grounding: z
    .strictObject({
      enabled: z
        .boolean()
        .default(false)
        .describe('Answer only from the given context, cite [n], say when nothing was found'),
      context: z.string().default('').describe('The context block, e.g. {{kb.output.context}} from a knowledge node'),
      fallback: z.string().default('I could not find an answer to that in the knowledge base.'),
    })
    .default({ enabled: false, context: '', fallback: 'I could not find an answer to that in the knowledge base.' })
    .describe('Hallucination controls for retrieval-augmented answers'),
  images: imagesConfigSchema,
  credentialId: credentialIdSchema,
  provider: providerConfigSchema,
});
export type LlmConfig = z.infer<typeof llmConfigSchema>;

/**
 * A conversation's earlier turns (a chat app's `history` input, engine-agnostic): the resolved `history` template is
 * a list of `{ role: "user" | "assistant", content }` (or that list as JSON text); anything else is ignored.
 */
export function historyMessages(value: unknown): ChatMessage[] {
  let v = value;
  if (typeof v === 'string') {
    if (!v.trim().startsWith('[')) return [];
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(v)) return [];
  return v.flatMap((m): ChatMessage[] => {
    const role = (m as { role?: unknown })?.role;
    const content = (m as { content?: unknown })?.content;
    if ((role !== 'user' && role !== 'assistant') || typeof content !== 'string' || !content) return [];
    return [role === 'user' ? { role, content } : { role, content }];
  });
}

export const llmNode = defineNode<LlmConfig>({
  type: 'llm',
  version: 1,
  label: 'LLM',
  category: 'ai',
  description: 'Calls an OpenAI-compatible chat model (the offline demo model when no model server is configured).',
  configSchema: llmConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    { path: 'text', description: 'The reply' },
    { path: 'json', description: 'The reply parsed, in JSON mode' },
    { path: 'model', description: 'The model that answered' },
    { path: 'provider', description: 'The provider that answered' },
    { path: 'providerLabel', description: 'The provider as the settings name it' },
    { path: 'providerName', description: 'The provider as traces name it (OpenTelemetry): openai, deepseek …' },
    { path: 'finishReason', description: 'Why the reply ended (stop, length …)' },
    { path: 'grounded', description: 'Whether the answer had to come from a knowledge context' },
    { path: 'contextFound', description: 'Grounded: whether the context held anything' },
    { path: 'imagesSent', description: 'How many images went with the prompt' },
  ],
  async execute(ctx) {
    const c = ctx.config;
    const settings = await providerSettings(ctx, c);
    const provider = ctx.llm(settings);
    // A provider's error may quote the key it was given: it is scrubbed before the error is stored.
    try {
      const messages: ChatMessage[] = [];
      const grounded = c.grounding?.enabled === true;
      const rawContext: unknown = grounded ? c.grounding.context : '';
      const context = (
        rawContext === undefined || rawContext === null
          ? ''
          : typeof rawContext === 'string'
            ? rawContext
            : JSON.stringify(rawContext)
      ).trim();
      if (grounded && !context) {
        // Nothing retrieved: say so instead of letting the model improvise an answer.
        return {
          output: { text: c.grounding.fallback, grounded: true, contextFound: false, model: c.model, provider: 'none' },
        };
      }
      const system = [
        c.systemPrompt ? String(c.systemPrompt) : '',
        grounded
          ? 'Answer ONLY from the context below. Cite the sources you use as [n] with their numbers. If the ' +
            `context does not contain the answer, reply exactly: "${c.grounding.fallback}"\n\nContext:\n${context}`
          : '',
      ]
        .filter(Boolean)
        .join('\n\n');
      if (system) messages.push({ role: 'system', content: system });
      // Vision: the images go with the user message as image_url parts (engine/media/image-inputs.ts).
      messages.push(...historyMessages(c.history));
      const images = await imageInputs(ctx, c.images);
      messages.push({
        role: 'user',
        content: typeof c.userPrompt === 'string' ? c.userPrompt : JSON.stringify(c.userPrompt),
        ...(images.length ? { images } : {}),
      });
      const res = await provider.chat({
        model: c.model,
        messages,
        temperature: grounded ? Math.min(c.temperature, 0.2) : c.temperature,
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
          throw new PaiError('LLM_BAD_JSON', 'JSON mode is on but the model did not return valid JSON', {
            retryable: true,
          });
        }
      }
      return {
        output: {
          text: res.text,
          ...(c.jsonMode ? { json } : {}),
          ...(grounded ? { grounded: true, contextFound: true } : {}),
          model: res.model,
          provider: res.provider,
          providerLabel: provider.label,
          ...(res.providerName ? { providerName: res.providerName } : {}),
          finishReason: res.finishReason,
          ...(images.length ? { imagesSent: images.length } : {}),
        },
        // Tokens and `costUsd` (null: the model's price is unknown; 0: the demo model).
        usage: withStatedCost(res.usage),
      };
    } catch (e) {
      throw scrubbedError(e, [settings.apiKey]);
    }
  },
});
