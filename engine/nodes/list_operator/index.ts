import { z } from 'zod';
import { defineNode } from '../../node-kit/define';
import { PaiError } from '../../errors';
import { asArray, dedupeItems, filterItems, keyPath, LIST_OPERATORS, sortItems, type ListCondition } from './list-ops';

const keySchema = z
  .string()
  .max(200)
  .refine((k) => keyPath(k) !== null, 'a key path such as name, user.name or tags[0] (empty: the item itself)');

export const listOperatorConfigSchema = z.strictObject({
  input: z.string().describe('The list: a {{ref}} to an upstream array of values or objects'),
  wrapSingle: z
    .boolean()
    .default(false)
    .describe(
      "A value that is not a list counts as a list of that value (an object: of its values), as n8n's Split Out",
    ),
  filter: z
    .strictObject({
      logic: z.enum(['and', 'or']).default('and'),
      conditions: z
        .array(
          z.strictObject({
            key: keySchema.optional().describe('Key of object items to test (empty: the item itself)'),
            op: z.enum(LIST_OPERATORS),
            value: z
              .string()
              .max(10_000)
              .optional()
              .describe('Value to compare with; for in / not in a JSON array or comma-separated values'),
          }),
        )
        .max(20),
    })
    .optional()
    .describe('Keep only the items whose conditions hold'),
  dedupe: z
    .strictObject({ key: keySchema.optional().describe('Key that makes items the same (empty: the whole item)') })
    .optional()
    .describe('Keep the first item of each distinct value'),
  position: z
    .string()
    .max(200)
    .optional()
    .describe('Keep only the item at this position (1 is the first; a number or a {{ref}})'),
  sort: z
    .strictObject({
      key: keySchema.optional().describe('Key to sort by (empty: the item itself)'),
      order: z.enum(['asc', 'desc']).default('asc'),
    })
    .optional()
    .describe('Sort the items (stable: equal items keep their order)'),
  offset: z.number().int().min(0).max(1_000_000).default(0).describe('Items to skip'),
  limit: z.number().int().min(0).max(1_000_000).optional().describe('Items to keep at most'),
  take: z.enum(['all', 'first', 'last']).default('all').describe('Keep every item, or only the first or the last one'),
});
export type ListOperatorConfig = z.infer<typeof listOperatorConfigSchema>;

function positionOf(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < 1)
    throw new PaiError('INVALID_CONFIG', `position must be a whole number from 1, not ${JSON.stringify(value)}`, {
      path: 'config.position',
    });
  return n;
}

/**
 * List operator (Dify's list-operator, n8n's item-list nodes): over an array, in this order: filter, dedupe, keep the
 * item at `position`, sort, skip `offset` and keep `limit`, then all, the first or the last. Output as Dify names it.
 */
export const listOperatorNode = defineNode<ListOperatorConfig>({
  type: 'list_operator',
  version: 1,
  label: 'List operator',
  category: 'data',
  description: 'Filters, sorts, dedupes and slices a list of values or objects; also gives its first and last item.',
  configSchema: listOperatorConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    { path: 'result', description: 'The items that remain, in order' },
    { path: 'first_record', description: 'The first of them (null when none remain)' },
    { path: 'last_record', description: 'The last of them (null when none remain)' },
  ],
  pure: true,
  async execute(ctx) {
    const c = ctx.config;
    let items = asArray(c.input as unknown, c.wrapSingle);
    if (c.filter) items = filterItems(items, c.filter.conditions as ListCondition[], c.filter.logic);
    if (c.dedupe) items = dedupeItems(items, c.dedupe.key);
    if (c.position !== undefined && c.position !== '') {
      const n = positionOf(c.position);
      items = n <= items.length ? [items[n - 1]] : [];
    }
    if (c.sort) items = sortItems(items, c.sort.key, c.sort.order);
    items = items.slice(c.offset, c.limit === undefined ? undefined : c.offset + c.limit);
    if (c.take === 'first') items = items.slice(0, 1);
    if (c.take === 'last') items = items.slice(-1);
    return {
      output: {
        result: items,
        first_record: items.length ? items[0] : null,
        last_record: items.length ? items[items.length - 1] : null,
      },
    };
  },
});
