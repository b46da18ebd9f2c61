// Guarantees: an Agent node runs a ReAct loop on native function calling through the real openai SDK — parallel
// tool calls of one round run concurrently, their results are appended in the model's order and paired by
// tool_call_id, only the selected tools' schemas are sent, the final answer is the node output, token usage is
// summed over rounds, text streams as node.token, and every round / tool call is a child span in the trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, sleep, spyTool, type AgentHarness } from './support/agent-harness';

describe('agent ReAct loop', () => {
  let fake: FakeOpenAi;
  let h: AgentHarness;
  const lookup = spyTool('lookup', async (args) => {
    await sleep(Number(args.delay ?? 0));
    return `result:${String(args.label)}`;
  });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createAgentHarness({
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      tools: [lookup.tool],
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('runs three rounds with two parallel calls, pairs results by id in order, and traces every step', async () => {
    fake.requests.length = 0;
    fake.script(
      {
        toolCalls: [
          { id: 'call_slow', name: 'lookup', arguments: { label: 'first', delay: 250 } },
          { id: 'call_fast', name: 'lookup', arguments: { label: 'second', delay: 10 } },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      {
        toolCalls: [{ id: 'call_calc', name: 'calculator', arguments: { expression: '6 * 7' } }],
        usage: { prompt_tokens: 200, completion_tokens: 20 },
      },
      { text: 'The answer is 42.', usage: { prompt_tokens: 300, completion_tokens: 30 } },
    );
    const wf = await h.createWorkflow(
      agentGraph({ tools: ['lookup', 'calculator'], systemPrompt: 'You are a test agent.' }),
    );
    const run = await h.runToEnd(wf, { question: 'What is six times seven?' });
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.answer).toBe('The answer is 42.');

    // Only the selected tools' schemas are sent.
    expect(fake.requests).toHaveLength(3);
    for (const req of fake.requests)
      expect(req.tools.map((t: any) => t.function.name).sort()).toEqual(['calculator', 'lookup']);
    expect(fake.requests[0].messages).toEqual([
      { role: 'system', content: 'You are a test agent.' },
      { role: 'user', content: 'What is six times seven?' },
    ]);

    // Round 2's request: the assistant's two calls, then both results in the model's order (not completion order).
    const m1 = fake.requests[1].messages;
    expect(m1.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_slow',
            type: 'function',
            function: { name: 'lookup', arguments: JSON.stringify({ label: 'first', delay: 250 }) },
          },
          {
            id: 'call_fast',
            type: 'function',
            function: { name: 'lookup', arguments: JSON.stringify({ label: 'second', delay: 10 }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_slow', content: 'result:first' },
      { role: 'tool', tool_call_id: 'call_fast', content: 'result:second' },
    ]);
    expect(lookup.maxActive).toBe(2); // they overlapped
    const [slow, quick] = lookup.calls;
    expect(quick.endedAt!).toBeLessThan(slow.endedAt!); // the second finished first, yet was appended second

    const m2 = fake.requests[2].messages;
    expect(m2.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_calc', type: 'function', function: { name: 'calculator', arguments: '{"expression":"6 * 7"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_calc', content: '42' },
    ]);

    // Node output and summed usage.
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'a1')!;
    expect(node.output).toMatchObject({
      text: 'The answer is 42.',
      rounds: 3,
      model: 'fake-model',
      provider: 'openai-compatible',
    });
    expect((node.output as any).toolCalls.map((c: any) => [c.round, c.id, c.status])).toEqual([
      [1, 'call_slow', 'ok'],
      [1, 'call_fast', 'ok'],
      [2, 'call_calc', 'ok'],
    ]);
    expect(node.usage).toEqual({ inputTokens: 600, outputTokens: 60, cachedTokens: 0, costUsd: null });

    // Trace: rounds are children of the node span, tool calls children of their round.
    const events = await h.events(run.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const nodeSpan = events.find((e) => e.type === 'node.started' && e.nodeId === 'a1')!.spanId;
    const steps = events.filter((e) => e.type === 'agent.step');
    expect(steps.map((s) => s.data.round)).toEqual([1, 2, 3]);
    for (const s of steps) {
      expect(s.parentSpanId).toBe(nodeSpan);
      expect(s.spanId).not.toBe(nodeSpan);
      expect(s.data.usage).toBeTruthy();
    }
    expect(steps[0].data.toolCalls).toEqual([
      { id: 'call_slow', name: 'lookup', args: { label: 'first', delay: 250 } },
      { id: 'call_fast', name: 'lookup', args: { label: 'second', delay: 10 } },
    ]);
    expect(steps[2].data.usage).toEqual({ inputTokens: 300, outputTokens: 30, cachedTokens: 0, costUsd: null });
    const called = events.filter((e) => e.type === 'tool.called');
    const results = events.filter((e) => e.type === 'tool.result');
    expect(called.map((e) => e.data.toolCallId).sort()).toEqual(['call_calc', 'call_fast', 'call_slow']);
    for (const r of results) {
      const c = called.find((e) => e.data.toolCallId === r.data.toolCallId)!;
      expect(r.spanId).toBe(c.spanId);
      const step = steps.find((s) => s.data.round === r.data.round)!;
      expect(c.parentSpanId).toBe(step.spanId);
      expect(r.parentSpanId).toBe(step.spanId);
      expect(typeof r.data.durationMs).toBe('number');
      expect(r.data.ok).toBe(true);
    }
    expect(results.find((r) => r.data.toolCallId === 'call_slow')!.data.durationMs).toBeGreaterThanOrEqual(240);
    expect(results.find((r) => r.data.toolCallId === 'call_calc')!.data.result).toBe('42');

    // Streaming: the final text arrives as node.token events of round 3.
    const tokens = events.filter((e) => e.type === 'node.token' && e.nodeId === 'a1');
    expect(tokens.map((t) => t.data.delta).join('')).toBe('The answer is 42.');
    expect(new Set(tokens.map((t) => t.data.round))).toEqual(new Set([3]));
  });

  it('works offline on the demo model (call: lines) with no API key', async () => {
    h.setLlm(createLlmResolver({}));
    try {
      const wf = await h.createWorkflow(agentGraph({ tools: ['calculator'] }));
      const run = await h.runToEnd(wf, { question: 'call:calculator {"expression": "2 ^ 10"}' });
      expect(run.status).toBe('succeeded');
      expect(String(run.outputs?.answer)).toMatch(/demo model/i);
      expect(String(run.outputs?.answer)).toContain('calculator returned: 1024');
    } finally {
      h.setLlm(createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }));
    }
  });
});
