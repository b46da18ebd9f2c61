/**
 * Evaluation scorers (issue 36) that need nothing but a row's run: `exact`, `contains`, `regex`, `numeric`, `latency`
 * and `cost`. Each reads one End output (`field`, default the first) against the row's expectation — the whole
 * `expected`, or `expected[field]` when the expectation is an object with that field — and answers a score in 0–1,
 * whether it passed, and why when it did not.
 *
 * Text is compared after Unicode NFKC folding (full-width letters, digits and punctuation such as `，` `：` `１`
 * become their plain forms), trimming and collapsing whitespace, and, unless `caseSensitive`, lower-casing: a Chinese
 * answer that differs from the expectation only in full-width punctuation or spacing still matches.
 */
import { z } from 'zod';
import { PaiError } from '../errors';
import { regexFind } from '../nodes/shared/regex';

const name = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\s.]+$/, 'a scorer name has no spaces or dots');
const field = z.string().min(1).max(200).optional();

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
]);
export type ScorerSpec = z.output<typeof scorerSchema>;
export const SCORER_TYPES = scorerSchema.options.map((o) => o.shape.type.value);

/** What a scorer looks at: one row's run. */
export interface ScoredRun {
  outputs: Record<string, unknown> | null;
  expected?: unknown;
  durationMs: number | null;
  costUsd: number | null;
}

export interface Score {
  score: number;
  passed: boolean;
  reason?: string;
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

export async function score(spec: ScorerSpec, run: ScoredRun, opts: { signal?: AbortSignal } = {}): Promise<Score> {
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
