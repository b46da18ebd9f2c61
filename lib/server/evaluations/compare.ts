/**
 * Comparing two evaluations (GET /api/evaluations/compare?a=&b=): per scorer both means and the difference (b − a),
 * and per row whether b did better, worse or the same — the mean difference of its scores over the scorers both
 * have. Rows are paired by their inputs (so two versions of a dataset still pair the rows they share); a row only one
 * side has is `added` (b) or `removed` (a). Changed rows come first: worse, then better, then the rest.
 */
import type { EvaluationRecord, EvaluationRowRecord } from '@/engine/store/evaluations';
import type { App } from '../app-types';
import { presentEvaluation, presentRow } from './evaluations';
import { scorerSummary, summarize } from './summary';

type Change = 'worse' | 'better' | 'same' | 'added' | 'removed';
const ORDER: Record<Change, number> = { worse: 0, better: 1, added: 2, removed: 3, same: 4 };
const EPSILON = 1e-9;

/** JSON with sorted keys: the same inputs give the same text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function rowDelta(a: EvaluationRowRecord, b: EvaluationRowRecord, names: string[]): number | null {
  const diffs = names.filter((n) => a.scores?.[n] && b.scores?.[n]).map((n) => b.scores![n].score - a.scores![n].score);
  return diffs.length ? diffs.reduce((x, y) => x + y, 0) / diffs.length : null;
}

export async function compareEvaluations(app: App, a: EvaluationRecord, b: EvaluationRecord) {
  const [rowsA, rowsB] = await Promise.all([app.stores.evaluations.rows(a.id), app.stores.evaluations.rows(b.id)]);
  const summaryA = summarize(a.scorers, rowsA);
  const summaryB = summarize(b.scorers, rowsB);
  const names = a.scorers.map((s) => s.name).filter((n) => b.scorers.some((s) => s.name === n));
  const scorers = Object.fromEntries(
    names.map((n) => {
      const meanA = scorerSummary(summaryA, n)?.mean ?? null;
      const meanB = scorerSummary(summaryB, n)?.mean ?? null;
      const diff = meanA === null || meanB === null ? null : Math.round((meanB - meanA) * 1e4) / 1e4;
      return [n, { a: meanA, b: meanB, diff }];
    }),
  );

  const unpaired = new Map<string, EvaluationRowRecord[]>();
  for (const r of rowsA) unpaired.set(canonical(r.inputs), [...(unpaired.get(canonical(r.inputs)) ?? []), r]);
  const rows: Array<{
    index: number;
    inputs: Record<string, unknown>;
    expected: unknown;
    change: Change;
    delta: number | null;
    a: ReturnType<typeof presentRow> | null;
    b: ReturnType<typeof presentRow> | null;
  }> = [];
  for (const rb of rowsB) {
    const ra = unpaired.get(canonical(rb.inputs))?.shift();
    const delta = ra ? rowDelta(ra, rb, names) : null;
    const change: Change = !ra
      ? 'added'
      : delta === null || Math.abs(delta) <= EPSILON
        ? 'same'
        : delta > 0
          ? 'better'
          : 'worse';
    rows.push({
      index: rb.index,
      inputs: rb.inputs,
      expected: rb.expected ?? null,
      change,
      delta: delta === null ? null : Math.round(delta * 1e4) / 1e4,
      a: ra ? presentRow(ra) : null,
      b: presentRow(rb),
    });
  }
  for (const left of unpaired.values())
    for (const ra of left)
      rows.push({
        index: ra.index,
        inputs: ra.inputs,
        expected: ra.expected ?? null,
        change: 'removed',
        delta: null,
        a: presentRow(ra),
        b: null,
      });
  rows.sort((x, y) => ORDER[x.change] - ORDER[y.change] || x.index - y.index);
  const counts = { better: 0, worse: 0, same: 0, added: 0, removed: 0 };
  for (const r of rows) counts[r.change]++;

  return {
    a: presentEvaluation(a, rowsA, false),
    b: presentEvaluation(b, rowsB, false),
    scorers,
    counts,
    rows,
  };
}
