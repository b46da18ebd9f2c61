/**
 * An evaluation's summary: per scorer the mean score and the share of rows that passed, over the rows that have
 * scores (a row whose run failed or could not start scores 0 on every scorer, so it counts); the rows' total cost
 * (runs plus judges; `unknownCostRows` counts rows priced by a model without a known price, left out of the sum); and
 * the run duration's 50th and 95th percentiles.
 */
import type { EvaluationRecord, EvaluationRowRecord } from '@/engine/store/evaluations';

/** Keys of the summary beside the scorers' names: no scorer may take one of them. */
export const SUMMARY_KEYS = ['costUsd', 'unknownCostRows', 'p50Ms', 'p95Ms', 'scored'] as const;

export interface ScorerSummary {
  mean: number | null;
  passRate: number | null;
}

export type EvaluationSummary = Record<string, ScorerSummary | number | null>;

const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The nearest-rank percentile of sorted numbers; null for none. */
export function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarize(scorers: EvaluationRecord['scorers'], rows: EvaluationRowRecord[]): EvaluationSummary {
  const summary: EvaluationSummary = {};
  const scored = rows.filter((r) => r.scores);
  for (const { name } of scorers) {
    const scores = scored.map((r) => r.scores![name]).filter(Boolean);
    summary[name] = scores.length
      ? {
          mean: round(scores.reduce((a, s) => a + s.score, 0) / scores.length),
          passRate: round(scores.filter((s) => s.passed).length / scores.length),
        }
      : { mean: null, passRate: null };
  }
  const ended = rows.filter((r) => r.status === 'scored' || r.status === 'failed');
  summary.costUsd = round(
    ended.reduce((a, r) => a + (r.costUsd ?? 0), 0),
    10,
  );
  summary.unknownCostRows = ended.filter((r) => r.status === 'scored' && r.costUsd === null).length;
  const durations = ended
    .map((r) => r.durationMs)
    .filter((d): d is number => d !== null)
    .sort((a, b) => a - b);
  summary.p50Ms = percentile(durations, 50);
  summary.p95Ms = percentile(durations, 95);
  summary.scored = scored.length;
  return summary;
}

/** A scorer's `{ mean, passRate }` of a summary (null when the summary has no such scorer). */
export function scorerSummary(summary: EvaluationSummary, name: string): ScorerSummary | null {
  const s = summary[name];
  return s && typeof s === 'object' ? s : null;
}
