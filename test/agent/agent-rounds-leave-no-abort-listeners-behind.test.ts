// Guarantees: an agent's rounds leave no abort listeners behind on its node's signal. Fifteen tool-call rounds against
// an OpenAI-compatible model (the real `openai` SDK over HTTP to the local fake server), and a provider call retried
// ten times, emit no MaxListenersExceededWarning, and a caller's signal holds no listener after a call ends.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleProvider } from '@/engine/llm/openai-provider';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, spyTool, type AgentHarness } from './support/agent-harness';

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
const listenerWarnings = () => warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message);
/** Process warnings are emitted on a later tick. */
const settle = () => new Promise((r) => setTimeout(r, 50));

let fake: FakeOpenAi;
let h: AgentHarness;
const echo = spyTool('echo');

beforeAll(async () => {
  process.on('warning', onWarning);
  fake = await startFakeOpenAi();
  h = await createAgentHarness({
    llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
    tools: [echo.tool],
    memory: false,
  });
});
afterAll(async () => {
  process.off('warning', onWarning);
  await h?.close();
  await fake?.close();
});
beforeEach(() => {
  warnings.length = 0;
});

describe('abort listeners', () => {
  it('fifteen tool-call rounds of one agent emit no MaxListenersExceededWarning', async () => {
    const rounds = Array.from({ length: 15 }, (_, i) => ({
      toolCalls: [{ id: `call_${i}`, name: 'echo', arguments: { round: i } }],
    }));
    fake.script(...rounds, { text: 'all rounds done' });
    const wf = await h.createWorkflow(agentGraph({ tools: ['echo'], limits: { maxRounds: 20 } }));
    const run = await h.runToEnd(wf);
    expect(run.error).toBeNull();
    expect(run.outputs?.answer).toBe('all rounds done');
    expect(echo.calls).toHaveLength(15);
    await settle();
    expect(listenerWarnings()).toEqual([]);
  });

  it("a provider call leaves no listener on the caller's signal, and its retries do not warn", async () => {
    const provider = new OpenAiCompatibleProvider({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 10 });
    const signal = new AbortController().signal;
    for (let i = 0; i < 12; i++) {
      fake.script({ text: `answer ${i}` });
      const res = await provider.chat({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        signal,
        ...(i % 2 ? { onToken: () => {} } : {}),
      });
      expect(res.text).toBe(`answer ${i}`);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    }
    // Ten retries of one call: eleven attempts, each with its own SDK listener on the call's signal.
    fake.script(...Array.from({ length: 10 }, () => ({ status: 503 })), { text: 'after retries' });
    const before = fake.requests.length;
    const res = await provider.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }], signal });
    expect(res.text).toBe('after retries');
    expect(fake.requests.length - before).toBe(11);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await settle();
    expect(listenerWarnings()).toEqual([]);
  });
});
