import { z } from 'zod';
import { compareAsync } from '../shared/compare';
import { conditionSchema, regexProblems } from '../shared/condition';
import { defineNode } from '../../node-kit/define';

export const conditionConfigSchema = z.strictObject({
  branches: z
    .array(
      z.strictObject({
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
  outputFields: [
    { path: 'branch', description: 'The id of the branch taken ("else" when none matched)' },
    { path: 'results', description: 'Each condition of the taken branch: true or false' },
  ],
  pure: true,
  outputsFrom: { list: 'branches', label: 'label', fallback: 'else' },
  outputsFor: (config) => [
    ...(config.branches ?? []).map((b) => ({ id: b.id, label: b.label ?? b.id })),
    { id: 'else', label: 'else' },
  ],
  checkConfig: (config) =>
    config.branches.flatMap((b, i) =>
      b.conditions.flatMap((c, j) => regexProblems(c, `branches[${i}].conditions[${j}].right`)),
    ),
  async execute(ctx) {
    for (const b of ctx.config.branches) {
      const results: boolean[] = [];
      for (const c of b.conditions)
        results.push(await compareAsync(c.left, c.op, c.right, c.valueType, { signal: ctx.signal }));
      const ok = b.logic === 'or' ? results.some(Boolean) : results.every(Boolean);
      if (ok) return { output: { branch: b.id, results }, branch: b.id };
    }
    return { output: { branch: 'else' }, branch: 'else' };
  },
});
