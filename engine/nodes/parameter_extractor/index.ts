/**
 * The parameter extractor: a typed object from text. The parameters become a JSON Schema that the model is asked to
 * answer with (structured output); its reply is read robustly, lightly coerced ("42" for a number, "true" for a
 * boolean) and validated against that schema by @cfworker/json-schema (an interpreter: the schema is data). An invalid
 * reply is sent back once with what was wrong; still invalid, the node fails with PARAMETERS_INVALID. The output is
 * the object itself, one field per parameter (null where an optional one was not found). Offline, the demo model fills
 * the parameters from the text by plain rules (engine/llm/demo-structured.ts).
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import { z } from 'zod';
import { PaiError } from '../../errors';
import type { ChatMessage } from '../../llm/types';
import { defineNode } from '../../node-kit/define';
import { providerSettings, scrubbedError } from '../shared/provider-settings';
import { callStructured, structuredModelFields, summedUsage, type StructuredCall } from '../shared/structured-reply';

export const PARAMETER_TYPES = [
  'string',
  'number',
  'boolean',
  'array[string]',
  'array[number]',
  'array[object]',
  'object',
] as const;
type ParameterType = (typeof PARAMETER_TYPES)[number];

export const parameterExtractorConfigSchema = z.strictObject({
  ...structuredModelFields,
  query: z
    .string()
    .min(1, 'the query is required')
    .max(200_000)
    .describe('The text to extract from, e.g. {{inputs.query}}'),
  parameters: z
    .array(
      z.strictObject({
        name: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'letters, digits and "_", not starting with a digit')
          .describe('The output field, e.g. city'),
        type: z.enum(PARAMETER_TYPES).default('string'),
        description: z.string().max(2_000).default('').describe('What the value is, for the model'),
        required: z.boolean().default(false),
        options: z.array(z.string().max(200)).max(100).optional().describe('A string parameter: the allowed values'),
      }),
    )
    .min(1)
    .max(50)
    .refine((list) => new Set(list.map((p) => p.name)).size === list.length, 'parameter names must differ')
    .describe('The fields of the output, each a typed value the model finds in the text'),
  instruction: z.string().max(20_000).default('').describe('More guidance for the model'),
});
export type ParameterExtractorConfig = z.infer<typeof parameterExtractorConfigSchema>;
type Parameter = ParameterExtractorConfig['parameters'][number];

function typeSchema(type: ParameterType): Record<string, unknown> {
  const m = /^array\[(\w+)\]$/.exec(type);
  return m ? { type: 'array', items: { type: m[1] } } : { type };
}

/** The JSON Schema of the answer: one property per parameter; an optional one may be null. */
export function parametersSchema(parameters: Parameter[]): Record<string, unknown> {
  const properties = Object.fromEntries(
    parameters.map((p) => {
      const own = { ...typeSchema(p.type), ...(p.options?.length && p.type === 'string' ? { enum: p.options } : {}) };
      const typed = p.required ? own : { anyOf: [own, { type: 'null' }] };
      return [p.name, { ...typed, ...(p.description ? { description: p.description } : {}) }];
    }),
  );
  return {
    type: 'object',
    properties,
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/** Light coercion a model's JSON often needs: numbers and booleans as text, a single value for a list. */
function coerced(value: unknown, parameters: Parameter[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const p of parameters) {
    const v = out[p.name];
    if (v === undefined) {
      if (!p.required) out[p.name] = null;
      continue;
    }
    if (p.type === 'number' && typeof v === 'string' && v.trim() && Number.isFinite(Number(v))) out[p.name] = Number(v);
    else if (p.type === 'boolean' && (v === 'true' || v === 'false')) out[p.name] = v === 'true';
    else if (p.type.startsWith('array[') && v !== null && !Array.isArray(v)) out[p.name] = [v];
  }
  return out;
}

/** What is wrong with a reply, one line per problem; empty when it is valid. */
function problemsOf(value: unknown, schema: Record<string, unknown>): string[] {
  if (value === undefined) return ['the reply is not a JSON object'];
  const result = new Validator(schema as Schema, '2020-12', false).validate(value);
  if (result.valid) return [];
  return result.errors
    .filter((e) => e.keyword !== 'properties' && e.keyword !== 'anyOf')
    .map((e) => `${e.instanceLocation.replace(/^#/, '') || '/'}: ${e.error}`)
    .slice(0, 20);
}

function systemPrompt(c: ParameterExtractorConfig, schema: Record<string, unknown>): string {
  const lines = c.parameters.map((p) => {
    const about = [p.type, p.required ? 'required' : '', p.options?.length ? `one of ${p.options.join(' | ')}` : ''];
    return `- ${p.name} (${about.filter(Boolean).join(', ')})${p.description ? `: ${p.description}` : ''}`;
  });
  return [
    'Extract these parameters from the user message:',
    ...lines,
    'Reply with only one JSON object with these keys (null where an optional value is not in the message), ' +
      `matching this JSON Schema:\n${JSON.stringify(schema)}`,
    c.instruction ? `\n${c.instruction}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export const parameterExtractorNode = defineNode<ParameterExtractorConfig>({
  type: 'parameter_extractor',
  version: 1,
  label: 'Parameter extractor',
  category: 'ai',
  description:
    'Asks a model for typed values found in a text (structured output), checks them against their types and retries ' +
    'once; the output has one field per parameter.',
  configSchema: parameterExtractorConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  // The parameters its config names, each a field of the output: no fixed fields.
  outputFields: [],
  async execute(ctx) {
    const c = ctx.config;
    const settings = await providerSettings(ctx, c);
    const provider = ctx.llm(settings);
    try {
      const schema = parametersSchema(c.parameters);
      const query = typeof c.query === 'string' ? c.query : JSON.stringify(c.query);
      const messages: ChatMessage[] = [
        { role: 'system', content: systemPrompt(c, schema) },
        { role: 'user', content: query },
      ];
      const format = { name: 'parameters', schema };
      const calls: StructuredCall[] = [];
      let problems: string[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        const call = await callStructured(ctx, provider, c, messages, format);
        calls.push(call);
        const value = coerced(call.value, c.parameters);
        problems = problemsOf(value, schema);
        if (!problems.length) return { output: value, usage: summedUsage(calls) };
        // Once more, with what was wrong: models usually mend a reply they are shown the problems of.
        messages.push(
          { role: 'assistant', content: call.res.text || (call.res.toolCalls[0]?.arguments ?? '') },
          {
            role: 'user',
            content:
              `That reply does not match the schema:\n${problems.join('\n')}\n` +
              'Reply again with only the corrected JSON object.',
          },
        );
        ctx.emit('node.progress', { message: 'the reply did not match the parameters; asking once more', problems });
      }
      throw new PaiError(
        'PARAMETERS_INVALID',
        `the model's reply did not match the parameters after a retry: ${problems.slice(0, 3).join('; ')}`,
        { details: { problems } },
      );
    } catch (e) {
      throw scrubbedError(e, [settings.apiKey]);
    }
  },
});
