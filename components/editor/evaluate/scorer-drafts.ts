/**
 * The Evaluate form's scorers as the user edits them (every option a string, as in its input) and their conversion
 * to the body of POST /api/workflows/:id/evaluations. Pure, so what a user may send and which mistakes they are told
 * about are tested without a browser. A mistake is a message key of `evaluate.errors` with the scorer and the option
 * it belongs to; the server checks everything again (a RE2 pattern, a JSON Schema that compiles) and its answer is
 * shown beside the form.
 */
import type { NewEvaluation, ScorerBody } from './evaluate-api';

export const SCORER_TYPES = [
  'exact',
  'contains',
  'regex',
  'json_schema',
  'numeric',
  'similarity',
  'llm_judge',
  'retrieval',
  'latency',
  'cost',
] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

/** The types that read an End output (`field`); latency and cost look at the run, retrieval at its citations. */
export const READS_OUTPUT: ReadonlySet<ScorerType> = new Set([
  'exact',
  'contains',
  'regex',
  'json_schema',
  'numeric',
  'similarity',
  'llm_judge',
]);

export interface ScorerDraft {
  /** A React key that survives reordering and removal. */
  key: number;
  name: string;
  type: ScorerType;
  /** The End output it reads. */
  field: string;
  caseSensitive: boolean;
  /** contains: the text to find; blank: the expectation. */
  value: string;
  pattern: string;
  /** json_schema: the schema's JSON text. */
  schema: string;
  tolerance: string;
  /** similarity, llm_judge, retrieval: blank for the type's default. */
  threshold: string;
  rubric: string;
  model: string;
  credentialId: string;
  /** retrieval: the expectation's field with the expected sources; blank: `sources`. */
  sourcesField: string;
  k: string;
  metric: 'recall' | 'mrr';
  maxMs: string;
  maxUsd: string;
}

export interface EvaluationDraft {
  datasetId: string;
  /** `draft` or a published version's number as text. */
  version: string;
  concurrency: string;
  scorers: ScorerDraft[];
}

/**
 * A mistake the user is shown: `evaluate.errors.<key>` (or the server's own `message`), at scorer `index` (absent:
 * the form) and its `option`.
 */
export interface DraftError {
  key: string;
  option: string;
  index?: number;
  message?: string;
}

/** The server's refusal as a mistake of one scorer's option, when its path names one (`scorers[1].schema`). */
export function serverDraftError(path: string | undefined, message: string): DraftError | null {
  const m = /^scorers\[(\d+)\]\.(\w+)/.exec(path ?? '');
  return m ? { key: 'server', option: m[2], index: Number(m[1]), message } : null;
}

export const MAX_CONCURRENCY = 16;
export const DEFAULT_CONCURRENCY = 4;
/** The keys a summary has beside the scorers' names (lib/server/evaluations/summary.ts): no scorer may take one. */
const SUMMARY_KEYS = new Set(['costUsd', 'unknownCostRows', 'p50Ms', 'p95Ms', 'scored']);

let nextKey = 1;

/** A new scorer of `type` on `field`, named after its type. */
export function newScorerDraft(type: ScorerType = 'exact', field = ''): ScorerDraft {
  return {
    key: nextKey++,
    name: type,
    type,
    field,
    caseSensitive: false,
    value: '',
    pattern: '',
    schema: '{\n  "type": "object"\n}',
    tolerance: '',
    threshold: '',
    rubric: '',
    model: 'gpt-4o-mini',
    credentialId: '',
    sourcesField: '',
    k: '',
    metric: 'recall',
    maxMs: '',
    maxUsd: '',
  };
}

/** `base`, or `base_2`, `base_3` … whichever no scorer has yet. */
export function freeName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  let n = 2;
  while (taken.includes(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

/** The form as it opens: the first dataset, the draft, 4 at a time, one `exact` scorer on the first End output. */
export function initialDraft(endOutputs: string[], datasetId = ''): EvaluationDraft {
  return {
    datasetId,
    version: 'draft',
    concurrency: String(DEFAULT_CONCURRENCY),
    scorers: [newScorerDraft('exact', endOutputs[0] ?? '')],
  };
}

type NumberRule = { min?: number; max?: number; above?: number; integer?: boolean };

/** A number typed in an input: undefined when blank, NaN when it is not one or breaks the rule. */
function parseNumber(text: string, rule: NumberRule): number | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) return NaN;
  if (rule.integer && !Number.isInteger(n)) return NaN;
  if (rule.min !== undefined && n < rule.min) return NaN;
  if (rule.max !== undefined && n > rule.max) return NaN;
  if (rule.above !== undefined && n <= rule.above) return NaN;
  return n;
}

const FRACTION: NumberRule = { min: 0, max: 1 };

/** One scorer's body, or the mistakes that keep it from being sent. */
export function scorerBody(d: ScorerDraft, index: number): { body?: ScorerBody; errors: DraftError[] } {
  const errors: DraftError[] = [];
  const fail = (key: string, option: string) => errors.push({ key, option, index });
  const name = d.name.trim();
  if (!name) fail('nameRequired', 'name');
  else if (!/^[^\s.]+$/.test(name)) fail('nameInvalid', 'name');
  else if (SUMMARY_KEYS.has(name)) fail('nameReserved', 'name');

  const num = (option: keyof ScorerDraft, rule: NumberRule, key: string, required = false) => {
    const n = parseNumber(String(d[option]), rule);
    if (n === undefined && required) fail(`${option}Required`, option);
    else if (Number.isNaN(n)) fail(key, option);
    return n;
  };
  const field = READS_OUTPUT.has(d.type) && d.field.trim() ? { field: d.field.trim() } : {};
  const threshold = () => {
    const n = num('threshold', FRACTION, 'fraction');
    return n === undefined || Number.isNaN(n) ? {} : { threshold: n };
  };

  let body: ScorerBody | undefined;
  switch (d.type) {
    case 'exact':
      body = { name, type: 'exact', ...field, caseSensitive: d.caseSensitive };
      break;
    case 'contains':
      body = { name, type: 'contains', ...field, caseSensitive: d.caseSensitive };
      if (d.value.trim()) body = { ...body, value: d.value };
      break;
    case 'regex':
      if (!d.pattern.trim()) fail('patternRequired', 'pattern');
      body = { name, type: 'regex', ...field, pattern: d.pattern };
      break;
    case 'json_schema': {
      let schema: unknown;
      try {
        schema = JSON.parse(d.schema);
      } catch {
        fail('schemaNotJson', 'schema');
      }
      if (
        errors.every((e) => e.option !== 'schema') &&
        (!schema || typeof schema !== 'object' || Array.isArray(schema))
      )
        fail('schemaNotObject', 'schema');
      body = { name, type: 'json_schema', ...field, schema: (schema ?? {}) as Record<string, unknown> };
      break;
    }
    case 'numeric': {
      const tolerance = num('tolerance', { min: 0 }, 'notNegative');
      body = { name, type: 'numeric', ...field, ...(tolerance !== undefined ? { tolerance } : {}) };
      break;
    }
    case 'similarity':
      body = { name, type: 'similarity', ...field, ...threshold() };
      break;
    case 'llm_judge':
      if (!d.rubric.trim()) fail('rubricRequired', 'rubric');
      if (!d.model.trim()) fail('modelRequired', 'model');
      body = {
        name,
        type: 'llm_judge',
        ...field,
        rubric: d.rubric.trim(),
        model: d.model.trim(),
        ...(d.credentialId ? { credentialId: d.credentialId } : {}),
        ...threshold(),
      };
      break;
    case 'retrieval': {
      const k = num('k', { min: 1, max: 100, integer: true }, 'kRange');
      body = {
        name,
        type: 'retrieval',
        ...(d.sourcesField.trim() ? { field: d.sourcesField.trim() } : {}),
        ...(k !== undefined && !Number.isNaN(k) ? { k } : {}),
        metric: d.metric,
        ...threshold(),
      };
      break;
    }
    case 'latency':
      body = { name, type: 'latency', maxMs: num('maxMs', { above: 0 }, 'positive', true) ?? 0 };
      break;
    case 'cost':
      body = { name, type: 'cost', maxUsd: num('maxUsd', { min: 0 }, 'notNegative', true) ?? 0 };
      break;
  }
  return errors.length ? { errors } : { body, errors };
}

/** The POST body, or every mistake in the form (a dataset, the concurrency, each scorer, names used twice). */
export function evaluationBody(draft: EvaluationDraft): { body?: NewEvaluation; errors: DraftError[] } {
  const errors: DraftError[] = [];
  if (!draft.datasetId) errors.push({ key: 'datasetRequired', option: 'dataset' });
  const concurrency = parseNumber(draft.concurrency, { min: 1, max: MAX_CONCURRENCY, integer: true });
  if (concurrency === undefined || Number.isNaN(concurrency))
    errors.push({ key: 'concurrencyRange', option: 'concurrency' });
  if (!draft.scorers.length) errors.push({ key: 'scorersRequired', option: 'scorers' });
  const seen = new Set<string>();
  const scorers: ScorerBody[] = [];
  draft.scorers.forEach((d, i) => {
    const one = scorerBody(d, i);
    errors.push(...one.errors);
    if (one.body) scorers.push(one.body);
    const name = d.name.trim();
    if (name && seen.has(name)) errors.push({ key: 'nameDuplicate', option: 'name', index: i });
    seen.add(name);
  });
  if (errors.length) return { errors };
  const version = draft.version === 'draft' ? 'draft' : Number(draft.version);
  return { body: { datasetId: draft.datasetId, version, concurrency, scorers }, errors };
}

/**
 * The form of a scorer already saved (a publish gate's): every option it has, as its input shows it, the rest as a
 * new scorer of its type. `scorerBody` of the result is the same body again.
 */
export function scorerDraftOf(body: ScorerBody): ScorerDraft {
  const d = { ...newScorerDraft(body.type), name: body.name };
  const s = (n: number | undefined) => (n === undefined ? '' : String(n));
  switch (body.type) {
    case 'exact':
      return { ...d, field: body.field ?? '', caseSensitive: body.caseSensitive ?? false };
    case 'contains':
      return { ...d, field: body.field ?? '', value: body.value ?? '', caseSensitive: body.caseSensitive ?? false };
    case 'regex':
      return { ...d, field: body.field ?? '', pattern: body.pattern };
    case 'json_schema':
      return { ...d, field: body.field ?? '', schema: JSON.stringify(body.schema, null, 2) };
    case 'numeric':
      return { ...d, field: body.field ?? '', tolerance: s(body.tolerance) };
    case 'similarity':
      return { ...d, field: body.field ?? '', threshold: s(body.threshold) };
    case 'llm_judge':
      return {
        ...d,
        field: body.field ?? '',
        rubric: body.rubric,
        model: body.model,
        credentialId: body.credentialId ?? '',
        threshold: s(body.threshold),
      };
    case 'retrieval':
      return {
        ...d,
        sourcesField: body.field ?? '',
        k: s(body.k),
        metric: body.metric ?? 'recall',
        threshold: s(body.threshold),
      };
    case 'latency':
      return { ...d, maxMs: s(body.maxMs) };
    case 'cost':
      return { ...d, maxUsd: s(body.maxUsd) };
  }
}

/** The fields the rows' expectations have, in the order first seen (an expectation that is not an object has none). */
export function expectedFields(rows: readonly { expected?: unknown }[]): string[] {
  const fields: string[] = [];
  for (const { expected } of rows)
    if (expected && typeof expected === 'object' && !Array.isArray(expected))
      for (const k of Object.keys(expected)) if (!fields.includes(k)) fields.push(k);
  return fields;
}

/**
 * The End output a new scorer reads: the first the dataset's rows expect, else the workflow's first, else none.
 * The seeded Support triage example's first output is `answer`, but its cases expect only `route`.
 */
export function defaultOutput(outputs: readonly string[], expected: readonly string[] = []): string {
  return outputs.find((o) => expected.includes(o)) ?? outputs[0] ?? '';
}

/** The types that compare an End output with the row's expectation of it (`contains` only without a value). */
const compares = (d: ScorerDraft) =>
  d.type === 'exact' || d.type === 'numeric' || d.type === 'similarity' || (d.type === 'contains' && !d.value.trim());

/**
 * The scorers once a dataset is picked: one that compares an output the dataset never expects (it could only fail)
 * reads defaultOutput instead, when the dataset expects one of the workflow's outputs. The same array when nothing
 * changes, so a form can apply it on every pick.
 */
export function pointedAtDataset(
  scorers: ScorerDraft[],
  outputs: readonly string[],
  expected: readonly string[],
): ScorerDraft[] {
  const field = outputs.find((o) => expected.includes(o));
  if (!field || !scorers.some((s) => compares(s) && !expected.includes(s.field))) return scorers;
  return scorers.map((s) => (compares(s) && !expected.includes(s.field) ? { ...s, field } : s));
}
