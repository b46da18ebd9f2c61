// Guarantees: an LLM node with grounding on answers only from the given context (instructions + low temperature are
// sent to the model) and, when the context is empty, returns the explicit fallback without calling the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '@/test/support/fake-openai-server';
import { createHarness, type Harness } from '@/test/support/harness';

const graph = (context: string): Graph => ({
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: {
        config: {
          inputs: [
            { name: 'q', type: 'string' },
            { name: 'ctx', type: 'string', required: false },
          ],
        },
      },
    },
    {
      id: 'answer',
      type: 'llm',
      position: { x: 1, y: 0 },
      data: {
        config: { model: 'gpt-x', userPrompt: '{{inputs.q}}', temperature: 0.9, grounding: { enabled: true, context } },
      },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 2, y: 0 },
      data: { config: { outputs: [{ name: 'text', value: '{{answer.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'answer' },
    { id: 'e2', source: 'answer', target: 'end' },
  ],
});

describe('LLM node grounding', () => {
  let fake: FakeOpenAi;
  let h: Harness;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createHarness('pglite', {
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('sends the context with citation instructions and a low temperature', async () => {
    fake.script({ text: 'Paris [1]' });
    const run = await h.runToEnd(await h.createWorkflow(graph('{{inputs.ctx}}')), {
      q: 'Capital of France?',
      ctx: '[1] France — its capital is Paris.',
    });
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.text).toBe('Paris [1]');
    const req = fake.requests.at(-1);
    expect(req.temperature).toBeLessThanOrEqual(0.2);
    expect(req.messages[0].role).toBe('system');
    expect(req.messages[0].content).toMatch(/ONLY from the context/);
    expect(req.messages[0].content).toContain('[1] France — its capital is Paris.');
  });

  it('with an empty context it answers with the fallback and does not call the model', async () => {
    const before = fake.requests.length;
    const run = await h.runToEnd(await h.createWorkflow(graph('{{inputs.ctx}}')), { q: 'Capital of France?' });
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.text).toMatch(/could not find/);
    expect(fake.requests.length).toBe(before);
  });
});
