// Guarantees: the run panel's header total is the run's own stated total once it has one, else the sum of its nodes'
// usage so far, unknown (null) as soon as one node's price is, and nothing at all for a run without LLM work.
import { describe, expect, it, vi } from 'vitest';
import { applyEvents, EMPTY_RUN } from './run-store';
import { formatUsd, runTotal, runUsageOf, sumUsage } from './run-cost';
import type { TraceEvent } from '@/components/api/types';

vi.mock('@/components/lib/i18n', () => import('../i18n-test-double'));

const ev = (seq: number, type: string, data: Record<string, unknown>, nodeId?: string): TraceEvent =>
  ({
    seq,
    runId: 'r1',
    ts: new Date(1_000 + seq).toISOString(),
    type,
    nodeId,
    spanId: `s${nodeId ?? 'run'}`,
    data,
  }) as TraceEvent;

describe('the run total in the run panel header', () => {
  it('sums the nodes while the run runs, then shows the end event’s total', () => {
    const start = { ...EMPTY_RUN, runId: 'r1', nodes: new Map() };
    let s = applyEvents(start, [
      ev(1, 'run.started', { engine: 'dag' }),
      ev(2, 'node.started', { type: 'llm' }, 'a'),
      ev(3, 'node.succeeded', { output: {}, usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.0012 } }, 'a'),
      ev(4, 'node.started', { type: 'llm' }, 'b'),
      ev(5, 'node.succeeded', { output: {}, usage: { inputTokens: 50, outputTokens: 5, costUsd: 0.0003 } }, 'b'),
    ]);
    expect(runTotal(s)).toEqual({ inputTokens: 150, outputTokens: 15, costUsd: 0.0015 });
    s = applyEvents(s, [
      ev(6, 'run.succeeded', {
        outputs: {},
        costUsd: 0.002,
        usage: { inputTokens: 160, outputTokens: 16, costUsd: 0.002 },
      }),
    ]);
    // The run's own figure wins (it also counts nodes this view never saw, e.g. reused ones).
    expect(runTotal(s)).toEqual({ inputTokens: 160, outputTokens: 16, costUsd: 0.002 });
    // A resume starts summing again.
    s = applyEvents(s, [ev(7, 'run.started', { resumed: true, reused: ['a', 'b'] })]);
    expect(s.usage).toBeNull();
  });

  it('one node without a price makes the total unknown, not the known part', () => {
    expect(
      sumUsage([
        { inputTokens: 10, outputTokens: 1, costUsd: 0.5 },
        { inputTokens: 20, outputTokens: 2, costUsd: null },
      ]),
    ).toEqual({ inputTokens: 30, outputTokens: 3, costUsd: null });
    expect(sumUsage([{ inputTokens: 20, outputTokens: 2 }])!.costUsd).toBeNull(); // no cost stated: unknown
  });

  it('a run without LLM work has no total; a stored run from before costs is summed from its nodes', () => {
    expect(sumUsage([null, undefined, null])).toBeNull();
    expect(runUsageOf({ inputTokens: 5, outputTokens: 1 })).toBeNull();
    expect(runUsageOf({ inputTokens: 5, outputTokens: 1, costUsd: null })).toEqual({
      inputTokens: 5,
      outputTokens: 1,
      costUsd: null,
    });
  });

  it('formats dollars to a readable precision', () => {
    expect(formatUsd(null)).toBe('price unknown');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.00034)).toBe('$0.00034');
    expect(formatUsd(1.23456)).toBe('$1.2346');
  });
});
