import { z } from 'zod';
import { compare, OPERATORS } from './compare';
import { defineNode } from './define';

export const conditionSchema = z.object({
  left: z.string().describe('Value to test, usually a {{ref}}'),
  op: z.enum(OPERATORS),
  right: z.string().optional().describe('Value to compare with (ignored by is_empty / not_empty)'),
  valueType: z.enum(['auto', 'string', 'number', 'boolean']).default('auto'),
});

export const conditionConfigSchema = z.object({
  branches: z
    .array(
      z.object({
        id: z
          .string()
          .regex(/^[A-Za-z][A-Za-z0-9_-]*$/)
          .refine((id) => id !== 'else', '"else" is reserved for the fallback branch'),
        label: z.string().max(100).optional(),
        logic: z.enum(['and', 'or']).default('and'),
        conditions: z.array(conditionSchema).min(1),
      }),
    )
    .min(1)
    .max(20)
    .describe('if / elif branches, tested in order; the first that matches is taken, else the "else" handle'),
});
export type ConditionConfig = z.infer<typeof conditionConfigSchema>;

export const conditionNode = defineNode<ConditionConfig>({
  type: 'condition',
  version: 1,
  label: 'Condition',
  category: 'logic',
  description:
    'If / elif / else: routes the run down the first branch whose conditions hold; other branches are skipped.',
  configSchema: conditionConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [
    { id: 'if', label: 'if' },
    { id: 'else', label: 'else' },
  ],
  pure: true,
  outputsFor: (config) => [
    ...(config.branches ?? []).map((b) => ({ id: b.id, label: b.label ?? b.id })),
    { id: 'else', label: 'else' },
  ],
  async execute(ctx) {
    for (const b of ctx.config.branches) {
      const results = b.conditions.map((c) => compare(c.left, c.op, c.right, c.valueType));
      const ok = b.logic === 'or' ? results.some(Boolean) : results.every(Boolean);
      if (ok) return { output: { branch: b.id, results }, branch: b.id };
    }
    return { output: { branch: 'else' }, branch: 'else' };
  },
});
