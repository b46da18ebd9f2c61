// Guarantees that every change of a publish gate that would let through a draft the old gate refuses is recognised
// as a weakening (and so needs the role that may force a publish), and that raising a bar is not.
import { describe, expect, it } from 'vitest';
import type { EvaluationGate } from '@/engine/store/evaluations';
import { gateWeakenings } from '@/lib/server/evaluations/gate-weakening';

const strict: EvaluationGate = {
  datasetId: 'ds_1',
  scorers: [
    { name: 'route', type: 'exact', field: 'route' },
    { name: 'polite', type: 'contains', field: 'answer', value: 'please' },
  ] as EvaluationGate['scorers'],
  minMean: { route: 0.8, polite: 0.5 },
  maxDrop: { route: 0.05 },
  concurrency: 4,
};
const paths = (after: EvaluationGate | null) => gateWeakenings(strict, after).map((w) => w.path);

describe('a weaker publish gate', () => {
  it('is removing it', () => expect(paths(null)).toEqual(['gate']));
  it('is another dataset', () => expect(paths({ ...strict, datasetId: 'ds_2' })).toEqual(['datasetId']));
  it('is a lower minimum mean, or none', () => {
    expect(paths({ ...strict, minMean: { route: 0.79, polite: 0.5 } })).toEqual(['minMean.route']);
    expect(paths({ ...strict, minMean: { route: 0.8 } })).toEqual(['minMean.polite']);
  });
  it('is a looser rule against the published version, or none', () => {
    expect(paths({ ...strict, maxDrop: { route: 0.2 } })).toEqual(['maxDrop.route']);
    expect(paths({ ...strict, maxDrop: undefined })).toEqual(['maxDrop.route']);
  });
  it('is a scorer removed or scoring differently', () => {
    expect(paths({ ...strict, scorers: strict.scorers.slice(0, 1), minMean: { route: 0.8 } })).toEqual([
      'scorers.polite',
      'minMean.polite',
    ]);
    const lenient = [strict.scorers[0], { ...strict.scorers[1], value: 'e' }] as EvaluationGate['scorers'];
    expect(paths({ ...strict, scorers: lenient })).toEqual(['scorers.polite']);
  });
  it('is not a stricter gate, a new scorer or another concurrency', () => {
    const extra = [...strict.scorers, { name: 'len', type: 'contains', field: 'answer', value: '.' }];
    expect(
      paths({
        ...strict,
        scorers: extra as EvaluationGate['scorers'],
        minMean: { route: 0.9, polite: 0.5, len: 0.1 },
        maxDrop: { route: 0.01 },
        concurrency: 16,
      }),
    ).toEqual([]);
    expect(gateWeakenings(null, strict)).toEqual([]);
  });
});
