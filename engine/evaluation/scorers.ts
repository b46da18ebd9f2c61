/**
 * Evaluation scorers (issue 36). Those that need nothing but a row's run: `exact`, `contains`, `regex`, `numeric`,
 * `latency`, `cost`, `json_schema` (json-schema-scorer.ts) and `retrieval` (the run's knowledge hits); those that ask
 * a model through an injected service: `similarity` (an Embedder) and `llm_judge` (a JudgeFn), in model-scorers.ts.
 * Each reads one End output (`field`, default the first) against the row's expectation — the whole `expected`, or
 * `expected[field]` when the expectation is an object with that field — and answers a score in 0–1, whether it
 * passed, and why when it did not.
 *
 * Text is compared after Unicode NFKC folding (full-width letters, digits and punctuation such as `，` `：` `１`
 * become their plain forms), trimming and collapsing whitespace, and, unless `caseSensitive`, lower-casing: a Chinese
 * answer that differs from the expectation only in full-width punctuation or spacing still matches.
 */
import { z } from 'zod';
import { PaiError } from '../errors';
import type { Embedder } from '../node-kit/agent-services';
import { regexFind } from '../nodes/shared/regex';
import type { Score } from './score';
import { jsonSchemaProblem, scoreJsonSchema } from './json-schema-scorer';
import { scoreLlmJudge, scoreSimilarity, type JudgeFn } from './model-scorers';

export type { JudgeFn };

const name = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\s.]+$/, 'a scorer name has no spaces or dots');
const field = z.string().min(1).max(200).optional();
const fraction = z.number().min(0).max(1);

export const scorerSchema = z.discriminatedUnion('type', [
  z.strictObject({ name, type: z.literal('exact'), field, caseSensitive: z.boolean().default(false) }),
  z.strictObject({
    name,
    type: z.literal('contains'),
    field,
    /** The text the output must contain; default: the expectation. */
    value: z.string().min(1).max(10_000).optional(),
    caseSensitive: z.boolean().default(false),
  }),
  z.strictObject({ name, type: z.literal('regex'), field, pattern: z.string().min(1).max(2000) }),
  z.strictObject({
    name,
    type: z.literal('numeric'),
    field,
    /** Passes when |output − expected| ≤ tolerance (absolute); 0: equal. */
    tolerance: z.number().min(0).default(0),
  }),
  z.strictObject({ name, type: z.literal('latency'), maxMs: z.number().positive() }),
  z.strictObject({ name, type: z.literal('cost'), maxUsd: z.number().min(0) }),
  /** Cosine similarity of the output's and the expectation's embeddings (NFKC text); passes at `threshold`. */
  z.strictObject({ name, type: z.literal('similarity'), field, threshold: fraction.default(0.8) }),
  z.strictObject({
    name,
    type: z.literal('json_schema'),
    field,
    /** A JSON Schema (draft-07, or 2019-09 / 2020-12 named by `$schema`); refused here when it does not compile. */
    schema: z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
      const problem = jsonSchemaProblem(schema);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  }),
  z.strictObject({
    name,
    type: z.literal('retrieval'),
    /** The expectation's field holding the expected sources; default `sources`, or the expectation when a list. */
    field,
    k: z.number().int().min(1).max(100).default(5),
    metric: z.enum(['recall', 'mrr']).default('recall'),
    /** Passes at this score; default 1 for recall (every source found), 0.5 for MRR (first found at rank ≤ 2). */
    threshold: fraction.optional(),
  }),
  z.strictObject({
    name,
    type: z.literal('llm_judge'),
    field,
    rubric: z.string().trim().min(1).max(10_000),
    credentialId: z.string().min(1).max(200).optional(),
    model: z.string().trim().min(1).max(200),
    threshold: fraction.default(0.7),
  }),
]);
export type ScorerSpec = z.output<typeof scorerSchema>;
export const SCORER_TYPES = scorerSchema.options.map((o) => o.shape.type.value);

/** What a scorer looks at: one row's run. */
export interface ScoredRun {
  outputs: Record<string, unknown> | null;
  expected?: unknown;
  /** The row's inputs (shown to an `llm_judge`). */
  inputs?: Record<string, unknown>;
  durationMs: number | null;
  costUsd: number | null;
  /** The hits of the run's knowledge nodes, in rank order (for `retrieval`); absent: the run retrieved nothing. */
  retrieved?: Array<{ title: string; documentId: string | null }>;
}

export type { Score };

/** The services `score()` may use. */
export interface ScoreOptions {
  signal?: AbortSignal;
  embedder?: Embedder;
  judge?: JudgeFn;
}

/** The services a scorer needs, so the caller prepares only those. */
export function scorerNeeds(spec: ScorerSpec): { embedder?: true; judge?: true } {
  if (spec.type === 'similarity') return { embedder: true };
  if (spec.type === 'llm_judge') return { judge: true };
  return {};
}

/** Unicode NFKC, whitespace collapsed and trimmed, lower-cased unless case matters. */
export function normalizeText(text: string, caseSensitive = false): string {
  const folded = text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  return caseSensitive ? folded : folded.toLowerCase();
}

/** A value as text: strings as they are, everything else as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

function outputOf(run: ScoredRun, field: string | undefined): unknown {
  const outputs = run.outputs ?? {};
  const key = field ?? Object.keys(outputs)[0];
  return key === undefined ? undefined : outputs[key];
}

function expectationOf(run: ScoredRun, field: string | undefined): unknown {
  const e = run.expected;
  if (field && e !== null && typeof e === 'object' && !Array.isArray(e) && field in e)
    return (e as Record<string, unknown>)[field];
  return e;
}

const pass = (): Score => ({ score: 1, passed: true });
const fail = (reason: string, score = 0): Score => ({ score, passed: false, reason });
const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}…` : text);

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const cleaned = value.normalize('NFKC').replace(/[,\s]/g, '');
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned) ? Number(cleaned) : null;
}

/** The expected sources of a `retrieval` scorer: `expected[field]`, the expectation when a list, or its `sources`. */
function expectedSources(run: ScoredRun, field: string | undefined): string[] {
  const e = field ? expectationOf(run, field) : run.expected;
  const list = Array.isArray(e) ? e : e !== null && typeof e === 'object' ? (e as { sources?: unknown }).sources : e;
  const items = Array.isArray(list) ? list : typeof list === 'string' ? [list] : [];
  const sources = items.filter((x): x is string => typeof x === 'string').map((x) => x.trim());
  return [...new Set(sources.filter((x) => x !== ''))];
}

function scoreRetrieval(spec: Extract<ScorerSpec, { type: 'retrieval' }>, run: ScoredRun): Score {
  const sources = expectedSources(run, spec.field);
  if (sources.length === 0) return fail('the row has no expected sources');
  if (!run.retrieved) return fail('the run retrieved nothing (no knowledge node ran)');
  const top = run.retrieved.slice(0, spec.k);
  const matches = (source: string, hit: { title: string; documentId: string | null }) =>
    hit.documentId === source || normalizeText(hit.title) === normalizeText(source);
  const threshold = spec.threshold ?? (spec.metric === 'recall' ? 1 : 0.5);
  if (spec.metric === 'mrr') {
    const rank = top.findIndex((hit) => sources.some((s) => matches(s, hit))) + 1;
    const value = rank === 0 ? 0 : 1 / rank;
    if (value >= threshold) return { score: value, passed: true };
    return fail(
      rank === 0
        ? `no expected source among the first ${top.length} hits`
        : `the first expected source is at rank ${rank} (MRR ${value.toFixed(3)}, below ${threshold})`,
      value,
    );
  }
  const missing = sources.filter((s) => !top.some((hit) => matches(s, hit)));
  const value = (sources.length - missing.length) / sources.length;
  if (value >= threshold) return { score: value, passed: true };
  const found = sources.length - missing.length;
  const names = clip(missing.map((s) => `"${s}"`).join(', '));
  return fail(`${found} of ${sources.length} expected sources in the top ${spec.k}; missing ${names}`, value);
}

export async function score(spec: ScorerSpec, run: ScoredRun, opts: ScoreOptions = {}): Promise<Score> {
  switch (spec.type) {
    case 'exact': {
      const expected = expectationOf(run, spec.field);
      if (expected === undefined) return fail('the row has no expectation');
      const got = normalizeText(asText(outputOf(run, spec.field)), spec.caseSensitive);
      return got === normalizeText(asText(expected), spec.caseSensitive)
        ? pass()
        : fail(`"${clip(got)}" is not "${clip(normalizeText(asText(expected), spec.caseSensitive))}"`);
    }
    case 'contains': {
      const wanted = spec.value ?? expectationOf(run, spec.field);
      if (wanted === undefined) return fail('the row has no expectation and the scorer no value');
      const needle = normalizeText(asText(wanted), spec.caseSensitive);
      const got = normalizeText(asText(outputOf(run, spec.field)), spec.caseSensitive);
      return got.includes(needle) ? pass() : fail(`the output does not contain "${clip(needle)}"`);
    }
    case 'regex': {
      const got = asText(outputOf(run, spec.field)).normalize('NFKC');
      return (await regexFind(spec.pattern, got, opts)) ? pass() : fail(`the output does not match /${spec.pattern}/`);
    }
    case 'numeric': {
      const got = toNumber(outputOf(run, spec.field));
      const expected = toNumber(expectationOf(run, spec.field));
      if (expected === null) return fail('the expectation is not a number');
      if (got === null) return fail('the output is not a number');
      const diff = Math.abs(got - expected);
      if (diff <= spec.tolerance) return pass();
      // Partial credit falls off with the error relative to the expectation's size.
      const partial = Math.max(0, 1 - diff / Math.max(Math.abs(expected), spec.tolerance, 1e-9));
      return fail(`${got} is ${diff} away from ${expected} (tolerance ${spec.tolerance})`, partial);
    }
    case 'latency':
      if (run.durationMs === null) return fail('the run has no duration');
      return run.durationMs <= spec.maxMs ? pass() : fail(`took ${run.durationMs} ms, over ${spec.maxMs} ms`);
    case 'cost':
      if (run.costUsd === null) return fail('the run has no known cost (a model without a price)');
      return run.costUsd <= spec.maxUsd ? pass() : fail(`cost $${run.costUsd}, over $${spec.maxUsd}`);
    case 'similarity': {
      const expected = expectationOf(run, spec.field);
      if (expected === undefined) return fail('the row has no expectation');
      const output = asText(outputOf(run, spec.field));
      const texts = {
        output: normalizeText(output, true),
        expected: normalizeText(asText(expected), true),
        same: normalizeText(output) === normalizeText(asText(expected)),
      };
      return scoreSimilarity(texts, spec.threshold, opts.embedder);
    }
    case 'json_schema':
      return scoreJsonSchema(spec.schema, outputOf(run, spec.field), opts);
    case 'retrieval':
      return scoreRetrieval(spec, run);
    case 'llm_judge': {
      const row = { inputs: run.inputs, expected: expectationOf(run, spec.field), output: outputOf(run, spec.field) };
      return scoreLlmJudge(spec, row, opts.judge, opts.signal);
    }
  }
}

/** Scorer names are the summary's keys: two scorers may not share one. */
export function checkScorerNames(specs: ScorerSpec[]): void {
  const seen = new Set<string>();
  specs.forEach((s, i) => {
    if (seen.has(s.name))
      throw new PaiError('VALIDATION_ERROR', `two scorers are named "${s.name}"`, { path: `scorers[${i}].name` });
    seen.add(s.name);
  });
}
