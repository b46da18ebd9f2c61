// Guarantees: the Agent node's provider layer retries 429/5xx with backoff as configured (maxRetries), then moves
// along its fallback model chain on non-auth errors (and stays there), never falls back on an auth error, and sums
// token usage over every request whichever model answered.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, type AgentHarness } from './support/agent-harness';

describe('agent model chain', () => {
  let fake: FakeOpenAi;
  let h: AgentHarness;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createAgentHarness({
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      memory: false,
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('retries a 5xx on the same model when maxRetries allows it', async () => {
    fake.script(
      { status: 503 },
      { status: 429 },
      { text: 'third time lucky', usage: { prompt_tokens: 7, completion_tokens: 3 } },
    );
    const wf = await h.createWorkflow(agentGraph({ model: 'primary', fallbackModels: ['backup'], maxRetries: 2 }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.answer).toBe('third time lucky');
    expect(fake.requests.map((r) => r.model)).toEqual(['primary', 'primary', 'primary']);
  });

  it('falls back to the next model when the primary still fails, and keeps using it', async () => {
    fake.script(
      { status: 500 },
      {
        toolCalls: [{ id: 'f1', name: 'calculator', arguments: { expression: '1+2' } }],
        usage: { prompt_tokens: 10, completion_tokens: 1 },
      },
      { text: 'answered by the backup', usage: { prompt_tokens: 20, completion_tokens: 2 } },
    );
    const wf = await h.createWorkflow(
      agentGraph({ model: 'primary', fallbackModels: ['backup', 'last-resort'], maxRetries: 0, tools: ['calculator'] }),
    );
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(fake.requests.map((r) => r.model)).toEqual(['primary', 'backup', 'backup']);
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'a1')!;
    expect((node.output as any).model).toBe('backup');
    expect(node.usage).toEqual({ inputTokens: 30, outputTokens: 3, cachedTokens: 0, costUsd: null });
    const switched = (await h.events(run.id)).filter((e) => e.type === 'node.progress' && e.data.fallback);
    expect(switched).toHaveLength(1);
    expect(switched[0].data.fallback).toMatchObject({
      from: 'primary',
      to: 'backup',
      error: { code: 'LLM_UNAVAILABLE' },
    });
  });

  it('does not fall back on an auth error, and does not leak the key', async () => {
    fake.script({ status: 401 });
    const wf = await h.createWorkflow(agentGraph({ model: 'primary', fallbackModels: ['backup'], maxRetries: 0 }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('LLM_AUTH');
    expect(fake.requests.map((r) => r.model)).toEqual(['primary']);
    expect(JSON.stringify(run.error)).not.toContain('Bearer');
  });

  it('fails with the last error when every model in the chain fails', async () => {
    fake.script({ status: 500 }, { status: 502 });
    const wf = await h.createWorkflow(agentGraph({ model: 'primary', fallbackModels: ['backup'], maxRetries: 0 }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('LLM_UNAVAILABLE');
    expect(fake.requests.map((r) => r.model)).toEqual(['primary', 'backup']);
  });
});
