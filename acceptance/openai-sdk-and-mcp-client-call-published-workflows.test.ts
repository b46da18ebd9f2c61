/**
 * Guarantee: the official clients work against a published workflow as the README says — the `openai` SDK (base URL
 * `<server>/api/v1`, a workflow API key, `model` = the slug) runs it through chat.completions, streamed or not, and
 * lists it in models.list(); the official MCP SDK client offers an opted-in workflow as a tool (name = slug, input
 * schema from the Start node) whose call returns the End outputs, to the holders of that workflow's keys only.
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PREFIX, keyClient, publishWithKey, questionAnswerGraph, type Published } from './support/b-published';
import { acceptance } from './support/context';
import { node } from './support/runs';

const { api, baseURL } = acceptance();

const QUESTION = 'Can I change the delivery address after ordering?';

/** Start (`text`, `tone`) → Template → End (`reply`, `chars`): a workflow that is not an LLM chat. */
function rewriteGraph() {
  return {
    nodes: [
      node('start', 'start', {
        inputs: [
          { name: 'text', type: 'string', required: true, description: 'The text to rewrite' },
          { name: 'tone', type: 'string', required: false, default: 'polite' },
        ],
      }),
      node('tpl', 'template', { template: '[{{inputs.tone}}] {{inputs.text}}' }, 200),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'reply', value: '{{tpl.output.text}}' },
            { name: 'tone', value: '{{inputs.tone}}' },
          ],
        },
        400,
      ),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'tpl' },
      { id: 'e2', source: 'tpl', target: 'end' },
    ],
  };
}

async function connectMcp(key: string): Promise<McpClient> {
  const client = new McpClient({ name: 'acceptance-mcp-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

describe('the official openai SDK and MCP client against published workflows', () => {
  let qa: Published;
  let rewrite: Published;
  /** What the workflow answers QUESTION through its own endpoint (the demo model is deterministic). */
  let expected: string;
  let openai: OpenAI;
  const mcpClients: McpClient[] = [];

  beforeAll(async () => {
    qa = await publishWithKey(api, `Delivery desk ${Date.now()}`, questionAnswerGraph());
    rewrite = await publishWithKey(api, `Rewrite politely ${Date.now()}`, rewriteGraph());
    const r = await keyClient(api, qa.key).post(`/api/v1/workflows/${qa.slug}/run`, {
      inputs: { question: QUESTION },
      mode: 'sync',
    });
    expect(r.status, r.text).toBe(200);
    expected = r.body.outputs.answer;
    expect(expected).toContain(`You said: "${QUESTION}"`);
    openai = new OpenAI({ baseURL: `${baseURL}/api/v1`, apiKey: qa.key, maxRetries: 0 });
  });

  afterAll(async () => {
    for (const c of mcpClients) await c.close().catch(() => {});
  });

  it('chat.completions.create runs the workflow: the last user message in, the End answer out', async () => {
    const completion = await openai.chat.completions.create({
      model: qa.slug,
      messages: [
        { role: 'system', content: 'You are the delivery desk.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi, how can I help?' },
        { role: 'user', content: QUESTION },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(qa.slug);
    expect(completion.id).toMatch(/^chatcmpl-run_/);
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: expected });
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    // It was an ordinary published run: the owner finds it with the user's question as its input.
    const runId = completion.id.replace(/^chatcmpl-/, '');
    const run = await api.expectStatus(api.get(`/api/runs/${runId}`), 200);
    expect(run).toMatchObject({ status: 'succeeded', inputs: { question: QUESTION }, outputs: { answer: expected } });
  });

  it('chat.completions.create with stream: true streams the tokens as deltas that add up to the answer', async () => {
    const stream = await openai.chat.completions.create({
      model: qa.slug,
      messages: [{ role: 'user', content: QUESTION }],
      stream: true,
    });
    const deltas: string[] = [];
    const finishes: Array<string | null> = [];
    let role: string | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe(qa.slug);
      const choice = chunk.choices[0];
      if (!choice) continue;
      role ??= choice.delta.role;
      if (choice.delta.content) deltas.push(choice.delta.content);
      finishes.push(choice.finish_reason);
    }
    expect(role).toBe('assistant');
    expect(deltas.join('')).toBe(expected);
    // The LLM's tokens, not one block at the end.
    expect(deltas.length).toBeGreaterThan(1);
    expect(finishes.at(-1)).toBe('stop');
    expect(finishes.slice(0, -1).every((f) => f === null)).toBe(true);
  });

  it('models.list() lists the workflows the key can call, by slug', async () => {
    const models = [];
    for await (const m of openai.models.list()) models.push(m);
    expect(models.map((m) => m.id)).toEqual([qa.slug]);
    expect(models[0]).toMatchObject({ object: 'model', owned_by: 'paiflow' });
    expect(models[0].created).toBeGreaterThan(0);
    const other = new OpenAI({ baseURL: `${baseURL}/api/v1`, apiKey: rewrite.key, maxRetries: 0 });
    const theirs = [];
    for await (const m of other.models.list()) theirs.push(m.id);
    expect(theirs).toEqual([rewrite.slug]);
  });

  it('maps a chat onto a workflow without an LLM: the message into its text input, its reply output back', async () => {
    const other = new OpenAI({ baseURL: `${baseURL}/api/v1`, apiKey: rewrite.key, maxRetries: 0 });
    const completion = await other.chat.completions.create({
      model: rewrite.slug,
      messages: [{ role: 'user', content: 'send it back' }],
    });
    expect(completion.choices[0].message.content).toBe('[polite] send it back');
  });

  it("refuses the SDK with OpenAI-shaped errors: a wrong key (401) and another workflow's model (403)", async () => {
    const wrong = new OpenAI({ baseURL: `${baseURL}/api/v1`, apiKey: 'pf_' + 'x'.repeat(43), maxRetries: 0 });
    const e401 = await wrong.chat.completions
      .create({ model: qa.slug, messages: [{ role: 'user', content: QUESTION }] })
      .catch((e) => e);
    expect(e401).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(e401.status).toBe(401);
    const e403 = await openai.chat.completions
      .create({ model: rewrite.slug, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e);
    expect(e403).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(e403.status).toBe(403);
    expect(e403.error).toMatchObject({ type: expect.any(String), code: 'FORBIDDEN' });
  });

  it('offers a published workflow over MCP only once it is opted in', async () => {
    const before = await connectMcp(qa.key);
    mcpClients.push(before);
    expect((await before.listTools()).tools).toEqual([]);
    await before.close();

    const patched = await api.expectStatus(api.patch(`/api/workflows/${qa.workflowId}/publish`, { mcp: true }), 200);
    expect(patched).toMatchObject({ mcp: true, mcpUrl: `${baseURL}/api/mcp` });

    const client = await connectMcp(qa.key);
    mcpClients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([qa.slug]);
    expect(tools[0].inputSchema).toMatchObject({
      type: 'object',
      properties: { question: { type: 'string', description: 'What the customer asks' } },
      required: ['question'],
    });
    expect(Object.keys(tools[0].outputSchema?.properties ?? {})).toEqual(['answer']);
  });

  it('callTool runs the workflow and returns the End outputs, as text and structured content', async () => {
    const client = await connectMcp(qa.key);
    mcpClients.push(client);
    const result = await client.callTool({ name: qa.slug, arguments: { question: QUESTION } });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ answer: expected });
    const content = result.content as Array<{ type: string; text: string }>;
    expect(content[0].type).toBe('text');
    expect(JSON.parse(content[0].text)).toEqual({ answer: expected });
    expect(expected).toContain(DEMO_PREFIX);
    // Recorded as an MCP-triggered run of the published version.
    const runId = (result._meta as Record<string, string>)['paiflow/runId'];
    const history = await api.expectStatus(api.get(`/api/workflows/${qa.workflowId}/runs`), 200);
    expect(history.find((h: any) => h.id === runId)).toMatchObject({ trigger: 'mcp', status: 'succeeded' });
    // Arguments the Start node refuses come back as an error result the model can read, not a crash.
    const bad = await client.callTool({ name: qa.slug, arguments: {} });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('question');
  });

  it("does not show or run a workflow for another workflow's key", async () => {
    await api.expectStatus(api.patch(`/api/workflows/${rewrite.workflowId}/publish`, { mcp: true }), 200);
    const client = await connectMcp(rewrite.key);
    mcpClients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([rewrite.slug]);
    expect(tools[0].inputSchema).toMatchObject({
      properties: { text: { type: 'string' }, tone: { type: 'string', default: 'polite' } },
      required: ['text'],
    });
    await expect(client.callTool({ name: qa.slug, arguments: { question: QUESTION } })).rejects.toThrow(/Unknown tool/);
    const own = await client.callTool({ name: rewrite.slug, arguments: { text: 'hello', tone: 'warm' } });
    expect(own.structuredContent).toEqual({ reply: '[warm] hello', tone: 'warm' });
  });

  it('refuses an MCP client without a valid key before any MCP, and a revoked key on its next request', async () => {
    const wrong = new McpClient({ name: 'acceptance-mcp-client', version: '1.0.0' });
    await expect(
      wrong.connect(
        new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), {
          requestInit: { headers: { authorization: `Bearer pf_${'y'.repeat(43)}` } },
        }),
      ),
    ).rejects.toThrow();
    const extra = await api.expectStatus(api.post(`/api/workflows/${qa.workflowId}/api-keys`, { name: 'mcp' }), 201);
    const client = await connectMcp(extra.key);
    mcpClients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([qa.slug]);
    await api.expectStatus(api.delete(`/api/api-keys/${extra.id}`), 200);
    await expect(client.listTools()).rejects.toThrow();
    // On the wire: a plain HTTP 401 with a Bearer challenge.
    const raw = await fetch(`${baseURL}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${extra.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});
