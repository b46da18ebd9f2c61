/** Folding trace events: per-node views change only for their own events, and replays after a reconnect are no-ops. */
import { describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '@/components/api/types';
import { applyEvents, EMPTY_RUN, type RunState } from './run-store';

vi.mock('@/components/lib/i18n', () => import('../i18n-test-double'));

let seq = 0;
const ev = (
  type: TraceEvent['type'],
  nodeId: string | undefined,
  data: Record<string, unknown> = {},
  span = nodeId ? `s-${nodeId}` : 'run',
  parent?: string,
): TraceEvent => ({
  seq: ++seq,
  runId: 'r1',
  ts: new Date(0).toISOString(),
  type,
  nodeId,
  spanId: span,
  parentSpanId: parent,
  data,
});
const fresh = (): RunState => ({ ...EMPTY_RUN, runId: 'r1', nodes: new Map() });

describe('applyEvents', () => {
  it('paints statuses, streams tokens and keeps untouched nodes by reference', () => {
    seq = 0;
    let s = applyEvents(fresh(), [
      ev('run.started', undefined),
      ev('node.started', 'a', { attempt: 1 }),
      ev('node.succeeded', 'a', { output: { text: 'x' }, durationMs: 3, attempt: 1 }),
    ]);
    const a = s.nodes.get('a');
    expect(a).toMatchObject({ status: 'succeeded', output: { text: 'x' }, durationMs: 3 });
    s = applyEvents(s, [
      ev('node.started', 'b'),
      ev('node.token', 'b', { delta: 'he' }),
      ev('node.token', 'b', { delta: 'llo' }),
    ]);
    expect(s.nodes.get('a')).toBe(a);
    expect(s.nodes.get('b')).toMatchObject({ status: 'running', tokens: 'hello' });
    expect(s.spans.map((x) => [x.nodeId, x.status, x.tokens])).toEqual([
      ['a', 'succeeded', ''],
      ['b', 'running', 'hello'],
    ]);
  });

  it('ignores events it already applied (a replay after reconnecting)', () => {
    seq = 0;
    const events = [ev('run.started', undefined), ev('node.started', 'a'), ev('node.token', 'a', { delta: 'x' })];
    const once = applyEvents(fresh(), events);
    const twice = applyEvents(once, events);
    expect(twice.nodes.get('a')?.tokens).toBe('x');
    expect(twice.seqs).toEqual([1, 2, 3]);
  });

  it('nests child spans (agent steps, tool calls) under their node span', () => {
    seq = 0;
    const s = applyEvents(fresh(), [
      ev('node.started', 'agent'),
      ev('agent.step', 'agent', { title: 'round 1', text: 'thinking' }, 'step1', 's-agent'),
      ev('tool.called', 'agent', { name: 'search', args: { q: 'x' } }, 'tool1', 'step1'),
      ev('tool.result', 'agent', { name: 'search', ok: true, result: 42 }, 'tool1', 'step1'),
      ev('retrieval.hits', 'agent', { hits: [] }),
    ]);
    const node = s.spans[0];
    expect(node.children.map((c) => c.name)).toEqual(['round 1', 'retrieval']);
    expect(node.children[0].children).toHaveLength(1);
    expect(node.children[0].children[0]).toMatchObject({
      name: 'search',
      status: 'succeeded',
      input: { q: 'x' },
      output: 42,
    });
  });

  it('a resume resets the re-run nodes and keeps the reused ones', () => {
    seq = 0;
    let s = applyEvents(fresh(), [
      ev('run.started', undefined),
      ev('node.started', 'a'),
      ev('node.succeeded', 'a'),
      ev('node.started', 'b'),
      ev('node.failed', 'b', { error: { code: 'X', message: 'boom' } }),
      ev('run.failed', undefined, { error: { code: 'X', message: 'boom' } }),
    ]);
    expect(s.status).toBe('failed');
    s = applyEvents(s, [ev('run.started', undefined, { resumed: true, reused: ['a'] })]);
    expect(s.status).toBe('running');
    expect(s.nodes.get('a')?.status).toBe('succeeded');
    expect(s.nodes.get('b')?.status).toBe('pending');
    expect(s.spans.at(-1)).toMatchObject({ kind: 'marker' });
  });
});
