/**
 * The publish gate's form as the user edits it, and the `gate` body it becomes (PATCH /api/workflows/:id/publish).
 * Scorers are edited as JSON (the same `{ name, type, field?, …options }` as an evaluation's); each scorer gets a
 * minimum mean and a largest allowed drop, either of which may be left empty. What only the server can judge (a
 * scorer's type and options, the dataset) is left to it: its 400 names the path.
 */
import type { PublishGate, ScorerBody } from './publish-api';

export interface GateDraft {
  datasetId: string;
  scorersText: string;
  /** Per scorer name, as typed: "" means no such rule for that scorer. */
  minMean: Record<string, string>;
  maxDrop: Record<string, string>;
}

/** A problem the form shows before sending: a message key of `publish.gate` and the field it is about. */
export interface DraftProblem {
  key: 'datasetMissing' | 'scorersNotJson' | 'scorersNotList' | 'scorerUnnamed' | 'limitNotFraction' | 'noLimit';
  path: string;
  values?: Record<string, string>;
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

/** The form for a stored gate, or for a new one: `exact` on the workflow's first End output, mean at least 0.8. */
export function draftOf(gate: PublishGate | null | undefined, firstOutput: string | null): GateDraft {
  if (gate) {
    const names = gate.scorers.map((s) => s.name);
    return {
      datasetId: gate.datasetId,
      scorersText: JSON.stringify(gate.scorers, null, 2),
      minMean: Object.fromEntries(names.map((n) => [n, text(gate.minMean?.[n])])),
      maxDrop: Object.fromEntries(names.map((n) => [n, text(gate.maxDrop?.[n])])),
    };
  }
  const name = firstOutput ?? 'output';
  const scorer: ScorerBody = { name, type: 'exact', ...(firstOutput ? { field: firstOutput } : {}) };
  return { datasetId: '', scorersText: JSON.stringify([scorer], null, 2), minMean: { [name]: '0.8' }, maxDrop: {} };
}

/** The scorers of the JSON text, or a problem. */
function parseScorers(scorersText: string): ScorerBody[] | DraftProblem {
  let value: unknown;
  try {
    value = JSON.parse(scorersText);
  } catch (e) {
    return { key: 'scorersNotJson', path: 'scorers', values: { reason: (e as Error).message } };
  }
  if (!Array.isArray(value) || !value.length || value.some((s) => !s || typeof s !== 'object' || Array.isArray(s)))
    return { key: 'scorersNotList', path: 'scorers' };
  const unnamed = value.findIndex((s) => typeof s.name !== 'string' || !s.name.trim());
  if (unnamed >= 0) return { key: 'scorerUnnamed', path: `scorers.${unnamed}.name` };
  return value as ScorerBody[];
}

/** The scorer names the threshold rows are for: those of the JSON as typed, none while it does not parse. */
export function scorerNamesOf(scorersText: string): string[] {
  const parsed = parseScorers(scorersText);
  return Array.isArray(parsed) ? [...new Set(parsed.map((s) => s.name))] : [];
}

/** A limit as typed: undefined when empty, NaN when not a number from 0 to 1. */
function limitOf(typed: string | undefined): number | undefined {
  const t = (typed ?? '').trim();
  if (!t) return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : NaN;
}

/** The gate body of a draft, or the first problem to fix. */
export function gateOf(draft: GateDraft): { gate: PublishGate } | { problem: DraftProblem } {
  if (!draft.datasetId) return { problem: { key: 'datasetMissing', path: 'datasetId' } };
  const scorers = parseScorers(draft.scorersText);
  if (!Array.isArray(scorers)) return { problem: scorers };
  const minMean: Record<string, number> = {};
  const maxDrop: Record<string, number> = {};
  for (const { name } of scorers)
    for (const [rule, typed, into] of [
      ['minMean', draft.minMean[name], minMean],
      ['maxDrop', draft.maxDrop[name], maxDrop],
    ] as const) {
      const limit = limitOf(typed);
      if (Number.isNaN(limit))
        return { problem: { key: 'limitNotFraction', path: `${rule}.${name}`, values: { name } } };
      if (limit !== undefined) into[name] = limit;
    }
  if (!Object.keys(minMean).length && !Object.keys(maxDrop).length)
    return { problem: { key: 'noLimit', path: 'minMean' } };
  return {
    gate: {
      datasetId: draft.datasetId,
      scorers,
      ...(Object.keys(minMean).length ? { minMean } : {}),
      ...(Object.keys(maxDrop).length ? { maxDrop } : {}),
    },
  };
}
