// Guarantees: the list operator filters arrays of values and of objects (by a key) with the condition node's operators
// plus in / not in, dedupes by the item or a key keeping the first, sorts stably in both orders with missing values
// last, keeps the position item, slices, and answers { result, first_record, last_record } as Dify names them; an input
// that is not an array fails with LIST_INPUT_NOT_ARRAY; a key path that is not one is refused when saved.
import { describe, expect, it } from 'vitest';
import type { NodeContext } from '@/engine/node-kit/define';
import { listOperatorConfigSchema, listOperatorNode, type ListOperatorConfig } from './index';

async function run(input: unknown, config: Partial<Omit<ListOperatorConfig, 'input'>>) {
  const parsed = listOperatorConfigSchema.parse({ input: '{{x}}', ...config });
  const ctx = { config: { ...parsed, input } } as unknown as NodeContext<ListOperatorConfig>;
  return (await listOperatorNode.execute(ctx)).output as {
    result: unknown[];
    first_record: unknown;
    last_record: unknown;
  };
}

const people = [
  { name: 'Ann', age: 34, city: 'Paris', tags: ['a'] },
  { name: 'bob', age: 27, city: 'Berlin', tags: [] },
  { name: 'Cy', age: 41, city: 'Paris', tags: ['b', 'c'] },
  { name: 'Dee', city: 'Rome' },
];
const names = (r: { result: unknown[] }) => r.result.map((p) => (p as { name: string }).name);

describe('list operator', () => {
  it.each([
    ['eq', 'city', 'Paris', ['Ann', 'Cy']],
    ['neq', 'city', 'Paris', ['bob', 'Dee']],
    ['gt', 'age', '30', ['Ann', 'Cy']],
    ['gte', 'age', '34', ['Ann', 'Cy']],
    ['lt', 'age', '34', ['bob']],
    ['lte', 'age', '34', ['Ann', 'bob']],
    ['contains', 'name', 'o', ['bob']],
    ['not_contains', 'name', 'o', ['Ann', 'Cy', 'Dee']],
    ['starts_with', 'city', 'Pa', ['Ann', 'Cy']],
    ['ends_with', 'city', 'in', ['bob']],
    ['in', 'city', 'Rome, Berlin', ['bob', 'Dee']],
    ['in', 'city', '["Rome"]', ['Dee']],
    ['not_in', 'city', 'Rome,Berlin', ['Ann', 'Cy']],
    ['is_empty', 'tags', undefined, ['bob', 'Dee']],
    ['not_empty', 'tags', undefined, ['Ann', 'Cy']],
    ['contains', 'tags', 'b', ['Cy']],
  ] as const)('filters objects by a key: %s %s %s', async (op, key, value, expected) => {
    const r = await run(people, { filter: { logic: 'and', conditions: [{ key, op, value }] } });
    expect(names(r)).toEqual(expected);
  });

  it('filters plain values, and takes a list from a ref for in', async () => {
    expect(
      (await run([3, 12, 7, 40], { filter: { logic: 'and', conditions: [{ op: 'gt', value: '5' }] } })).result,
    ).toEqual([12, 7, 40]);
    const ctx = {
      config: {
        ...listOperatorConfigSchema.parse({ input: '{{x}}', filter: { conditions: [{ op: 'in', value: '{{y}}' }] } }),
        input: ['a', 'b', 'c'],
        filter: { logic: 'and', conditions: [{ op: 'in', value: ['c', 'a'] }] },
      },
    } as unknown as NodeContext<ListOperatorConfig>;
    expect(((await listOperatorNode.execute(ctx)).output as { result: unknown[] }).result).toEqual(['a', 'c']);
  });

  it('combines conditions with and / or', async () => {
    const conditions = [
      { key: 'city', op: 'eq' as const, value: 'Paris' },
      { key: 'age', op: 'lt' as const, value: '30' },
    ];
    expect(names(await run(people, { filter: { logic: 'and', conditions } }))).toEqual([]);
    expect(names(await run(people, { filter: { logic: 'or', conditions } }))).toEqual(['Ann', 'bob', 'Cy']);
  });

  it('sorts stably by a key in both orders, numbers by value, missing values last', async () => {
    const rows = [{ id: 1, n: '10' }, { id: 2, n: 9 }, { id: 3 }, { id: 4, n: 10 }, { id: 5, n: '9' }];
    const ids = (r: { result: unknown[] }) => r.result.map((x) => (x as { id: number }).id);
    expect(ids(await run(rows, { sort: { key: 'n', order: 'asc' } }))).toEqual([2, 5, 1, 4, 3]);
    expect(ids(await run(rows, { sort: { key: 'n', order: 'desc' } }))).toEqual([1, 4, 2, 5, 3]);
    expect((await run(['pear', 'Apple', 'fig'], { sort: { order: 'asc' } })).result).toEqual(['Apple', 'fig', 'pear']);
  });

  it('dedupes by a key keeping the first, and whole objects whatever their key order', async () => {
    expect(names(await run(people, { dedupe: { key: 'city' } }))).toEqual(['Ann', 'bob', 'Dee']);
    expect((await run([{ a: 1, b: 2 }, { b: 2, a: 1 }, 1, '1', 1], { dedupe: {} })).result).toEqual([
      { a: 1, b: 2 },
      1,
      '1',
    ]);
  });

  it('keeps the position item, slices by offset and limit, and gives first and last records', async () => {
    expect((await run([1, 2, 3, 4, 5], { position: '2' })).result).toEqual([2]);
    expect((await run([1, 2, 3, 4, 5], { position: '9' })).result).toEqual([]);
    const r = await run([1, 2, 3, 4, 5], { offset: 1, limit: 3 });
    expect(r).toEqual({ result: [2, 3, 4], first_record: 2, last_record: 4 });
    expect((await run([1, 2, 3], { take: 'last' })).result).toEqual([3]);
    expect(await run([], {})).toEqual({ result: [], first_record: null, last_record: null });
  });

  it('applies filter, sort and limit together (top two by age in Paris or Berlin)', async () => {
    const r = await run(people, {
      filter: { logic: 'and', conditions: [{ key: 'city', op: 'in', value: 'Paris,Berlin' }] },
      sort: { key: 'age', order: 'desc' },
      limit: 2,
    });
    expect(names(r)).toEqual(['Cy', 'Ann']);
    expect(r.first_record).toMatchObject({ name: 'Cy' });
  });

  it('reads a JSON array given as text and nothing as an empty list (as Dify), and refuses anything else', async () => {
    expect((await run('[1,2]', {})).result).toEqual([1, 2]);
    await expect(run({ a: 1 }, {})).rejects.toMatchObject({ code: 'LIST_INPUT_NOT_ARRAY', path: 'config.input' });
    await expect(run(5, {})).rejects.toMatchObject({ code: 'LIST_INPUT_NOT_ARRAY' });
    expect(await run(undefined, {})).toEqual({ result: [], first_record: null, last_record: null });
    // n8n's Split Out: one value is a list of it, an object a list of its values.
    expect((await run('one', { wrapSingle: true })).result).toEqual(['one']);
    expect((await run({ a: 1, b: 2 }, { wrapSingle: true })).result).toEqual([1, 2]);
  });

  it('refuses a key that is not a key path, and never reads inherited properties', async () => {
    expect(listOperatorConfigSchema.safeParse({ input: '{{x}}', sort: { key: 'a b()' } }).success).toBe(false);
    expect(listOperatorConfigSchema.safeParse({ input: '{{x}}', sort: { key: '__proto__' } }).success).toBe(false);
    const r = await run([{ a: 1 }], { filter: { logic: 'and', conditions: [{ key: 'toString', op: 'not_empty' }] } });
    expect(r.result).toEqual([]);
  });
});
