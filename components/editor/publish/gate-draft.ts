/**
 * The publish gate's form as the user edits it, and the `gate` body it becomes (PATCH /api/workflows/:id/publish).
 * Scorers are edited with the Evaluate tab's scorer form (evaluate/scorer-drafts.ts); each scorer gets a minimum
 * mean and a largest allowed drop, either of which may be left empty. What only the server can judge (a RE2
 * pattern, the dataset) is left to it: its 400 names the path.
 */
import {
  freeName,
  newScorerDraft,
  scorerBody,
  scorerDraftOf,
  type DraftError,
  type ScorerDraft,
} from '../evaluate/scorer-drafts';
import type { PublishGate, ScorerBody } from './publish-api';

export interface GateDraft {
  datasetId: string;
  scorers: ScorerDraft[];
  /** Per scorer (its draft's `key`, so a rename keeps them), as typed: "" means no such rule for that scorer. */
  minMean: Record<number, string>;
  maxDrop: Record<number, string>;
}

/** A problem the form shows before sending: a message key of `publish.gate` and the field it is about. */
export interface DraftProblem {
  key: 'datasetMissing' | 'scorersMissing' | 'scorerInvalid' | 'limitNotFraction' | 'noLimit';
  path: string;
  values?: Record<string, string>;
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

/**
 * The form for a stored gate, or for a new one: `exact` on `field` (the End output a new scorer reads, see
 * defaultOutput in evaluate/scorer-drafts.ts), mean at least 0.8.
 */
export function draftOf(gate: PublishGate | null | undefined, field: string): GateDraft {
  if (gate) {
    const scorers = gate.scorers.map(scorerDraftOf);
    const limits = (rule: Record<string, number> | undefined) =>
      Object.fromEntries(scorers.map((s) => [s.key, text(rule?.[s.name])]));
    return { datasetId: gate.datasetId, scorers, minMean: limits(gate.minMean), maxDrop: limits(gate.maxDrop) };
  }
  const scorer = newScorerDraft('exact', field);
  return { datasetId: '', scorers: [scorer], minMean: { [scorer.key]: '0.8' }, maxDrop: {} };
}

/** The draft with one more `exact` scorer on `field`, under a name no scorer has yet, and no limits. */
export function withScorerAdded(draft: GateDraft, field: string): GateDraft {
  const name = freeName(
    'exact',
    draft.scorers.map((s) => s.name),
  );
  return { ...draft, scorers: [...draft.scorers, { ...newScorerDraft('exact', field), name }] };
}

/** The draft without scorer `key` and its limits. */
export function withScorerRemoved(draft: GateDraft, key: number): GateDraft {
  const drop = (r: Record<number, string>) => Object.fromEntries(Object.entries(r).filter(([k]) => Number(k) !== key));
  return {
    ...draft,
    scorers: draft.scorers.filter((s) => s.key !== key),
    minMean: drop(draft.minMean),
    maxDrop: drop(draft.maxDrop),
  };
}

/** A limit as typed: undefined when empty, NaN when not a number from 0 to 1. */
function limitOf(typed: string | undefined): number | undefined {
  const t = (typed ?? '').trim();
  if (!t) return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : NaN;
}

/** The scorers' bodies, or every mistake in them (shown under their inputs, as in the Evaluate form). */
function scorersOf(drafts: ScorerDraft[]): { scorers: ScorerBody[]; errors: DraftError[] } {
  const errors: DraftError[] = [];
  const scorers: ScorerBody[] = [];
  const seen = new Set<string>();
  drafts.forEach((d, i) => {
    const one = scorerBody(d, i);
    errors.push(...one.errors);
    if (one.body) scorers.push(one.body);
    const name = d.name.trim();
    if (name && seen.has(name)) errors.push({ key: 'nameDuplicate', option: 'name', index: i });
    seen.add(name);
  });
  return { scorers, errors };
}

/** The gate body of a draft, or the first problem to fix (and each scorer's mistakes, to show under its inputs). */
export function gateOf(
  draft: GateDraft,
): { gate: PublishGate } | { problem: DraftProblem; scorerErrors: DraftError[] } {
  const fail = (problem: DraftProblem, scorerErrors: DraftError[] = []) => ({ problem, scorerErrors });
  if (!draft.datasetId) return fail({ key: 'datasetMissing', path: 'datasetId' });
  if (!draft.scorers.length) return fail({ key: 'scorersMissing', path: 'scorers' });
  const { scorers, errors } = scorersOf(draft.scorers);
  if (errors.length) {
    const first = errors[0];
    const name = draft.scorers[first.index ?? 0]?.name.trim() || String((first.index ?? 0) + 1);
    return fail({ key: 'scorerInvalid', path: `scorers.${first.index}.${first.option}`, values: { name } }, errors);
  }
  const minMean: Record<string, number> = {};
  const maxDrop: Record<string, number> = {};
  for (const [i, { name }] of scorers.entries())
    for (const [rule, typed, into] of [
      ['minMean', draft.minMean[draft.scorers[i].key], minMean],
      ['maxDrop', draft.maxDrop[draft.scorers[i].key], maxDrop],
    ] as const) {
      const limit = limitOf(typed);
      if (Number.isNaN(limit)) return fail({ key: 'limitNotFraction', path: `${rule}.${name}`, values: { name } });
      if (limit !== undefined) into[name] = limit;
    }
  if (!Object.keys(minMean).length && !Object.keys(maxDrop).length) return fail({ key: 'noLimit', path: 'minMean' });
  return {
    gate: {
      datasetId: draft.datasetId,
      scorers,
      ...(Object.keys(minMean).length ? { minMean } : {}),
      ...(Object.keys(maxDrop).length ? { maxDrop } : {}),
    },
  };
}
