// Guarantees: without an API key, an agent can be tried for real: the offline demo model asks for a built-in tool
// when the task asks for what that tool does (arithmetic → calculator, the time → current_time, "remember …" →
// memory_save, "what do you remember about …" → memory_recall), in English and Chinese, only for tools it is offered,
// and after the tool's result answers with it, labelled as the demo model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoProvider } from '@/engine/llm/demo-provider';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import type { ChatTool } from '@/engine/llm/types';
import { agentGraph, createAgentHarness, type AgentHarness } from './support/agent-harness';

const tool = (name: string): ChatTool => ({ name, description: name, parameters: { type: 'object' } });
const ALL = ['calculator', 'current_time', 'memory_save', 'memory_recall'].map(tool);

async function asks(text: string, tools = ALL) {
  const r = await new DemoProvider().chat({ model: 'demo', messages: [{ role: 'user', content: text }], tools });
  return r.toolCalls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) }));
}

describe('the demo model and the built-in tools', () => {
  it('asks for the tool the task needs, in English and Chinese', async () => {
    expect(await asks('What is 12 * (3 + 4)?')).toEqual([{ name: 'calculator', args: { expression: '12 * (3 + 4)' } }]);
    expect(await asks('帮我算一下 (3+4)*5')).toEqual([{ name: 'calculator', args: { expression: '(3+4)*5' } }]);
    expect(await asks('What time is it?')).toEqual([{ name: 'current_time', args: {} }]);
    expect(await asks('现在几点了？')).toEqual([{ name: 'current_time', args: {} }]);
    expect(await asks('Remember that our refund window is 30 days.')).toEqual([
      { name: 'memory_save', args: { content: 'our refund window is 30 days' } },
    ]);
    expect(await asks('记住：退款期限是30天')).toEqual([{ name: 'memory_save', args: { content: '退款期限是30天' } }]);
    expect(await asks('What do you remember about refunds?')).toEqual([
      { name: 'memory_recall', args: { query: 'refunds' } },
    ]);
  });

  it('never asks for a tool it is not offered, nor when nothing asks for one', async () => {
    expect(await asks('What is 6 * 7?', [tool('current_time')])).toEqual([]);
    expect(await asks('Write a haiku about spring')).toEqual([]);
    expect(await asks('What is 6 * 7?', [])).toEqual([]);
  });
});

describe('an agent on the demo model', () => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await createAgentHarness({ llm: createLlmResolver({}) });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('calls the calculator for an arithmetic question and answers with its result', async () => {
    const wf = await h.createWorkflow(agentGraph({ tools: ['calculator'] }));
    const run = await h.runToEnd(wf, { question: 'What is 17 * 3 + 1?' });
    expect(run.status).toBe('succeeded');
    expect(String(run.outputs?.answer)).toMatch(/demo model/i);
    expect(String(run.outputs?.answer)).toContain('calculator returned: 52');
  });
});
