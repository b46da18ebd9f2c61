// Guarantees: a `stream: true` LLM node (or agent round) against a provider that ignores `stream` and answers one plain
// JSON chat.completion (Content-Type application/json, not SSE) gets that answer's text, tool calls and usage, instead
// of "succeeding" with an empty reply.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { OpenAiCompatibleProvider } from '@/engine/llm/openai-provider';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createHarness, type Harness } from '../support/harness';

/** Answers every chat request, streaming or not, with the next scripted chat.completion as plain JSON. */
let next: object = {};
const bodies: any[] = [];
let server: Server;
let baseURL = '';

const completion = (message: object, finish: string, usage = { prompt_tokens: 11, completion_tokens: 4 }) => ({
  id: 'chatcmpl-plain',
  object: 'chat.completion',
  created: 1,
  model: 'plain-json-model',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      bodies.push(JSON.parse(raw));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(next));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const graph: Graph = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
    {
      id: 'ask',
      type: 'llm',
      position: { x: 1, y: 0 },
      data: { config: { model: 'plain-json-model', userPrompt: 'Say hello', stream: true } },
    },
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

describe('a streamed request answered with plain JSON', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite', { llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: baseURL }) });
  });
  afterAll(() => h?.close());

  it('gives a stream: true LLM node the text and usage of the JSON answer', async () => {
    next = completion({ content: 'Hello from a server that does not stream.' }, 'stop');
    const run = await h.runToEnd(await h.createWorkflow(graph));
    expect(bodies.at(-1).stream).toBe(true);
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.text).toBe('Hello from a server that does not stream.');
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'ask')!;
    expect(node.usage).toMatchObject({ inputTokens: 11, outputTokens: 4 });
    expect(node.output).toMatchObject({ model: 'plain-json-model', finishReason: 'stop' });
    // The live view still gets the text, as one token.
    const tokens = (await h.events(run.id)).filter((e) => e.type === 'node.token').map((e) => e.data.delta);
    expect(tokens.join('')).toBe('Hello from a server that does not stream.');
  });

  it('returns the tool calls and usage of the JSON answer to a streaming caller', async () => {
    next = completion(
      {
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } },
          { id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
        ],
      },
      'tool_calls',
      { prompt_tokens: 30, completion_tokens: 9 },
    );
    const provider = new OpenAiCompatibleProvider({ apiKey: 'test', baseURL, maxRetries: 0 });
    const tokens: string[] = [];
    const res = await provider.chat({
      model: 'plain-json-model',
      messages: [{ role: 'user', content: 'add 1 and 2' }],
      tools: [{ name: 'add', description: 'adds', parameters: { type: 'object' } }],
      onToken: (t) => tokens.push(t),
    });
    expect(bodies.at(-1).stream).toBe(true);
    expect(res).toMatchObject({ text: '', finishReason: 'tool_calls', model: 'plain-json-model' });
    expect(res.toolCalls).toEqual([
      { id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' },
      { id: 'call_2', name: 'lookup', arguments: '{"q":"x"}' },
    ]);
    expect(res.usage).toMatchObject({ inputTokens: 30, outputTokens: 9 });
    expect(tokens).toEqual([]);
  });
});
