import { z } from 'zod';
import { defineNode } from '../../node-kit/define';
import { findRefs, lookup, renderTemplate, type TemplateScope } from '../../template/resolve';

const RESERVED = ['output', '__proto__', 'constructor', 'prototype'];

export const variableAggregatorConfigSchema = z.strictObject({
  groups: z
    .array(
      z.strictObject({
        name: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'group names are identifiers: letters, digits, _')
          .refine((n) => !RESERVED.includes(n), '"output" is the single group\'s value, and cannot name a group'),
        variables: z
          .array(z.string().max(2_000))
          .min(1)
          .max(50)
          .describe('{{refs}} in order, one per branch: the first that has a value is the group output'),
      }),
    )
    .min(1)
    .max(20)
    .refine((gs) => new Set(gs.map((g) => g.name)).size === gs.length, 'group names must be different')
    .describe('Each group gives one value: that of the branch that ran'),
});
export type VariableAggregatorConfig = z.infer<typeof variableAggregatorConfigSchema>;

/**
 * A reference's value as the run has it: a value of a node that ran, '' included (a fallback chain `a || b` would
 * pass over ''), undefined when its node did not run (skipped) or has no such value. Text around refs is rendered.
 */
function valueOf(variable: string, scope: TemplateScope): unknown {
  const refs = findRefs(variable);
  const only = refs.length === 1 && refs[0].start === 0 && refs[0].end === variable.length ? refs[0] : undefined;
  if (only && only.alternatives.length === 1 && only.alternatives[0].path)
    return lookup(scope, only.alternatives[0].path);
  return renderTemplate(variable, scope);
}

/**
 * Variable aggregator with Dify's semantics: after branches join, each group's output is the value of its first
 * reference that has one (not undefined or null), which is the branch that ran. Output `{ <group>: { output } }`,
 * and `output` itself when there is one group.
 */
export const variableAggregatorNode = defineNode<VariableAggregatorConfig>({
  type: 'variable_aggregator',
  version: 1,
  label: 'Variable aggregator',
  category: 'data',
  description: 'Joins branches: each group gives the value of the first of its references that has one.',
  configSchema: variableAggregatorConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    // Each group's value is also under its name, <name>.output: names come from the config.
    { path: 'output', description: 'With one group: its value (null when no branch gave one)' },
  ],
  rawKeys: ['groups'],
  pure: true,
  async execute(ctx) {
    const out: Record<string, unknown> = {};
    for (const g of ctx.rawConfig.groups) {
      let value: unknown = null;
      for (const v of g.variables) {
        const found = valueOf(v, ctx.scope);
        if (found !== undefined && found !== null) {
          value = found;
          break;
        }
      }
      out[g.name] = { output: value };
      if (ctx.rawConfig.groups.length === 1) out.output = value;
    }
    return { output: out };
  },
});
