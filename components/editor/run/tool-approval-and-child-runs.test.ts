/**
 * The trace view of a paused tool call: a `tool_approval` wait becomes an approval prompt (never an object shown as a
 * text prompt), each decision a readable leaf ("Ada approved calculator"), a sub-workflow's `childRun` a link to it,
 * and edited arguments are sent only when they are a JSON object.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '@/components/api/types';
import { applyEvents, EMPTY_RUN, type RunState } from './run-store';
import { childRunHref, runIdInUrl } from './run-url';
import { parseArguments } from './tool-approval-box';

vi.mock('@/components/lib/i18n', () => import('../i18n-test-double'));

let seq = 0;
const ev = (type: string, nodeId: string | undefined, data: Record<string, unknown> = {}, span = `s-${nodeId}`) =>
  ({ seq: ++seq, runId: 'r1', ts: new Date(0).toISOString(), type, nodeId, spanId: span, data }) as TraceEvent;
const fresh = (): RunState => ({ ...EMPTY_RUN, runId: 'r1', nodes: new Map() });

const prompt = {
  kind: 'tool_approval',
  round: 1,
  callId: 'call_1',
  name: 'http_fetch',
  arguments: { url: 'https://example.com' },
  pendingCalls: 2,
};

describe('tool approval in the trace', () => {
  it('a tool_approval wait is an approval prompt; the node running again clears it', () => {
    seq = 0;
    let s = applyEvents(fresh(), [
      ev('run.started', undefined, {}, 'run'),
      ev('node.started', 'a1', { type: 'agent' }),
      ev('run.waiting', 'a1', { nodeId: 'a1', prompt }, 'run'),
    ]);
    expect(s.status).toBe('waiting');
    expect(s.waitingNodeId).toBe('a1');
    expect(s.waitingApproval).toMatchObject({ callId: 'call_1', name: 'http_fetch', arguments: prompt.arguments });
    expect(typeof s.waitingPrompt).toBe('string');
    expect(s.spans.at(-1)).toMatchObject({ status: 'waiting', type: 'tool approval' });

    s = applyEvents(s, [
      ev('tool.approval', 'a1', {
        round: 1,
        toolCallId: 'call_1',
        name: 'http_fetch',
        decision: 'approve',
        by: { userId: 'u1', name: 'Ada' },
        at: new Date(1).toISOString(),
      }),
      ev('run.started', undefined, { resumed: true }, 'run'),
      ev('node.started', 'a1', { type: 'agent', attempt: 1 }, 's-a1-2'),
    ]);
    expect(s.waitingApproval).toBeNull();
    const decided = s.spans.flatMap((sp) => sp.children).find((c) => c.type === 'tool.approval');
    expect(decided).toMatchObject({ name: 'Ada approved http_fetch', status: 'succeeded' });
  });

  it('edits and rejections read as such, with the edited arguments or the message', () => {
    seq = 0;
    const s = applyEvents(fresh(), [
      ev('node.started', 'a1', { type: 'agent' }),
      ev('tool.called', 'a1', { name: 'http_fetch', args: {} }, 'tool-1'),
      ev('tool.approval', 'a1', { name: 'http_fetch', decision: 'edit', arguments: { url: 'x' }, by: null }, 'tool-1'),
      ev('tool.approval', 'a1', { name: 'calculator', decision: 'reject', message: 'not now', by: { name: 'Bo' } }),
    ]);
    const all = s.spans.flatMap(function flat(sp): typeof s.spans {
      return [sp, ...sp.children.flatMap(flat)];
    });
    expect(all.find((c) => c.name === 'Someone edited http_fetch')).toMatchObject({ input: { url: 'x' } });
    expect(all.find((c) => c.name === 'Bo rejected calculator')).toMatchObject({
      status: 'cancelled',
      output: 'not now',
    });
  });

  it('a sub-workflow progress event links its child run', () => {
    seq = 0;
    const s = applyEvents(fresh(), [
      ev('node.started', 'w1', { type: 'workflow' }),
      ev('node.progress', 'w1', { childRun: { runId: 'run_child', workflowId: 'wf_child', version: 3 } }),
    ]);
    const span = s.spans[0];
    expect(span.childRun).toEqual({ runId: 'run_child', workflowId: 'wf_child', version: 3 });
    expect(span.notes).toEqual([]);
    expect(childRunHref(span.childRun!)).toBe('/workflows/wf_child?run=run_child');
    expect(runIdInUrl('?run=run_child')).toBe('run_child');
    expect(runIdInUrl('?run=../x')).toBeNull();
  });

  it('edited arguments must be a JSON object', () => {
    expect(parseArguments('{"a": 1}')).toEqual({ value: { a: 1 } });
    expect(parseArguments('{"a": ')).toHaveProperty('error');
    expect(parseArguments('[1]')).toHaveProperty('error');
    expect(parseArguments('"text"')).toHaveProperty('error');
  });
});
