// Guarantees: every exported model call names its provider in `gen_ai.provider.name` (OpenTelemetry GenAI semantic
// conventions; tracing backends group by it): the convention's well-known value for a provider's own API host
// (api.deepseek.com → deepseek, *.openai.azure.com → azure.ai.openai …), "openai" for any other OpenAI-compatible
// server, "paiflow.demo" for the offline demo model. An LLM node's chat span, an agent's round spans and its
// invoke_agent span, and a multi_agent node's plan/review/summary spans all carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { genAiProviderName } from '@/engine/llm/genai-provider-name';
import { OpenAiCompatibleProvider } from '@/engine/llm/openai-provider';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import type { LlmResolver } from '@/engine/llm/types';
import { buildSpans } from '@/engine/telemetry/span-builder';
import { agentGraph } from '../agent/support/agent-harness';
import { multiAgentGraph } from '../agent/support/multi-agent-team';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';

const llmGraph: Graph = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
    { id: 'ask', type: 'llm', position: { x: 1, y: 0 }, data: { config: { model: 'm', userPrompt: 'Hello' } } },
    {
      id: 'end',
      type: 'end',
      position: { x: 2, y: 0 },
      data: { config: { outputs: [{ name: 'text', value: '{{ask.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'end' },
  ],
};

describe('gen_ai.provider.name', () => {
  it.each([
    ['https://api.openai.com/v1', 'openai'],
    ['https://api.deepseek.com', 'deepseek'],
    ['https://api.deepseek.com/v1', 'deepseek'],
    ['https://my-res.openai.azure.com/openai/deployments/gpt4o', 'azure.ai.openai'],
    ['https://my-res.services.ai.azure.com/models', 'azure.ai.inference'],
    ['https://api.groq.com/openai/v1', 'groq'],
    ['https://api.mistral.ai/v1', 'mistral_ai'],
    ['https://api.x.ai/v1', 'x_ai'],
    ['https://api.perplexity.ai', 'perplexity'],
    ['https://generativelanguage.googleapis.com/v1beta/openai/', 'gcp.gemini'],
    ['https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/endpoints/openapi', 'gcp.vertex_ai'],
    ['https://bedrock-runtime.us-west-2.amazonaws.com/openai/v1', 'aws.bedrock'],
    // Not a provider's own API host: OpenAI-compatible, so the API family's name.
    ['http://127.0.0.1:11434/v1', 'openai'],
    ['https://dashscope.aliyuncs.com/compatible-mode/v1', 'openai'],
    ['https://api.deepseek.com.evil.example/v1', 'openai'],
  ])('of %s is %s', (url, name) => expect(genAiProviderName(url)).toBe(name));
});

describe('exported model-call spans', () => {
  let fake: FakeOpenAi;
  let h: Harness;
  let llm: LlmResolver;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createHarness('pglite', { llm: (s) => llm(s) });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  const spansOf = async (graph: Graph, inputs: Record<string, unknown> = {}) => {
    const run = await h.runToEnd(await h.createWorkflow(graph), inputs);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    return buildSpans(await h.events(run.id), { content: false });
  };

  it("an LLM node's chat span names the provider of its base URL's host", async () => {
    // DeepSeek's API host, answered by the local fake server.
    const deepseek = new OpenAiCompatibleProvider({
      apiKey: 'test',
      baseURL: 'https://api.deepseek.com/v1',
      maxRetries: 0,
      fetch: (url, init) => fetch(String(url).replace('https://api.deepseek.com/v1', fake.baseURL), init),
    });
    llm = () => deepseek;
    fake.script({ text: 'hi from "deepseek"' });
    const spans = await spansOf(llmGraph);
    const chat = spans.find((s) => s.attributes['paiflow.node.id'] === 'ask')!;
    expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'deepseek' });
  });

  it('on the demo model: the LLM span, the agent and its rounds say paiflow.demo', async () => {
    llm = createLlmResolver({});
    const chat = (await spansOf(llmGraph)).find((s) => s.attributes['paiflow.node.id'] === 'ask')!;
    expect(chat.attributes['gen_ai.provider.name']).toBe('paiflow.demo');

    const spans = await spansOf(agentGraph({ tools: ['calculator'] }), { question: 'What is 6 * 7?' });
    const agent = spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
    const rounds = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(rounds.length).toBeGreaterThanOrEqual(2);
    for (const s of [agent, ...rounds]) expect(s.attributes['gen_ai.provider.name'], s.name).toBe('paiflow.demo');
  });

  it("a multi_agent node's model calls and its agent span name the provider", async () => {
    llm = createLlmResolver({});
    const spans = await spansOf(multiAgentGraph({ worker: { tools: ['calculator'] } }), { question: 'What is 6 * 7?' });
    const team = spans.find((s) => s.attributes['paiflow.node.type'] === 'multi_agent')!;
    expect(team.attributes['gen_ai.provider.name']).toBe('paiflow.demo');
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    const kinds = new Set(chats.map((s) => s.attributes['paiflow.agent.step.kind']));
    expect([...kinds]).toEqual(expect.arrayContaining(['plan', 'review', 'summary', 'round']));
    for (const s of chats) expect(s.attributes['gen_ai.provider.name'], s.name).toBe('paiflow.demo');
  });
});
