/**
 * How the Evaluate tab writes its numbers: a share as a percent with at most one decimal (0.625 → "62.5%"), a score,
 * a difference of means in percentage points, a duration as the rest of the run view does (ui/status.tsx); a missing
 * number is "—". Costs are written by run/run-cost.ts's formatUsd, as everywhere else. The same in both languages.
 */
import { formatDuration } from '@/components/ui/status';

export const NONE = '—';

const trimmed = (n: number, digits: number) => String(Number(n.toFixed(digits)));

/** 0.625 → "62.5%", 1 → "100%", null → "—". */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return NONE;
  return `${trimmed(share * 100, 1)}%`;
}

/** A score in 0–1 with at most three decimals: 1 → "1", 0.6667 → "0.667". */
export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined || !Number.isFinite(score)) return NONE;
  return trimmed(score, 3);
}

/** A signed difference of means as percentage points: 0.375 → "+37.5 pt", -0.1 → "−10 pt", 0 → "±0 pt". */
export function formatDiff(diff: number | null | undefined): string {
  if (diff === null || diff === undefined || !Number.isFinite(diff)) return NONE;
  const pt = trimmed(Math.abs(diff) * 100, 1);
  if (pt === '0') return '±0 pt';
  return `${diff > 0 ? '+' : '−'}${pt} pt`;
}

/** 850 → "850 ms", 1234 → "1.23 s" (ui/status.tsx's formatDuration), null → "—". */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NONE;
  return formatDuration(ms);
}

/** A value of a row (inputs, outputs, expectation) on one line: text as it is, anything else as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return NONE;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
