// Guarantees of time travel's plan (engine/runtime/run-checkpoints.ts), which both engines share: a run's
// checkpoints are its succeeded nodes in the order they finished (failed and skipped nodes are none); a fork reuses
// the steps up to its checkpoint and nothing a later step leads to — parallel branches that finished later run again,
// and a node on a loop with a later step runs again with its loop, so it cannot be edited.
import { describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { checkpointsOf, planFork } from '@/engine/runtime/run-checkpoints';
import type { NodeRunRecord } from '@/engine/store/types';

const n = (id: string, type = 'template') => ({ id, type, position: { x: 0, y: 0 }, data: { label: id, config: {} } });
const e = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

/** Snapshots finishing in the given order, one second apart; `failed` and `skipped` ones are named by status. */
function snapshots(order: string[], other: Record<string, 'failed' | 'skipped'> = {}): NodeRunRecord[] {
  return [...order, ...Object.keys(other)].map((nodeId, i) => ({
    runId: 'run_1',
    nodeId,
    type: 'template',
    status: other[nodeId] ?? 'succeeded',
    attempt: 1,
    input: { of: nodeId },
    output: { text: nodeId },
    error: null,
    usage: null,
    startedAt: new Date(Date.UTC(2026, 11, 5, 12, 0, i)).toISOString(),
    finishedAt: new Date(Date.UTC(2026, 11, 5, 12, 0, i, 500)).toISOString(),
    durationMs: 500,
  }));
}

/** start → x, start → y, x + y → join → end, and a failed and a skipped node beside them. */
const branches = {
  nodes: [n('start', 'start'), n('x'), n('y'), n('join'), n('end', 'end'), n('broken'), n('unused')],
  edges: [e('start', 'x'), e('start', 'y'), e('x', 'join'), e('y', 'join'), e('join', 'end')],
} as unknown as Graph;

/** start → a → b → c → b (a loop) and c → end. */
const loop = {
  nodes: [n('start', 'start'), n('a'), n('b'), n('c'), n('end', 'end')],
  edges: [e('start', 'a'), e('a', 'b'), e('b', 'c'), e('c', 'b'), e('c', 'end')],
} as unknown as Graph;

describe('a fork reuses the steps before its checkpoint', () => {
  it('lists succeeded nodes in the order they finished, not failed or skipped ones', () => {
    const runs = snapshots(['start', 'y', 'x', 'join', 'end'], { broken: 'failed', unused: 'skipped' });
    expect(checkpointsOf(branches, runs).map((c) => `${c.step}:${c.nodeId}`)).toEqual([
      '1:start',
      '2:y',
      '3:x',
      '4:join',
      '5:end',
    ]);
  });

  it('runs a branch that finished after the checkpoint again, and seeds the edited output', () => {
    const plan = planFork(branches, snapshots(['start', 'y', 'x', 'join', 'end']), {
      sourceRunId: 'run_1',
      checkpointId: 'y',
      state: { y: { text: 'edited' } },
    });
    expect(plan.checkpoint.step).toBe(2);
    expect(plan.seeds.map((s) => [s.nodeId, s.output, s.input])).toEqual([
      ['start', { text: 'start' }, { of: 'start' }],
      ['y', { text: 'edited' }, { of: 'y' }],
    ]);
    expect(plan.seeds[1].note).toEqual({ forkedFrom: { runId: 'run_1', checkpointId: 'y' }, edited: true });
  });

  it('runs a loop again whole when a later step is on it, and refuses an edit of its nodes', () => {
    const runs = snapshots(['start', 'a', 'b', 'c', 'end']);
    expect(planFork(loop, runs, { sourceRunId: 'run_1', checkpointId: 'b' }).seeds.map((s) => s.nodeId)).toEqual([
      'start',
      'a',
    ]);
    expect(() => planFork(loop, runs, { sourceRunId: 'run_1', checkpointId: 'b', state: { b: 1 } })).toThrow(
      expect.objectContaining({ code: 'FORK_STATE_NOT_AT_CHECKPOINT', path: 'state.b' }),
    );
    expect(() => planFork(loop, runs, { sourceRunId: 'run_1', checkpointId: 'nowhere' })).toThrow(
      expect.objectContaining({ code: 'CHECKPOINT_NOT_FOUND', path: 'checkpointId' }),
    );
  });
});
