// Guarantees: the Evaluate form's defaults and every scorer type convert to a body the server's own schema accepts;
// a mistake (a blank name, a bad number, JSON that is not a schema, a name used twice, no dataset) is named with the
// scorer and the option it belongs to, and nothing is sent while one remains. A saved scorer opens in the form and is
// sent back unchanged, and a new scorer reads an End output the dataset expects (never `answer` the cases lack).
import { describe, expect, it } from 'vitest';
import { SUPPORT_TRIAGE_EXAMPLE } from '@/engine/examples/support-triage';
import { SUPPORT_TRIAGE_CASES } from '@/engine/examples/support-triage-cases';
import { createEvaluationSchema } from '@/lib/server/evaluations/evaluation-schemas';
import { toFlow } from '../graph-model';
import { endOutputs } from './end-outputs';
import {
  defaultOutput,
  evaluationBody,
  expectedFields,
  freeName,
  initialDraft,
  newScorerDraft,
  pointedAtDataset,
  SCORER_TYPES,
  scorerBody,
  scorerDraftOf,
  serverDraftError,
  type EvaluationDraft,
  type ScorerDraft,
} from './scorer-drafts';

const draftWith = (...scorers: ScorerDraft[]): EvaluationDraft => ({
  ...initialDraft(['answer'], 'ds_1'),
  scorers,
});
const scorer = (type: ScorerDraft['type'], patch: Partial<ScorerDraft> = {}) => ({
  ...newScorerDraft(type, 'answer'),
  ...patch,
});
const errorsOf = (d: ScorerDraft) => scorerBody(d, 0).errors.map((e) => `${e.key}@${e.option}`);

describe('the form as it opens', () => {
  it('is one exact scorer on the first End output, the draft, 4 rows at a time', () => {
    const { body, errors } = evaluationBody(initialDraft(['route', 'answer'], 'ds_1'));
    expect(errors).toEqual([]);
    expect(body).toEqual({
      datasetId: 'ds_1',
      version: 'draft',
      concurrency: 4,
      scorers: [{ name: 'exact', type: 'exact', field: 'route', caseSensitive: false }],
    });
    expect(createEvaluationSchema.safeParse(body).success).toBe(true);
  });
});

describe('every scorer type', () => {
  const filled: Record<ScorerDraft['type'], Partial<ScorerDraft>> = {
    exact: { caseSensitive: true },
    contains: { value: '感谢' },
    regex: { pattern: '^(urgent|else)$' },
    json_schema: { schema: '{"type":"object","required":["route"]}' },
    numeric: { tolerance: '0.5' },
    similarity: { threshold: '0.9' },
    llm_judge: { rubric: 'Polite and correct.', model: 'gpt-4o-mini', credentialId: 'cred_1', threshold: '0.6' },
    retrieval: { k: '3', metric: 'mrr', sourcesField: 'docs' },
    latency: { maxMs: '1500' },
    cost: { maxUsd: '0' },
  };

  it.each(SCORER_TYPES)('%s filled in converts to a body the server accepts', (type) => {
    const { body, errors } = evaluationBody({
      ...draftWith(scorer(type, { name: `s_${type}`, ...filled[type] })),
      version: '3',
      concurrency: '16',
    });
    expect(errors).toEqual([]);
    const parsed = createEvaluationSchema.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(body!.version).toBe(3);
    expect(body!.scorers[0]).toMatchObject({ name: `s_${type}`, type });
  });

  it.each(SCORER_TYPES)(
    '%s saved (as sent, or as the server stored it) opens in the form and is sent unchanged',
    (type) => {
      const sent = scorerBody(scorer(type, { name: `s_${type}`, ...filled[type] }), 0).body!;
      const stored = createEvaluationSchema.parse({ datasetId: 'ds_1', scorers: [sent] }).scorers[0];
      for (const body of [sent, stored]) {
        const draft = scorerDraftOf(body);
        expect([draft.name, draft.type]).toEqual([`s_${type}`, type]);
        expect(scorerBody(draft, 0)).toEqual({ body, errors: [] });
      }
    },
  );

  it('sends the options each type needs, and leaves blank optional ones to the server default', () => {
    expect(scorerBody(scorer('similarity'), 0).body).toEqual({
      name: 'similarity',
      type: 'similarity',
      field: 'answer',
    });
    expect(scorerBody(scorer('retrieval', { k: '3', metric: 'mrr', sourcesField: 'docs' }), 0).body).toEqual({
      name: 'retrieval',
      type: 'retrieval',
      field: 'docs',
      k: 3,
      metric: 'mrr',
    });
    expect(scorerBody(scorer('latency', { maxMs: '1500' }), 0).body).toEqual({
      name: 'latency',
      type: 'latency',
      maxMs: 1500,
    });
    expect(scorerBody(scorer('json_schema', { schema: '{"type":"string"}' }), 0).body).toMatchObject({
      schema: { type: 'string' },
    });
  });
});

describe('the mistakes a user is shown', () => {
  it('names a blank, spaced, dotted or reserved scorer name', () => {
    expect(errorsOf(scorer('exact', { name: ' ' }))).toEqual(['nameRequired@name']);
    expect(errorsOf(scorer('exact', { name: 'my route' }))).toEqual(['nameInvalid@name']);
    expect(errorsOf(scorer('exact', { name: 'a.b' }))).toEqual(['nameInvalid@name']);
    expect(errorsOf(scorer('exact', { name: 'p95Ms' }))).toEqual(['nameReserved@name']);
  });

  it('names the option a type needs and the number that is out of range', () => {
    expect(errorsOf(scorer('regex'))).toEqual(['patternRequired@pattern']);
    expect(errorsOf(scorer('json_schema', { schema: '{oops' }))).toEqual(['schemaNotJson@schema']);
    expect(errorsOf(scorer('json_schema', { schema: '[1]' }))).toEqual(['schemaNotObject@schema']);
    expect(errorsOf(scorer('numeric', { tolerance: '-1' }))).toEqual(['notNegative@tolerance']);
    expect(errorsOf(scorer('similarity', { threshold: '1.5' }))).toEqual(['fraction@threshold']);
    expect(errorsOf(scorer('llm_judge', { model: ' ' }))).toEqual(['rubricRequired@rubric', 'modelRequired@model']);
    expect(errorsOf(scorer('retrieval', { k: '2.5' }))).toEqual(['kRange@k']);
    expect(errorsOf(scorer('latency'))).toEqual(['maxMsRequired@maxMs']);
    expect(errorsOf(scorer('latency', { maxMs: '0' }))).toEqual(['positive@maxMs']);
    expect(errorsOf(scorer('cost', { maxUsd: 'abc' }))).toEqual(['notNegative@maxUsd']);
  });

  it('refuses a form without a dataset, with a concurrency outside 1–16, without scorers or with a name twice', () => {
    const twice = evaluationBody({ ...draftWith(scorer('exact'), scorer('exact')), datasetId: '', concurrency: '17' });
    expect(twice.body).toBeUndefined();
    expect(twice.errors).toEqual([
      { key: 'datasetRequired', option: 'dataset' },
      { key: 'concurrencyRange', option: 'concurrency' },
      { key: 'nameDuplicate', option: 'name', index: 1 },
    ]);
    expect(evaluationBody({ ...draftWith(), concurrency: '0' }).errors.map((e) => e.key)).toEqual([
      'concurrencyRange',
      'scorersRequired',
    ]);
  });

  it('points at the scorer the mistake is in', () => {
    const { errors } = evaluationBody(draftWith(scorer('exact'), scorer('regex', { name: 'r' })));
    expect(errors).toEqual([{ key: 'patternRequired', option: 'pattern', index: 1 }]);
  });
});

describe('a new scorer', () => {
  it('takes a name no other scorer has', () => {
    expect(freeName('exact', [])).toBe('exact');
    expect(freeName('exact', ['exact', 'exact_2'])).toBe('exact_3');
  });
});

describe("the server's refusal", () => {
  it('is shown under the scorer option its path names, and nowhere in particular otherwise', () => {
    expect(serverDraftError('scorers[1].schema', 'invalid JSON Schema')).toEqual({
      key: 'server',
      option: 'schema',
      index: 1,
      message: 'invalid JSON Schema',
    });
    expect(serverDraftError('datasetId', 'dataset not found')).toBeNull();
    expect(serverDraftError(undefined, 'boom')).toBeNull();
  });
});

describe('the End output a new scorer reads', () => {
  // The seeded Support triage example: its End outputs `answer`, `route`, `model`; its cases expect only `route`.
  const outputs = endOutputs(toFlow(SUPPORT_TRIAGE_EXAMPLE.graph).nodes);
  const expected = expectedFields(SUPPORT_TRIAGE_CASES.rows);

  it('is, on the seeded example and its cases, the route the cases expect — not the answer they lack', () => {
    expect(outputs).toEqual(['answer', 'route', 'model']);
    expect(expected).toEqual(['route']);
    expect(defaultOutput(outputs, expected)).toBe('route');
    const opened = initialDraft(outputs, 'ds_cases').scorers;
    const picked = pointedAtDataset(opened, outputs, expected);
    expect(picked.map((s) => [s.type, s.field])).toEqual([['exact', 'route']]);
  });

  it('is the first End output when the dataset is unknown or expects none of them, and none without outputs', () => {
    expect(defaultOutput(outputs)).toBe('answer');
    expect(defaultOutput(outputs, ['sentiment'])).toBe('answer');
    expect(defaultOutput([], ['route'])).toBe('');
    expect(expectedFields([{ expected: 'urgent' }, { expected: ['a'] }, {}, { expected: { b: 1, a: 2 } }])).toEqual([
      'b',
      'a',
    ]);
  });

  it('moves only scorers that compare an output the dataset never expects, and changes nothing otherwise', () => {
    const scorers = [
      scorer('exact', { field: 'answer' }),
      scorer('contains', { field: 'answer', value: 'Summary' }),
      scorer('llm_judge', { field: 'answer' }),
      scorer('numeric', { field: 'model' }),
      scorer('exact', { field: 'route' }),
    ];
    expect(pointedAtDataset(scorers, outputs, expected).map((s) => s.field)).toEqual([
      'route',
      'answer',
      'answer',
      'route',
      'route',
    ]);
    const fine = [scorer('exact', { field: 'route' })];
    expect(pointedAtDataset(fine, outputs, expected)).toBe(fine);
    expect(pointedAtDataset(scorers, outputs, ['sentiment'])).toBe(scorers);
  });
});
