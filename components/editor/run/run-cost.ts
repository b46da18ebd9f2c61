/**
 * The shown run's total tokens and cost, for the run panel's header. A finished run states its own total (the end
 * event's `usage`, or GET /api/runs/:id's); until then it is the sum of the nodes' usage seen so far, by the rule of
 * engine/llm/prices.ts: a node without a known price makes the total unknown (null), never a partial figure.
 */
import { tr } from '@/components/lib/i18n';
import type { RunState, RunUsage } from './run-state';

type NodeUsage = { inputTokens?: number; outputTokens?: number; costUsd?: number | null } | null | undefined;

const round = (usd: number) => Math.round(usd * 1e10) / 1e10;

/** The sum of node usages; null when no node did LLM work (nothing to show). */
export function sumUsage(usages: Iterable<NodeUsage>): RunUsage | null {
  let seen = false;
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | null = 0;
  for (const u of usages) {
    if (!u) continue;
    seen = true;
    inputTokens += u.inputTokens ?? 0;
    outputTokens += u.outputTokens ?? 0;
    costUsd = costUsd === null || typeof u.costUsd !== 'number' ? null : round(costUsd + u.costUsd);
  }
  return seen ? { inputTokens, outputTokens, costUsd } : null;
}

/** What the header shows: the run's stated total once it has one, else its nodes' so far. */
export function runTotal(run: Pick<RunState, 'usage' | 'nodes'>): RunUsage | null {
  return run.usage ?? sumUsage([...run.nodes.values()].map((n) => n.usage as NodeUsage));
}

/** `$0.0012`, `$0.00034` below a cent, `$0`, and `price unknown` for null. */
export function formatUsd(costUsd: number | null): string {
  if (costUsd === null) return tr('run.cost.priceUnknown');
  if (costUsd === 0) return '$0';
  return costUsd < 0.01 ? `$${costUsd.toFixed(5)}` : `$${costUsd.toFixed(4)}`;
}

/** The run's usage from an end event's data or a run view: `{ inputTokens, outputTokens, costUsd }`, else null. */
export function runUsageOf(v: unknown): RunUsage | null {
  if (!v || typeof v !== 'object') return null;
  const u = v as Record<string, unknown>;
  const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
  if (!('costUsd' in u)) return null; // a run stored before costs existed: the header sums its nodes instead
  return {
    inputTokens: n(u.inputTokens),
    outputTokens: n(u.outputTokens),
    costUsd: typeof u.costUsd === 'number' ? u.costUsd : null,
  };
}

/** Did the offline demo model answer any node of the run (its usage says `demo`)? Then the run view says so. */
export function usedDemoModel(run: Pick<RunState, 'nodes'>): boolean {
  for (const n of run.nodes.values()) if (n.usage?.demo) return true;
  return false;
}
