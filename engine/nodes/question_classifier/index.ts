/**
 * The question classifier: the model picks one of the configured classes for the query, and the run goes on down that
 * class's handle only (the other handles' successors are skipped, as a Condition node's are); an answer that names no
 * class takes the "other" handle. The class is asked for as JSON (`{"class_id": …}`, a JSON Schema whose choices carry
 * each class's name and description) and read robustly: by id, by name, or by a reply that names exactly one class.
 * Offline, the demo model picks the class that shares most words with the query (engine/llm/demo-structured.ts).
 */
import { z } from 'zod';
import type { ChatMessage } from '../../llm/types';
import { defineNode } from '../../node-kit/define';
import { providerSettings, scrubbedError } from '../shared/provider-settings';
import { callStructured, structuredModelFields, summedUsage } from '../shared/structured-reply';

export const OTHER = 'other';

export const questionClassifierConfigSchema = z.strictObject({
  ...structuredModelFields,
  query: z
    .string()
    .min(1, 'the query is required')
    .max(200_000)
    .describe('The text to classify, e.g. {{inputs.query}}'),
  classes: z
    .array(
      z.strictObject({
        id: z
          .string()
          .regex(/^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/, 'letters, digits, "_" and "-"')
          .refine((id) => id !== OTHER, '"other" is the handle taken when no class fits'),
        name: z.string().min(1).max(2_000),
        description: z.string().max(2_000).optional(),
      }),
    )
    .min(1)
    .max(50)
    .refine((list) => new Set(list.map((k) => k.id)).size === list.length, 'class ids must differ')
    .describe('Each class is a branch of its own; "other" is taken when none fits'),
  instruction: z
    .string()
    .max(20_000)
    .default('')
    .describe('More guidance for the model, e.g. how to tell classes apart'),
});
export type QuestionClassifierConfig = z.infer<typeof questionClassifierConfigSchema>;
type Class = QuestionClassifierConfig['classes'][number];

const lower = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

/** The class a reply names: its `class_id` or `class_name` (by id or name), else the one class a plain reply names. */
export function classOf(value: unknown, text: string, classes: Class[]): Class | undefined {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  for (const said of [v.class_id, v.class_name, v.id, v.name, v.class, value].map(lower).filter(Boolean)) {
    const hit = classes.find((k) => k.id.toLowerCase() === said) ?? classes.find((k) => k.name.toLowerCase() === said);
    if (hit) return hit;
  }
  if (value !== undefined) return undefined;
  const reply = lower(text);
  const named = classes.filter((k) => reply.includes(k.name.toLowerCase()) || reply === k.id.toLowerCase());
  return named.length === 1 ? named[0] : undefined;
}

function prompt(c: QuestionClassifierConfig): string {
  const lines = c.classes.map((k) => `- ${k.id}: ${k.name}${k.description ? ` — ${k.description}` : ''}`);
  return [
    'Classify the user message into exactly one of these classes (id: name):',
    ...lines,
    `If none of them fits, the class is "${OTHER}".`,
    'Reply with only a JSON object: {"class_id": "<the id of the class>"}.',
    c.instruction ? `\n${c.instruction}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function schemaOf(classes: Class[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      class_id: {
        type: 'string',
        description: 'The id of the class the message belongs to',
        anyOf: [
          ...classes.map((k) => ({
            const: k.id,
            title: k.name,
            ...(k.description ? { description: k.description } : {}),
          })),
          { const: OTHER, title: 'none of the classes' },
        ],
      },
    },
    required: ['class_id'],
    additionalProperties: false,
  };
}

export const questionClassifierNode = defineNode<QuestionClassifierConfig>({
  type: 'question_classifier',
  version: 1,
  label: 'Question classifier',
  category: 'ai',
  description:
    'Asks a model which class a text belongs to and routes the run down that class’s branch ("other" when none fits).',
  configSchema: questionClassifierConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: OTHER, label: OTHER }],
  outputFields: [
    { path: 'class_id', description: 'The id of the class chosen ("other" when none fits)' },
    { path: 'class_name', description: 'The name of the class chosen ("other" when none fits)' },
    { path: 'model', description: 'The model that answered' },
    { path: 'provider', description: 'The provider that answered' },
  ],
  outputsFrom: { list: 'classes', label: 'name', fallback: OTHER },
  outputsFor: (config) => [
    ...(config.classes ?? []).map((k) => ({ id: k.id, label: k.name })),
    { id: OTHER, label: OTHER },
  ],
  async execute(ctx) {
    const c = ctx.config;
    const settings = await providerSettings(ctx, c);
    const provider = ctx.llm(settings);
    try {
      const query = typeof c.query === 'string' ? c.query : JSON.stringify(c.query);
      const messages: ChatMessage[] = [
        { role: 'system', content: prompt(c) },
        { role: 'user', content: query },
      ];
      const call = await callStructured(ctx, provider, c, messages, {
        name: 'classification',
        schema: schemaOf(c.classes),
      });
      const chosen = classOf(call.value, call.res.text, c.classes);
      const [classId, className] = chosen ? [chosen.id, chosen.name] : [OTHER, OTHER];
      return {
        output: { class_id: classId, class_name: className, model: call.res.model, provider: call.res.provider },
        branch: classId,
        usage: summedUsage([call]),
      };
    } catch (e) {
      throw scrubbedError(e, [settings.apiKey]);
    }
  },
});
