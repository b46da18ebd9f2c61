// Guarantees: the publish gate's form turns into the exact `gate` body the API takes — the limits a user typed,
// none they left empty — a stored gate opens in the scorer form and is sent back unchanged, and a form that cannot
// be sent names what to fix and where, before anything is sent.
import { describe, expect, it } from 'vitest';
import { draftOf, gateOf, withScorerAdded, withScorerRemoved, type GateDraft } from './gate-draft';
import type { PublishGate } from './publish-api';

const problem = (d: GateDraft) => {
  const out = gateOf(d);
  return 'problem' in out ? out.problem : null;
};

describe('the publish gate form', () => {
  it('starts a new gate with exact on the End output it is given and a minimum mean of 0.8', () => {
    const draft = draftOf(null, 'route');
    expect(draft.scorers.map((s) => [s.name, s.type, s.field])).toEqual([['exact', 'exact', 'route']]);
    expect(gateOf({ ...draft, datasetId: 'ds_1' })).toEqual({
      gate: {
        datasetId: 'ds_1',
        scorers: [{ name: 'exact', type: 'exact', field: 'route', caseSensitive: false }],
        minMean: { exact: 0.8 },
      },
    });
  });

  it('opens a stored gate as it was saved, and sends it back unchanged', () => {
    const gate: PublishGate = {
      datasetId: 'ds_2',
      scorers: [
        { name: 'route', type: 'exact', field: 'route', caseSensitive: false },
        { name: '礼貌', type: 'llm_judge', field: 'answer', model: 'judge', rubric: '回答礼貌', threshold: 0.7 },
        { name: 'fast', type: 'latency', maxMs: 2000 },
      ],
      minMean: { route: 0.9 },
      maxDrop: { route: 0.05, 礼貌: 0.1 },
    };
    const draft = draftOf(gate, 'route');
    expect(draft.scorers.map((s) => s.name)).toEqual(['route', '礼貌', 'fast']);
    expect(draft.scorers.map((s) => draft.minMean[s.key])).toEqual(['0.9', '', '']);
    expect(gateOf(draft)).toEqual({ gate });
  });

  it('keeps a scorer’s limits when it is renamed, and drops them with the scorer', () => {
    const gate: PublishGate = {
      datasetId: 'ds_1',
      scorers: [{ name: 'route', type: 'exact', field: 'route', caseSensitive: false }],
      minMean: { route: 0.7 },
    };
    const draft = draftOf(gate, 'route');
    const [route] = draft.scorers;
    const renamed = { ...draft, scorers: [{ ...route, name: 'routing' }] };
    expect(gateOf(renamed)).toMatchObject({ gate: { minMean: { routing: 0.7 } } });

    const two = withScorerAdded(draft, 'answer');
    expect(two.scorers.map((s) => [s.name, s.field])).toEqual([
      ['route', 'route'],
      ['exact', 'answer'],
    ]);
    const added = two.scorers[1];
    const withLimit = { ...two, maxDrop: { [added.key]: '0.1' } };
    expect(gateOf(withLimit)).toMatchObject({ gate: { minMean: { route: 0.7 }, maxDrop: { exact: 0.1 } } });
    expect(gateOf(withScorerRemoved(withLimit, route.key))).toEqual({
      gate: {
        datasetId: 'ds_1',
        scorers: [{ name: 'exact', type: 'exact', field: 'answer', caseSensitive: false }],
        maxDrop: { exact: 0.1 },
      },
    });
  });

  it('names the field to fix when the form cannot be sent', () => {
    const ok = { ...draftOf(null, 'route'), datasetId: 'ds_1' };
    const key = ok.scorers[0].key;
    expect(problem({ ...ok, datasetId: '' })).toMatchObject({ key: 'datasetMissing', path: 'datasetId' });
    expect(problem({ ...ok, scorers: [] })).toMatchObject({ key: 'scorersMissing', path: 'scorers' });
    expect(problem({ ...ok, scorers: [{ ...ok.scorers[0], name: ' ' }] })).toMatchObject({
      key: 'scorerInvalid',
      path: 'scorers.0.name',
    });
    const twice = withScorerAdded(ok, 'route');
    const dup = { ...twice, scorers: twice.scorers.map((s) => ({ ...s, name: 'same' })) };
    expect(gateOf(dup)).toMatchObject({
      problem: { key: 'scorerInvalid', path: 'scorers.1.name' },
      scorerErrors: [{ key: 'nameDuplicate', index: 1 }],
    });
    expect(problem({ ...ok, minMean: { [key]: '1.5' } })).toMatchObject({
      key: 'limitNotFraction',
      path: 'minMean.exact',
    });
    expect(problem({ ...ok, minMean: { [key]: 'abc' } })).toMatchObject({ key: 'limitNotFraction' });
    expect(problem({ ...ok, minMean: { [key]: ' ' } })).toMatchObject({ key: 'noLimit' });
  });
});
