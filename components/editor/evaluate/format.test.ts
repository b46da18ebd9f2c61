// Guarantees: the Evaluate tab writes shares, scores, differences and durations the same way everywhere, and
// writes "—" for a number it does not have rather than "NaN" or "null".
import { describe, expect, it } from 'vitest';
import { formatDiff, formatMs, formatPercent, formatScore, formatValue, NONE } from './format';

describe('numbers of an evaluation', () => {
  it('writes a share as a percent with at most one decimal', () => {
    expect(formatPercent(0.625)).toBe('62.5%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(2 / 3)).toBe('66.7%');
  });

  it('writes a score with at most three decimals and a difference in signed percentage points', () => {
    expect(formatScore(1)).toBe('1');
    expect(formatScore(0.66666)).toBe('0.667');
    expect(formatDiff(0.375)).toBe('+37.5 pt');
    expect(formatDiff(-0.1)).toBe('−10 pt');
    expect(formatDiff(0)).toBe('±0 pt');
  });

  it('writes a duration in ms below a second and in seconds above', () => {
    expect(formatMs(850.4)).toBe('850 ms');
    expect(formatMs(1234)).toBe('1.23 s');
    expect(formatMs(65_000)).toBe('1 m 5 s');
  });

  it('writes "—" for a number it does not have', () => {
    for (const f of [formatPercent, formatScore, formatDiff, formatMs]) {
      expect(f(null)).toBe(NONE);
      expect(f(undefined)).toBe(NONE);
      expect(f(Number.NaN)).toBe(NONE);
    }
  });

  it('writes a row value as text, or as JSON when it is not text', () => {
    expect(formatValue('紧急')).toBe('紧急');
    expect(formatValue({ route: 'urgent' })).toBe('{"route":"urgent"}');
    expect(formatValue(null)).toBe(NONE);
  });
});
