import { z } from 'zod';
import { PaiError } from '../../errors';
import { runItemsInParallel } from './parallel-loop';
import { compareAsync } from '../shared/compare';
import { conditionSchema, regexProblems } from '../shared/condition';
import { defineNode } from '../../node-kit/define';

export const loopConfigSchema = z.strictObject({
  mode: z.enum(['list', 'while']).default('list'),
  items: z.string().default('').describe('list mode: a {{ref}} to an array to iterate over'),
  condition: conditionSchema.optional().describe('while mode: keep looping while this holds'),
  collect: z
    .string()
    .default('')
    .describe("Re-entry: a {{ref}} to collect from the body each iteration (e.g. the last body node's output)"),
  maxIterations: z.number().int().min(1).max(10_000).default(100),
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(32)
    .default(1)
    .describe(
      'list mode: how many items run at the same time (1–32). Above 1 the loop runs its body itself, keeps the ' +
        'results in input order and, on a resume, runs only the items that had not finished; the body must start ' +
        'at the "body" handle and lead only back to the loop, and sees results: [] (earlier items are not known yet)',
    ),
});
export type LoopConfig = z.infer<typeof loopConfigSchema>;

/** The list to iterate over, as config.items resolved to it. */
function listItems(c: LoopConfig): unknown[] {
  const items = (c.items as unknown) ?? [];
  if (!Array.isArray(items))
    throw new PaiError('INVALID_LOOP_ITEMS', 'list mode needs "items" to resolve to an array', {
      path: 'config.items',
    });
  return items;
}

/**
 * Loop: `body` is taken while there are items left (list) or the condition holds (while); `done` afterwards.
 * Connect the body's last node back to the loop node. Runs on the state-graph engine (it needs a cycle).
 * With concurrency > 1 (list mode) the loop runs every item's body itself, N at a time, and takes `done` once
 * (parallel-loop.ts); with 1, each pass is a trip around the cycle.
 */
export const loopNode = defineNode<LoopConfig>({
  type: 'loop',
  capabilities: {
    iterates: {
      maxPasses: (config) => {
        const parsed = loopConfigSchema.safeParse(config ?? {});
        return parsed.success ? parsed.data.maxIterations : 100;
      },
      parallel: (config) => {
        const parsed = loopConfigSchema.safeParse(config ?? {});
        return parsed.success && parsed.data.mode === 'list' && parsed.data.concurrency > 1;
      },
    },
  },
  version: 1,
  label: 'Loop',
  category: 'logic',
  description:
    'Iterates over a list, or while a condition holds, with a max-iterations guard. Wire body → … → back to the loop.',
  configSchema: loopConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [
    { id: 'body', label: 'body' },
    { id: 'done', label: 'done' },
  ],
  outputFields: [
    { path: 'item', description: 'The current item (list mode)' },
    { path: 'index', description: 'The current pass, from 0' },
    { path: 'results', description: 'What the passes so far collected' },
    { path: 'count', description: 'How many results there are' },
    { path: 'done', description: 'Whether the loop has finished' },
  ],
  outputsFor: () => [
    { id: 'body', label: 'body' },
    { id: 'done', label: 'done' },
  ],
  checkConfig: (config) => (config.condition ? regexProblems(config.condition, 'condition.right') : []),
  async execute(ctx) {
    const c = ctx.config;
    if (c.mode === 'list' && c.concurrency > 1) return runItemsInParallel(ctx, listItems(c));
    const index = ctx.iteration; // executions of this node before this one = iterations started so far
    const prev = (ctx.scope.nodes[ctx.nodeId]?.output ?? {}) as { results?: unknown[] };
    const results = index > 0 ? [...(prev.results ?? [])] : [];
    if (index > 0 && c.collect) results.push(c.collect);
    if (index >= c.maxIterations) {
      throw new PaiError('LOOP_LIMIT', `loop "${ctx.nodeId}" reached its limit of ${c.maxIterations} iterations`);
    }
    let more: boolean;
    let item: unknown;
    if (c.mode === 'list') {
      const items = listItems(c);
      more = index < items.length;
      item = items[index];
    } else {
      if (!c.condition)
        throw new PaiError('INVALID_CONFIG', 'while mode needs a condition', { path: 'config.condition' });
      const { left, op, right, valueType } = c.condition;
      more = await compareAsync(left, op, right, valueType, { signal: ctx.signal });
    }
    const output = { index, item: more ? item : null, results, count: results.length, done: !more };
    return { output, branch: more ? 'body' : 'done' };
  },
});
