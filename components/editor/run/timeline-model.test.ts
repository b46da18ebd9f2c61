/**
 * The run timeline shows one bar per span under its parent span, tells retries, loop iterations and waits apart
 * from plain node runs, measures open spans up to "now", and folds a live stream incrementally (touching only the
 * bars an event names).
 */
import { describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '@/components/api/types';
import { buildTimeline, TimelineModel } from './timeline-model';

vi.mock('@/components/lib/i18n', () => import('../i18n-test-double'));

const T0 = Date.parse('2026-12-01T10:00:00.000Z');

function recorder() {
  let seq = 0;
  return (
    type: string,
    at: number,
    opts: { nodeId?: string; span?: string; parent?: string; data?: Record<string, unknown> } = {},
  ): TraceEvent => ({
    seq: ++seq,
    runId: 'r1',
    ts: new Date(T0 + at).toISOString(),
    type: type as TraceEvent['type'],
    nodeId: opts.nodeId,
    spanId: opts.span ?? (opts.nodeId ? `s-${opts.nodeId}` : 'run'),
    parentSpanId: opts.parent ?? (opts.nodeId ? 'run' : undefined),
    data: opts.data ?? {},
  });
}

describe('timeline model', () => {
  it('one bar per span: nodes, agent rounds under their node, tool calls under their round, retrieval', () => {
    const ev = recorder();
    const tl = buildTimeline([
      ev('run.started', 0),
      ev('node.started', 0, { nodeId: 'kb', data: { type: 'knowledge', attempt: 1 } }),
      ev('retrieval.hits', 30, { nodeId: 'kb', data: { query: 'refund', hits: [{}, {}] } }),
      ev('node.succeeded', 31, { nodeId: 'kb', data: { durationMs: 31 } }),
      ev('node.started', 40, { nodeId: 'agent', data: { type: 'agent', attempt: 1 } }),
      ev('agent.step', 140, {
        nodeId: 'agent',
        span: 'round1',
        parent: 's-agent',
        data: {
          round: 1,
          title: 'round 1',
          durationMs: 100,
          usage: { inputTokens: 50, outputTokens: 7, costUsd: 0.001 },
        },
      }),
      ev('tool.called', 141, { nodeId: 'agent', span: 'call1', parent: 'round1', data: { name: 'calculator' } }),
      ev('tool.result', 161, { nodeId: 'agent', span: 'call1', parent: 'round1', data: { durationMs: 20, ok: true } }),
      ev('agent.step', 200, {
        nodeId: 'agent',
        span: 'round2',
        parent: 's-agent',
        data: { round: 2, durationMs: 39, usage: { inputTokens: 80, outputTokens: 12 } },
      }),
      ev('node.succeeded', 201, { nodeId: 'agent', data: { durationMs: 161, usage: { inputTokens: 130 } } }),
      ev('run.succeeded', 202),
    ]);
    expect(tl.bars.size).toBe(6);
    expect(tl.roots).toEqual(['s-kb', 's-agent']);
    const round1 = tl.bars.get('round1')!;
    expect(round1).toMatchObject({ kind: 'round', parentId: 's-agent', start: T0 + 40, end: T0 + 140 });
    expect(round1.usage).toEqual({ inputTokens: 50, outputTokens: 7, costUsd: 0.001 });
    expect(tl.bars.get('call1')).toMatchObject({ kind: 'tool', name: 'calculator', parentId: 'round1', end: T0 + 161 });
    expect(tl.durationOf(tl.bars.get('call1')!, 0)).toBe(20);
    const hits = [...tl.bars.values()].find((b) => b.kind === 'retrieval')!;
    expect(hits).toMatchObject({ parentId: 's-kb', name: '2 hits' });
    expect(tl.rows().map((r) => [r.bar.id, r.depth])).toEqual([
      ['s-kb', 0],
      [hits.id, 1],
      ['s-agent', 0],
      ['round1', 1],
      ['call1', 2],
      ['round2', 1],
    ]);
    expect(tl.rows(new Set(['round1', 's-kb'])).map((r) => r.bar.id)).toEqual(['s-kb', 's-agent', 'round1', 'round2']);
    expect(tl.finishedAt).toBe(T0 + 202);
  });

  it('a retry splits its node span into attempt bars, not into new nodes', () => {
    const ev = recorder();
    const tl = buildTimeline([
      ev('run.started', 0),
      ev('node.started', 0, { nodeId: 'http', data: { type: 'http', attempt: 1 } }),
      ev('node.progress', 100, {
        nodeId: 'http',
        data: { retry: { attempt: 1, nextInMs: 50, error: { code: 'HTTP_503', message: 'busy' } } },
      }),
      ev('node.progress', 250, { nodeId: 'http', data: { retry: { attempt: 2, nextInMs: 100, error: {} } } }),
      ev('node.succeeded', 400, { nodeId: 'http', data: { durationMs: 400, attempt: 3 } }),
    ]);
    expect(tl.roots).toEqual(['s-http']);
    const attempts = tl.rows().filter((r) => r.bar.kind === 'attempt');
    expect(attempts.map((r) => [r.bar.attempt, r.bar.status, r.bar.start - T0, r.bar.end! - T0])).toEqual([
      [1, 'failed', 0, 100],
      [2, 'failed', 150, 250],
      [3, 'succeeded', 350, 400],
    ]);
    expect(attempts[0].bar.error).toBe('HTTP_503: busy');
    expect(attempts.every((r) => r.bar.parentId === 's-http' && r.depth === 1)).toBe(true);
    expect(tl.bars.get('s-http')).toMatchObject({ kind: 'node', attempt: 3, status: 'succeeded' });
  });

  it('a node that starts again after succeeding is a loop: every pass is an iteration bar', () => {
    const ev = recorder();
    const events = [ev('run.started', 0)];
    for (let i = 0; i < 3; i++) {
      events.push(ev('node.started', i * 10, { nodeId: 'loop', span: `loop-${i}`, data: { attempt: i + 1 } }));
      events.push(ev('node.succeeded', i * 10 + 5, { nodeId: 'loop', span: `loop-${i}` }));
    }
    const tl = buildTimeline(events);
    expect([...tl.bars.values()].map((b) => [b.id, b.kind, b.iteration])).toEqual([
      ['loop-0', 'iteration', 1],
      ['loop-1', 'iteration', 2],
      ['loop-2', 'iteration', 3],
    ]);
  });

  it('a failed node run again by a resume is a re-run, not an iteration; so is a resume fromNodeId', () => {
    const ev = recorder();
    const tl = buildTimeline([
      ev('run.started', 0),
      ev('node.started', 0, { nodeId: 'a', span: 'a1' }),
      ev('node.succeeded', 5, { nodeId: 'a', span: 'a1' }),
      ev('node.started', 6, { nodeId: 'b', span: 'b1' }),
      ev('node.failed', 9, { nodeId: 'b', span: 'b1', data: { error: { code: 'X', message: 'boom' } } }),
      ev('run.failed', 10),
      ev('run.started', 50, { data: { resumed: true, reused: ['a'] } }),
      ev('node.started', 51, { nodeId: 'b', span: 'b2' }),
      ev('node.succeeded', 55, { nodeId: 'b', span: 'b2' }),
      ev('run.succeeded', 56),
      ev('run.started', 90, { data: { resumed: true, fromNodeId: 'a' } }),
      ev('node.started', 91, { nodeId: 'a', span: 'a2' }),
    ]);
    expect(tl.bars.get('b1')).toMatchObject({ kind: 'node', status: 'failed', error: 'X: boom' });
    expect(tl.bars.get('b2')!.kind).toBe('node');
    expect(tl.bars.get('b2')!.details).toContainEqual(['pass', 're-run by a resume']);
    expect(tl.bars.get('a2')!.kind).toBe('node');
    expect(tl.finishedAt).toBeNull();
  });

  it('a wait is a bar of its own, open until the run resumes, naming who answered', () => {
    const ev = recorder();
    const tl = new TimelineModel();
    tl.apply([
      ev('run.started', 0),
      ev('node.started', 0, { nodeId: 'agent', span: 'ag1' }),
      ev('agent.step', 20, { nodeId: 'agent', span: 'r1', parent: 'ag1', data: { round: 1, durationMs: 20 } }),
      ev('node.progress', 21, { nodeId: 'agent', span: 'ag1', data: { waiting: { kind: 'tool_approval' } } }),
      ev('run.waiting', 22, {
        nodeId: 'agent',
        span: 'w',
        data: { nodeId: 'agent', prompt: { kind: 'tool_approval', callId: 'c1', name: 'send_mail' } },
      }),
    ]);
    const wait = tl.bars.get('wait:5')!;
    expect(wait).toMatchObject({ kind: 'wait', name: 'approval of send_mail', nodeId: 'agent', end: null });
    expect(tl.durationOf(wait, T0 + 1022)).toBe(1000); // live: wall time so far
    expect(tl.bars.get('ag1')).toMatchObject({ status: 'waiting', end: T0 + 21 });
    tl.apply([
      ev('run.started', 5022, { data: { resumed: true, answeredNodeId: 'agent' } }),
      ev('node.started', 5023, { nodeId: 'agent', span: 'ag2' }),
      ev('tool.approval', 5024, {
        nodeId: 'agent',
        span: 'call1',
        parent: 'r1',
        data: { toolCallId: 'c1', name: 'send_mail', decision: 'approve', by: { name: 'Ada' } },
      }),
      ev('tool.called', 5025, { nodeId: 'agent', span: 'call1', parent: 'r1', data: { name: 'send_mail' } }),
      ev('tool.result', 5035, { nodeId: 'agent', span: 'call1', parent: 'r1', data: { durationMs: 10 } }),
    ]);
    expect(wait.end).toBe(T0 + 5022);
    expect(tl.durationOf(wait, 0)).toBe(5000);
    expect(wait.details).toContainEqual(['answered node', 'agent']);
    expect(wait.details).toContainEqual(['answered by', 'Ada (approved send_mail)']);
    expect(tl.bars.get('ag2')!.kind).toBe('node'); // continued after the wait, not a loop iteration
    expect(tl.bars.get('call1')).toMatchObject({ kind: 'tool', start: T0 + 5025, status: 'succeeded' });
  });

  it('an unclosed span runs to now while live and to the run end once the run ends', () => {
    const ev = recorder();
    const tl = new TimelineModel();
    tl.apply([ev('run.started', 0), ev('node.started', 100, { nodeId: 'slow' })]);
    const bar = tl.bars.get('s-slow')!;
    expect(bar.end).toBeNull();
    expect(tl.durationOf(bar, T0 + 600)).toBe(500);
    expect(tl.durationOf(bar, T0 + 50)).toBe(0); // a clock behind the server never gives a negative duration
    expect(tl.extent(T0 + 600)).toEqual([T0, T0 + 600]);
    const v = tl.version;
    tl.apply([ev('run.cancelled', 900)]);
    expect(tl.version).toBe(v + 1);
    expect(bar).toMatchObject({ end: T0 + 900, status: 'cancelled' });
    expect(tl.durationOf(bar, T0 + 5000)).toBe(800);
  });

  it('multi_agent: step spans hold worker attempts, which hold rounds; a step ends with its progress event', () => {
    const ev = recorder();
    const a = { nodeId: 'team' };
    const tl = buildTimeline([
      ev('node.started', 0, { ...a, span: 'team' }),
      ev('agent.step', 10, {
        ...a,
        span: 'plan',
        parent: 'team',
        data: { kind: 'plan', title: 'plan', durationMs: 10 },
      }),
      ev('agent.step', 11, {
        ...a,
        span: 'st',
        parent: 'team',
        data: { kind: 'step', title: 'step s1', status: 'running' },
      }),
      ev('agent.step', 11, { ...a, span: 'w1', parent: 'st', data: { kind: 'work', title: 'worker on s1' } }),
      ev('agent.step', 30, { ...a, span: 'w1r1', parent: 'w1', data: { round: 1, durationMs: 19 } }),
      ev('agent.step', 40, {
        ...a,
        span: 'rv',
        parent: 'w1',
        data: { kind: 'review', durationMs: 10, approved: false },
      }),
      ev('agent.step', 41, { ...a, span: 'w2', parent: 'st', data: { kind: 'retry', title: 'retry 1 of s1' } }),
      ev('node.progress', 60, { ...a, span: 'st', parent: 'team', data: { kind: 'step', status: 'succeeded' } }),
      ev('node.succeeded', 70, { ...a, span: 'team' }),
    ]);
    expect(tl.rows().map((r) => `${'  '.repeat(r.depth)}${r.bar.id}:${r.bar.kind}`)).toEqual([
      'team:node',
      '  plan:agent',
      '  st:agent',
      '    w1:agent',
      '      w1r1:round',
      '      rv:agent',
      '    w2:agent',
    ]);
    expect(tl.bars.get('w1')).toMatchObject({ end: T0 + 41, status: 'succeeded' });
    expect(tl.bars.get('w2')).toMatchObject({ end: T0 + 60 });
    expect(tl.bars.get('st')).toMatchObject({ end: T0 + 60, status: 'succeeded' });
  });

  it('replayed events (seq already applied) change nothing', () => {
    const ev = recorder();
    const events = [ev('run.started', 0), ev('node.started', 0, { nodeId: 'a' })];
    const tl = buildTimeline(events);
    const v = tl.version;
    tl.apply(events);
    expect(tl.version).toBe(v);
    expect(tl.bars.size).toBe(1);
  });

  it('folds a 500-node run incrementally, and a late event touches only its own bar', () => {
    const ev = recorder();
    const tl = new TimelineModel();
    for (let i = 0; i < 500; i++) tl.apply([ev('node.started', i, { nodeId: `n${i}` })]);
    const first = tl.bars.get('s-n0')!;
    const before = { ...first };
    tl.apply([ev('node.succeeded', 1000, { nodeId: 'n499', data: { durationMs: 501 } })]);
    expect(tl.bars.size).toBe(500);
    expect(first).toEqual(before);
    expect(tl.bars.get('s-n499')).toMatchObject({ status: 'succeeded', end: T0 + 1000 });
  });
});
