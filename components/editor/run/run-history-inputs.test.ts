// Guarantees: the run history shows a run's inputs on one line — "no inputs" for none, the JSON without its outer
// braces, and an ellipsis where the server cut a long preview.
import { describe, expect, it, vi } from 'vitest';
import { inputsLine } from './run-history';

vi.mock('@/components/lib/i18n', () => import('../i18n-test-double'));

describe('inputs in the run history', () => {
  it('reads as one line', () => {
    expect(inputsLine('{}')).toBe('no inputs');
    expect(inputsLine('{"q": "refund policy", "n": 3}')).toBe('"q": "refund policy", "n": 3');
    const cut = `{"text": "${'x'.repeat(190)}`;
    expect(cut).toHaveLength(200);
    expect(inputsLine(cut)).toBe(`"text": "${'x'.repeat(190)}…`);
  });
});
