import { z } from 'zod';
import { PaiError } from '../../errors';
import { renderText, resolveDeep } from '../../template/resolve';
import { defineNode } from '../../node-kit/define';

export const templateConfigSchema = z.strictObject({
  template: z
    .string()
    .max(200_000)
    .describe('Text with {{refs}}; in JSON format, a JSON document whose strings may hold {{refs}}'),
  format: z.enum(['text', 'json']).default('text'),
});
export type TemplateConfig = z.infer<typeof templateConfigSchema>;

export const templateNode = defineNode<TemplateConfig>({
  type: 'template',
  version: 1,
  label: 'Template',
  category: 'data',
  description: 'Builds text or JSON from upstream values.',
  configSchema: templateConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    { path: 'text', description: 'The rendered text (JSON format: the JSON as text)' },
    { path: 'json', description: 'JSON format: the rendered document' },
  ],
  rawKeys: ['template'],
  pure: true,
  async execute(ctx) {
    const { template, format } = ctx.rawConfig;
    if ((format ?? 'text') === 'text') return { output: { text: renderText(template, ctx.scope) } };
    let doc: unknown;
    try {
      doc = JSON.parse(template);
    } catch (e) {
      throw new PaiError('INVALID_CONFIG', `template is not valid JSON: ${(e as Error).message}`, {
        path: 'config.template',
      });
    }
    // Resolving inside the parsed document (not in the text) keeps values typed and correctly escaped.
    const json = resolveDeep(doc, ctx.scope);
    return { output: { json, text: JSON.stringify(json) } };
  },
});
