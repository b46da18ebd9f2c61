/** Readers for a trace event's untyped `data`, as the timeline model uses them (numbers, strings, usage, errors). */
import type { BarUsage } from './timeline-types';

export type Data = Record<string, unknown>;

export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export function usageOf(v: unknown): BarUsage | null {
  if (!v || typeof v !== 'object') return null;
  const u = v as Data;
  const out: BarUsage = {};
  if (num(u.inputTokens) !== undefined) out.inputTokens = num(u.inputTokens);
  if (num(u.outputTokens) !== undefined) out.outputTokens = num(u.outputTokens);
  if (u.costUsd === null || num(u.costUsd) !== undefined) out.costUsd = u.costUsd as number | null;
  return Object.keys(out).length ? out : null;
}

export function errorText(v: unknown): string | undefined {
  if (!v) return undefined;
  if (typeof v === 'string') return v;
  const e = v as { code?: unknown; message?: unknown };
  return [str(e.code), str(e.message)].filter(Boolean).join(': ') || undefined;
}
