/**
 * The run view of a breakpoint: a `breakpoint` wait shows the node's resolved input (never as a text prompt or a tool
 * approval), and the node starting (Continue / Step) or the run ending clears it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '@/components/api/types';
import { applyEvents, EMPTY_RUN, type RunState } from './run-store';

vi.mock('@/components/lib/i18n', () => import('../i18n-test-double'));

let seq = 0;
const ev = (type: string, nodeId: string | undefined, data: Record<string, unknown> = {}, span = `s-${nodeId}`) =>
  ({ seq: ++seq, runId: 'r1', ts: new Date(0).toISOString(), type, nodeId, spanId: span, data }) as TraceEvent;
const fresh = (): RunState => ({ ...EMPTY_RUN, runId: 'r1', nodes: new Map() });
const prompt = { kind: 'breakpoint', nodeId: 't2', input: { template: 'two', format: 'text' } };

describe('a breakpoint in the run view', () => {
  it('a breakpoint wait carries the resolved input; the node starting clears it', () => {
    seq = 0;
    let s = applyEvents(fresh(), [
      ev('run.started', undefined, {}, 'run'),
      ev('node.progress', 't2', { waiting: prompt }),
      ev('run.waiting', 't2', { nodeId: 't2', nodeKey: 't2', prompt }, 'run'),
    ]);
    expect(s.status).toBe('waiting');
    expect(s.waitingNodeId).toBe('t2');
    expect(s.waitingBreakpoint).toEqual(prompt);
    expect(s.waitingApproval).toBeNull();
    expect(s.waitingPrompt).toBe('Paused at a breakpoint');

    const later = { ...ev('run.started', undefined, {}, 'run'), ts: new Date(125_000).toISOString() };
    later.data = { resumed: true, answeredNodeId: 't2', answeredBy: { userId: 'u1', name: 'Ann' }, reused: [] };
    s = applyEvents(s, [later, ev('node.started', 't2', {})]);
    expect(s.waitingBreakpoint).toBeNull();
    // The wait reads as who answered it and after how long, not as "Resumed".
    expect(s.spans.some((sp) => sp.kind === 'marker' && sp.name === 'Ann answered “t2” after 2m 5s')).toBe(true);
  });

  it('a run cancelled at its breakpoint (Stop) clears it', () => {
    seq = 0;
    let s = applyEvents(fresh(), [ev('run.waiting', 't2', { nodeId: 't2', prompt }, 'run')]);
    s = applyEvents(s, [ev('run.cancelled', undefined, {}, 'run')]);
    expect(s.status).toBe('cancelled');
    expect(s.waitingBreakpoint).toBeNull();
  });
});
