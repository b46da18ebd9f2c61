import { z } from 'zod';
import { defineNode } from '../../node-kit/define';

export const endConfigSchema = z.strictObject({
  outputs: z
    .array(
      z.strictObject({
        name: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'output names are identifiers: letters, digits, _')
          .refine(
            (n) => !['__proto__', 'constructor', 'prototype'].includes(n),
            '"__proto__", "constructor" and "prototype" are reserved',
          ),
        value: z.string().describe('Template, e.g. {{n1.output.text}}; use a || b for the first non-empty value'),
      }),
    )
    .max(100)
    .default([]),
});
export type EndConfig = z.infer<typeof endConfigSchema>;

export const endNode = defineNode<EndConfig>({
  type: 'end',
  capabilities: { terminal: true },
  version: 1,
  label: 'End',
  category: 'flow',
  description: "Maps values into the run's outputs.",
  pure: true,
  configSchema: endConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [],
  // Its output is the outputs named in its config, and no node runs after it to read them.
  outputFields: [],
  async execute(ctx) {
    const output: Record<string, unknown> = {};
    for (const o of ctx.config.outputs) output[o.name] = o.value ?? null;
    return { output };
  },
});
