// Guarantees: the credential form's price rows become exactly the `prices` table the API accepts (USD per million
// tokens, cached input optional, blank rows ignored, no rows: no table), and every bad entry is named by its row and
// field with a message a user can act on — a missing or non-numeric amount, a duplicate model, an id the server's
// schema refuses, an amount above its maximum — so nothing the server would reject is sent; the form shows each in
// the reader's language.
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { parsePriceTable } from '@/engine/llm/prices';
import { MESSAGES } from '@/messages';
import {
  EMPTY_PRICE_ROW,
  pricesFromRows,
  problemOf as problemAt,
  type PriceField,
  type PriceProblem,
  type PriceRow,
} from './credential-prices';

const row = (r: Partial<PriceRow>): PriceRow => ({ ...EMPTY_PRICE_ROW, ...r });

function translator(locale: 'en' | 'zh-CN') {
  // The messages' own key types are a union of both languages here: look keys up as plain strings.
  const t = createTranslator({
    locale,
    messages: MESSAGES[locale],
    namespace: 'settings.prices.problems',
  }) as unknown as (key: string, values?: Record<string, string | number>) => string;
  return (problems: PriceProblem[], r: number, field: PriceField) => {
    const p = problemAt(problems, r, field);
    return p && t(p.code, p.values);
  };
}
/** The problem shown under a field, as the English form words it. */
const problemOf = translator('en');

describe('credential price rows', () => {
  it('build the table the API accepts', () => {
    const { prices, problems } = pricesFromRows([
      row({ model: ' gpt-4o-mini ', input: '0.15', cachedInput: '0.075', output: '0.6' }),
      row({}),
      row({ model: 'acme-*', input: '2', output: '8' }),
    ]);
    expect(problems).toEqual([]);
    expect(prices).toEqual({
      'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
      'acme-*': { input: 2, output: 8 },
    });
    expect(parsePriceTable(prices)).toEqual(prices); // the server's own check passes
  });

  it('no filled-in row: no prices of its own', () => {
    expect(pricesFromRows([])).toEqual({ prices: undefined, problems: [] });
    expect(pricesFromRows([row({}), row({ model: '  ' })])).toEqual({ prices: undefined, problems: [] });
  });

  it('name each problem by row and field', () => {
    const { prices, problems } = pricesFromRows([
      row({ model: 'a', input: '1', output: '' }),
      row({ model: '', input: '1', output: '2' }),
      row({ model: 'b', input: '$1', cachedInput: '-1', output: '1e3' }),
      row({ model: 'A', input: '1', output: '1' }),
    ]);
    expect(prices).toBeUndefined();
    expect(problemOf(problems, 0, 'output')).toBe('required');
    expect(problemOf(problems, 0, 'cachedInput')).toBeUndefined();
    expect(problemOf(problems, 1, 'model')).toMatch(/name the model/);
    expect(problemOf(problems, 2, 'input')).toMatch(/number/);
    expect(problemOf(problems, 2, 'cachedInput')).toMatch(/number/);
    expect(problemOf(problems, 2, 'output')).toMatch(/number/);
    expect(problemOf(problems, 3, 'model')).toBe('priced already in row 1');
    expect(translator('zh-CN')(problems, 3, 'model')).toBe('已在第 1 行定价');
  });

  it('the server schema’s limits: a * only at the end, ids up to 200 characters, amounts up to 100000', () => {
    const star = pricesFromRows([
      row({ model: 'ok', input: '1', output: '1' }),
      row({ model: 'gpt-*-mini', input: '1', output: '1' }),
    ]);
    expect(star.prices).toBeUndefined();
    expect(problemOf(star.problems, 1, 'model')).toMatch(/prefix ending in one \*/);
    const long = pricesFromRows([row({ model: 'm'.repeat(201), input: '1', output: '1' })]);
    expect(problemOf(long.problems, 0, 'model')).toBe('at most 200 characters');
    const big = pricesFromRows([row({ model: 'm', input: '100001', output: '100000' })]);
    expect(problemOf(big.problems, 0, 'input')).toBe('at most 100000 USD per million tokens');
    expect(problemOf(big.problems, 0, 'output')).toBeUndefined();
  });
});
