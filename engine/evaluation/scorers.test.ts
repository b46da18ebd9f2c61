/**
 * Guarantees of the run-only scorers: each reads the named End output (default the first) against the expectation
 * (or its field), scores 0–1 with a reason when it fails, and treats Chinese text fairly — full-width punctuation,
 * digits and spacing do not make a right answer wrong.
 */
import { describe, expect, it } from 'vitest';
import { checkScorerNames, normalizeText, score, scorerSchema, SCORER_TYPES, type ScoredRun } from './scorers';

const run = (outputs: Record<string, unknown>, expected?: unknown, extra: Partial<ScoredRun> = {}): ScoredRun => ({
  outputs,
  expected,
  durationMs: 1200,
  costUsd: 0.002,
  ...extra,
});
const spec = (s: unknown) => scorerSchema.parse(s);

describe('text scorers', () => {
  it('exact ignores case, spacing and full-width forms, Chinese included', async () => {
    const exact = spec({ name: 'exact', type: 'exact' });
    expect(await score(exact, run({ answer: '  退货期限：３０天 ' }, '退货期限:30天'))).toEqual({
      score: 1,
      passed: true,
    });
    expect(await score(exact, run({ answer: 'Refund  Within 30 days' }, 'refund within 30 days'))).toMatchObject({
      passed: true,
    });
    const wrong = await score(exact, run({ answer: '退货期限:15天' }, '退货期限:30天'));
    expect(wrong).toMatchObject({ score: 0, passed: false });
    expect(wrong.reason).toContain('15天');
    const strict = spec({ name: 'strict', type: 'exact', caseSensitive: true });
    expect((await score(strict, run({ a: 'Yes' }, 'yes'))).passed).toBe(false);
  });

  it('reads the named field of the outputs and of an object expectation', async () => {
    const s = spec({ name: 'intent', type: 'exact', field: 'intent' });
    const r = run({ answer: 'whatever', intent: 'Billing' }, { value: 'ignored', intent: 'billing' });
    expect((await score(s, r)).passed).toBe(true);
  });

  it('contains looks for the expectation, or its own value, in the output', async () => {
    const c = spec({ name: 'mentions', type: 'contains' });
    expect((await score(c, run({ a: '您好！订单已发货，预计３天送达。' }, '3天送达'))).passed).toBe(true);
    expect((await score(c, run({ a: '订单已取消' }, '已发货'))).passed).toBe(false);
    const own = spec({ name: 'polite', type: 'contains', value: '您好' });
    expect((await score(own, run({ a: '您好，请稍等' }))).passed).toBe(true);
    expect(await score(spec({ name: 'x', type: 'contains' }), run({ a: 'text' }))).toMatchObject({ passed: false });
  });

  it('regex matches on RE2, after NFKC folding', async () => {
    const r = spec({ name: 'order', type: 'regex', pattern: '^订单号[:]\\s*\\d{6}$' });
    expect((await score(r, run({ a: '订单号：１２３４５６' }))).passed).toBe(true);
    expect((await score(r, run({ a: '订单号：12345' }))).passed).toBe(false);
  });
});

describe('numbers, time and money', () => {
  it('numeric passes within the tolerance and gives partial credit outside it', async () => {
    const n = spec({ name: 'total', type: 'numeric', tolerance: 0.5 });
    expect((await score(n, run({ total: '１,０００.２' }, 1000))).passed).toBe(true);
    const off = await score(n, run({ total: 900 }, 1000));
    expect(off.passed).toBe(false);
    expect(off.score).toBeCloseTo(0.9, 5);
    expect(await score(n, run({ total: '大约一千' }, 1000))).toMatchObject({
      passed: false,
      reason: 'the output is not a number',
    });
  });

  it('latency and cost pass under their limits, and fail when unknown', async () => {
    expect((await score(spec({ name: 'fast', type: 'latency', maxMs: 2000 }), run({}))).passed).toBe(true);
    expect((await score(spec({ name: 'fast', type: 'latency', maxMs: 1000 }), run({}))).passed).toBe(false);
    expect((await score(spec({ name: 'cheap', type: 'cost', maxUsd: 0.01 }), run({}))).passed).toBe(true);
    const unpriced = await score(
      spec({ name: 'cheap', type: 'cost', maxUsd: 0.01 }),
      run({}, undefined, { costUsd: null }),
    );
    expect(unpriced.passed).toBe(false);
  });
});

describe('scorer specs', () => {
  it('refuse an unknown type or key, and two scorers of one name', () => {
    expect(scorerSchema.safeParse({ name: 'x', type: 'bleu' }).success).toBe(false);
    expect(scorerSchema.safeParse({ name: 'x', type: 'exact', feild: 'a' }).success).toBe(false);
    expect(SCORER_TYPES).toEqual([
      'exact',
      'contains',
      'regex',
      'numeric',
      'latency',
      'cost',
      'similarity',
      'json_schema',
      'retrieval',
      'llm_judge',
    ]);
    expect(() => checkScorerNames([spec({ name: 'a', type: 'exact' }), spec({ name: 'a', type: 'contains' })])).toThrow(
      /two scorers are named "a"/,
    );
  });

  it('normalizeText folds full-width forms and spacing', () => {
    expect(normalizeText('ＡＢＣ　１２３，你好！')).toBe('abc 123,你好!');
  });
});
