import { z } from 'zod';
import { PaiError } from '../../errors';
import { defineNode } from '../../node-kit/define';

export const INPUT_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;

const inputDecl = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'input names are identifiers: letters, digits, _')
    .refine(
      (n) => !['__proto__', 'constructor', 'prototype'].includes(n),
      '"__proto__", "constructor" and "prototype" are reserved',
    ),
  type: z.enum(INPUT_TYPES).default('string'),
  required: z.boolean().default(true),
  description: z.string().max(500).optional(),
  default: z.unknown().optional(),
});

export const startConfigSchema = z.strictObject({
  inputs: z.array(inputDecl).max(100).default([]).describe('The run inputs this workflow declares'),
});
export type StartConfig = z.infer<typeof startConfigSchema>;

function typeOk(type: (typeof INPUT_TYPES)[number], v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
}

/** Checks run inputs against the start node's declarations; used by the API (400 with a path) and by the node. */
export function checkRunInputs(
  config: StartConfig,
  inputs: Record<string, unknown>,
): { value: Record<string, unknown>; problems: { code: string; message: string; path: string }[] } {
  const value: Record<string, unknown> = {};
  const problems: { code: string; message: string; path: string }[] = [];
  for (const decl of config.inputs) {
    let v = Object.prototype.hasOwnProperty.call(inputs, decl.name) ? inputs[decl.name] : undefined;
    if (v === undefined && decl.default !== undefined) v = decl.default;
    if (v === undefined || v === null) {
      if (decl.required)
        problems.push({
          code: 'MISSING_INPUT',
          message: `input "${decl.name}" is required`,
          path: `inputs.${decl.name}`,
        });
      continue;
    }
    if (!typeOk(decl.type, v)) {
      problems.push({
        code: 'INVALID_INPUT',
        message: `input "${decl.name}" must be a ${decl.type}`,
        path: `inputs.${decl.name}`,
      });
      continue;
    }
    value[decl.name] = v;
  }
  // Undeclared inputs pass through untouched: templates may only reference declared ones (validation checks that).
  for (const [k, v] of Object.entries(inputs))
    if (!Object.prototype.hasOwnProperty.call(value, k) && !config.inputs.some((d) => d.name === k)) value[k] = v;
  return { value, problems };
}

export const startNode = defineNode<StartConfig>({
  type: 'start',
  capabilities: { entry: true },
  version: 1,
  label: 'Start',
  category: 'flow',
  description: 'Entry point: declares the typed inputs a run receives.',
  configSchema: startConfigSchema,
  inputs: [],
  outputs: [{ id: 'out', label: 'inputs' }],
  // Its output is the run's inputs, which templates read as {{inputs.<name>}}: no fields of its own.
  outputFields: [],
  pure: true,
  async execute(ctx) {
    const { value, problems } = checkRunInputs(ctx.rawConfig, ctx.scope.inputs);
    if (problems.length)
      throw new PaiError(problems[0].code, problems[0].message, { path: problems[0].path, details: problems });
    return { output: value };
  },
});
