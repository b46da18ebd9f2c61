// Guarantees: a node recorded without executing — a pinned output, a single-node run's upstream value, or a forked
// run's reused step (edited or not) — gets its
// own row in the run panel's trace, succeeded with its value, saying why it did not run; an executed node's progress
// notes still land on its own row.
import { describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '@/components/api/types';
import { applyEvents, EMPTY_RUN } from './run-store';

vi.mock('@/components/lib/i18n', () => import('../i18n-test-double'));

const ev = (seq: number, type: string, data: Record<string, unknown>, nodeId?: string, spanId = `s-${nodeId}`) =>
  ({ seq, runId: 'r1', ts: new Date(1_000 + seq).toISOString(), type, nodeId, spanId, data }) as TraceEvent;

describe('seeded nodes in the trace', () => {
  it('a pinned node and a seeded upstream each get a succeeded row with the reason', () => {
    const s = applyEvents({ ...EMPTY_RUN, runId: 'r1', nodes: new Map() }, [
      ev(1, 'run.started', { engine: 'dag' }, undefined, 'run'),
      ev(2, 'node.progress', { pinned: true, at: null }, 't1'),
      ev(
        3,
        'node.succeeded',
        { type: 'template', attempt: 0, durationMs: 0, output: { text: 'pin' }, pinned: true },
        't1',
      ),
      ev(4, 'node.progress', { seeded: 'upstream' }, 'u1'),
      ev(
        5,
        'node.succeeded',
        { type: 'llm', attempt: 0, durationMs: 0, output: { text: 'up' }, seeded: 'upstream' },
        'u1',
      ),
      ev(6, 'node.started', { type: 'template' }, 't2'),
      ev(7, 'node.progress', { note: 'working' }, 't2'),
      ev(8, 'node.succeeded', { type: 'template', attempt: 1, durationMs: 1, output: { text: 'ran' } }, 't2'),
    ]);
    const rows = s.spans.filter((sp) => sp.kind === 'node');
    expect(rows.map((r) => [r.nodeId, r.type, r.status, r.attempt])).toEqual([
      ['t1', 'template', 'succeeded', 0],
      ['u1', 'llm', 'succeeded', 0],
      ['t2', 'template', 'succeeded', 1],
    ]);
    expect(rows[0].output).toEqual({ text: 'pin' });
    expect(rows[0].notes).toEqual(['Pinned output reused: the node was not executed']);
    expect(rows[1].notes).toEqual(['Value from the given upstream: the node was not executed']);
    expect(rows[2].notes).toEqual([JSON.stringify({ note: 'working' })]);
  });

  it('a forked run’s reused steps each get a succeeded row saying where they came from', () => {
    const fork = { forkedFrom: { runId: 'r0', checkpointId: 'review' } };
    const s = applyEvents({ ...EMPTY_RUN, runId: 'r1', nodes: new Map() }, [
      ev(1, 'run.started', { engine: 'langgraph' }, undefined, 'run'),
      ev(2, 'node.progress', fork, 'draft'),
      ev(3, 'node.succeeded', { type: 'template', attempt: 0, output: { text: 'd' }, ...fork }, 'draft'),
      ev(4, 'node.progress', { ...fork, edited: true }, 'review'),
      ev(5, 'node.succeeded', { type: 'template', attempt: 0, output: { text: 'r' }, ...fork, edited: true }, 'review'),
    ]);
    const rows = s.spans.filter((sp) => sp.kind === 'node');
    expect(rows.map((r) => [r.nodeId, r.status, r.attempt])).toEqual([
      ['draft', 'succeeded', 0],
      ['review', 'succeeded', 0],
    ]);
    expect(rows.map((r) => r.notes)).toEqual([
      ['Reused from the run this one forked from at “review”: the node was not executed'],
      ['Edited when forking at “review”: the node was not executed'],
    ]);
  });
});
