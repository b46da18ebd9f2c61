// Guarantees: the publish gate's form turns into the exact `gate` body the API takes — the limits a user typed,
// none they left empty — and a form that cannot be sent names what to fix and where, before anything is sent.
import { describe, expect, it } from 'vitest';
import { draftOf, gateOf, scorerNamesOf } from './gate-draft';
import type { PublishGate } from './publish-api';

describe('the publish gate form', () => {
  it('starts a new gate with exact on the first End output and a minimum mean of 0.8', () => {
    const draft = draftOf(null, 'route');
    expect(JSON.parse(draft.scorersText)).toEqual([{ name: 'route', type: 'exact', field: 'route' }]);
    expect(gateOf({ ...draft, datasetId: 'ds_1' })).toEqual({
      gate: { datasetId: 'ds_1', scorers: [{ name: 'route', type: 'exact', field: 'route' }], minMean: { route: 0.8 } },
    });
  });

  it('opens a stored gate as it was saved, and sends it back unchanged', () => {
    const gate: PublishGate = {
      datasetId: 'ds_2',
      scorers: [
        { name: 'route', type: 'exact', field: 'route' },
        { name: '礼貌', type: 'llm_judge', field: 'answer', model: 'judge', rubric: '回答礼貌' },
      ],
      minMean: { route: 0.9 },
      maxDrop: { route: 0.05, 礼貌: 0.1 },
    };
    const draft = draftOf(gate, 'route');
    expect(draft.minMean).toEqual({ route: '0.9', 礼貌: '' });
    expect(gateOf(draft)).toEqual({ gate });
  });

  it('offers a limit row per scorer name, and none while the JSON does not parse', () => {
    expect(scorerNamesOf('[{"name":"a","type":"exact"},{"name":"b","type":"contains"},{"name":"a"}]')).toEqual([
      'a',
      'b',
    ]);
    expect(scorerNamesOf('[{"name":"a",')).toEqual([]);
  });

  it('names the field to fix when the form cannot be sent', () => {
    const ok = { ...draftOf(null, 'route'), datasetId: 'ds_1' };
    const problem = (d: typeof ok) => ('problem' in gateOf(d) ? (gateOf(d) as { problem: object }).problem : null);
    expect(problem({ ...ok, datasetId: '' })).toMatchObject({ key: 'datasetMissing', path: 'datasetId' });
    expect(problem({ ...ok, scorersText: '[{' })).toMatchObject({ key: 'scorersNotJson', path: 'scorers' });
    expect(problem({ ...ok, scorersText: '{"name":"route"}' })).toMatchObject({ key: 'scorersNotList' });
    expect(problem({ ...ok, scorersText: '[{"type":"exact"}]' })).toMatchObject({ path: 'scorers.0.name' });
    expect(problem({ ...ok, minMean: { route: '1.5' } })).toMatchObject({
      key: 'limitNotFraction',
      path: 'minMean.route',
    });
    expect(problem({ ...ok, minMean: { route: 'abc' } })).toMatchObject({ key: 'limitNotFraction' });
    expect(problem({ ...ok, minMean: { route: ' ' } })).toMatchObject({ key: 'noLimit' });
  });
});
