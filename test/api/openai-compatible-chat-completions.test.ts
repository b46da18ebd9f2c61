// Guarantees: POST /api/v1/chat/completions lets the official `openai` SDK call a published workflow (model = slug,
// apiKey = one of its keys) over a real socket: the last user message reaches the workflow's message input (or the
// whole array its `messages` input), the answer is the end output, streaming forwards the LLM node's live tokens and
// joins to the same content, and PaiFlow's errors surface as the SDK's typed errors (401 / 403 / 404 / 400 / 422),
// with 202 RUN_PENDING for a run that cannot finish synchronously.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { contentFromOutputs, inputsFromMessages, streamingSources } from '@/lib/server/chat-completions';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { useFreshDataDir } from './api-helpers';

useFreshDataDir('paiflow-chat-');
process.env.SEED_EXAMPLE = '0';

let srv: RouteServer;

async function json(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.baseUrl}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

const node = (id: string, type: string, config: unknown, x = 0) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { config },
});
const chain = (...ids: string[]) => ids.slice(1).map((id, i) => ({ id: `e${i}`, source: ids[i], target: id }));

/** Creates, publishes and mints a key; returns the slug and the key. */
async function publish(name: string, nodes: unknown[], edgeIds: string[]) {
  const wf = await json('POST', '/api/workflows', { name, graph: { nodes, edges: chain(...edgeIds) } });
  expect(wf.status, wf.text).toBe(201);
  const p = await json('POST', `/api/workflows/${wf.body.id}/publish`);
  expect(p.status, p.text).toBe(201);
  const k = await json('POST', `/api/workflows/${wf.body.id}/api-keys`, { name: 'chat' });
  expect(k.status, k.text).toBe(201);
  return { slug: p.body.slug as string, key: k.body.key as string };
}

const messageStart = (extra: unknown[] = []) =>
  node('start', 'start', { inputs: [{ name: 'message', type: 'string', required: true }, ...extra] });

let echo: { slug: string; key: string };
let llm: { slug: string; key: string };
let whole: { slug: string; key: string };
let failing: { slug: string; key: string };
let needsMore: { slug: string; key: string };
let paused: { slug: string; key: string };
const client = (key: string) =>
  new OpenAI({ baseURL: `${srv.baseUrl}/api/v1`, apiKey: key, maxRetries: 0, timeout: 30_000 });

beforeAll(async () => {
  await getApp();
  srv = await startRouteServer();
  echo = await publish(
    'Chat echo',
    [
      messageStart(),
      node('t1', 'template', { template: 'You said: {{inputs.message}}', format: 'text' }, 200),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{t1.output.text}}' }] }, 400),
    ],
    ['start', 't1', 'end'],
  );
  llm = await publish(
    'Chat llm',
    [
      messageStart(),
      node(
        'reply',
        'llm',
        { model: 'demo', systemPrompt: 'Be brief.', userPrompt: '{{inputs.message}}', temperature: 0 },
        200,
      ),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'model', value: '{{reply.output.model}}' },
            { name: 'answer', value: '{{reply.output.text}}' },
          ],
        },
        400,
      ),
    ],
    ['start', 'reply', 'end'],
  );
  whole = await publish(
    'Chat whole history',
    [
      node('start', 'start', { inputs: [{ name: 'messages', type: 'array', required: true }] }),
      node(
        't1',
        'template',
        {
          template:
            '{{inputs.messages[0].content}} | {{inputs.messages[1].role}}: {{inputs.messages[1].content}} | n={{inputs.messages[2].content}}',
          format: 'text',
        },
        200,
      ),
      node('end', 'end', { outputs: [{ name: 'text', value: '{{t1.output.text}}' }] }, 400),
    ],
    ['start', 't1', 'end'],
  );
  // Fails at run time: the LLM node's API-key secret is not configured.
  failing = await publish(
    'Chat failing',
    [
      messageStart(),
      node(
        'reply',
        'llm',
        { userPrompt: '{{inputs.message}}', provider: { apiKeySecret: 'CHAT_TEST_MISSING_SECRET' } },
        200,
      ),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{reply.output.text}}' }] }, 400),
    ],
    ['start', 'reply', 'end'],
  );
  needsMore = await publish(
    'Chat needs more',
    [
      node('start', 'start', {
        inputs: [
          { name: 'question', type: 'string', required: true },
          { name: 'language', type: 'string', required: true },
        ],
      }),
      node('t1', 'template', { template: '{{inputs.language}}: {{inputs.question}}', format: 'text' }, 200),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{t1.output.text}}' }] }, 400),
    ],
    ['start', 't1', 'end'],
  );
  paused = await publish(
    'Chat paused',
    [
      messageStart(),
      node('ask', 'human_input', { prompt: 'Approve {{inputs.message}}?', answerType: 'text' }, 200),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{ask.output.answer}}' }] }, 400),
    ],
    ['start', 'ask', 'end'],
  );
});

afterAll(async () => {
  await srv?.close();
  await (await getApp()).close();
});

describe('the official openai SDK against a published workflow', () => {
  it('non-stream: the last user message in, the end output out, as a chat.completion', async () => {
    const c = await client(echo.key).chat.completions.create({
      model: echo.slug,
      messages: [
        { role: 'system', content: 'ignored by this workflow' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.2,
      max_tokens: 50,
      user: 'u-1', // accepted and ignored
    });
    expect(c.choices[0].message).toMatchObject({ role: 'assistant', content: 'You said: hi' });
    expect(c.choices[0].finish_reason).toBe('stop');
    expect(c.id).toMatch(/^chatcmpl-/);
    expect(c.object).toBe('chat.completion');
    expect(c.model).toBe(echo.slug);
    expect(c.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }); // a template node uses no tokens
    // The id names the run, which the run API can read with the same key.
    const run = await json('GET', `/api/v1/runs/${c.id.slice('chatcmpl-'.length)}`, undefined, {
      authorization: `Bearer ${echo.key}`,
    });
    expect(run.body).toMatchObject({ status: 'succeeded', outputs: { answer: 'You said: hi' } });
  });

  it('text content parts are joined; the x-run-id header names the run', async () => {
    const { data, response } = await client(echo.key)
      .chat.completions.create({
        model: echo.slug,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'multi' },
              { type: 'text', text: 'part' },
            ],
          },
        ],
      })
      .withResponse();
    expect(data.choices[0].message.content).toBe('You said: multi\npart');
    expect(`chatcmpl-${response.headers.get('x-run-id')}`).toBe(data.id);
  });

  it('stream: a role chunk, content deltas, a stop chunk; the deltas join to the non-stream content', async () => {
    const messages = [{ role: 'user' as const, content: 'stream me' }];
    const plain = await client(echo.key).chat.completions.create({ model: echo.slug, messages });
    const stream = await client(echo.key).chat.completions.create({ model: echo.slug, messages, stream: true });
    const chunks = [];
    for await (const ch of stream) chunks.push(ch);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant' });
    expect(
      chunks.every(
        (c) => c.object === 'chat.completion.chunk' && c.id.startsWith('chatcmpl-') && c.model === echo.slug,
      ),
    ).toBe(true);
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe(plain.choices[0].message.content);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
  });

  it('stream from an LLM node: its live tokens arrive as several content chunks and join to the same content', async () => {
    const messages = [{ role: 'user' as const, content: 'tell me something about streaming tokens' }];
    const plain = await client(llm.key).chat.completions.create({ model: llm.slug, messages });
    const content = plain.choices[0].message.content!;
    expect(content).toContain('[PaiFlow demo model');
    expect(content).toContain('tell me something about streaming tokens');
    expect(plain.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(plain.usage!.completion_tokens).toBeGreaterThan(0);
    expect(plain.usage!.total_tokens).toBe(plain.usage!.prompt_tokens + plain.usage!.completion_tokens);

    const deltas: string[] = [];
    let usage;
    for await (const ch of await client(llm.key).chat.completions.create({ model: llm.slug, messages, stream: true })) {
      if (ch.choices[0]?.delta.content) deltas.push(ch.choices[0].delta.content);
      if (ch.usage) usage = ch.usage;
    }
    expect(deltas.length).toBeGreaterThan(5); // word by word, not one final piece
    expect(deltas.join('')).toBe(content);
    expect(usage).toEqual(plain.usage);
  });

  it('a client that stops reading ends its stream, not the run', async () => {
    const { data: stream, response } = await client(llm.key)
      .chat.completions.create({
        model: llm.slug,
        messages: [{ role: 'user', content: 'stop after the first words' }],
        stream: true,
      })
      .withResponse();
    for await (const ch of stream) if (ch.choices[0]?.delta.content) break; // aborts the request
    const runUrl = `/api/v1/runs/${response.headers.get('x-run-id')}`;
    let run = await json('GET', runUrl, undefined, { authorization: `Bearer ${llm.key}` });
    for (const until = Date.now() + 20_000; run.body.status !== 'succeeded' && Date.now() < until;) {
      await new Promise((ok) => setTimeout(ok, 50));
      run = await json('GET', runUrl, undefined, { authorization: `Bearer ${llm.key}` });
    }
    expect(run.body).toMatchObject({
      status: 'succeeded',
      outputs: { answer: expect.stringContaining('stop after the first words') },
    });
  });

  it('a workflow with a `messages` input receives the whole array', async () => {
    const c = await client(whole.key).chat.completions.create({
      model: whole.slug,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'question' },
        { role: 'assistant', content: 'three' },
      ],
    });
    expect(c.choices[0].message.content).toBe('sys | user: question | n=three');
  });

  it('Idempotency-Key: a repeat answers the same run', async () => {
    const req = { model: echo.slug, messages: [{ role: 'user' as const, content: 'once' }] };
    const a = await client(echo.key).chat.completions.create(req, { headers: { 'Idempotency-Key': 'chat-once' } });
    const b = await client(echo.key).chat.completions.create(req, { headers: { 'Idempotency-Key': 'chat-once' } });
    expect(b.id).toBe(a.id);
    const other = await client(echo.key).chat.completions.create(req);
    expect(other.id).not.toBe(a.id);
  });
});

describe("errors are the SDK's typed errors, with PaiFlow's code and a message", () => {
  const rejects = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => null,
      (x) => x,
    );
    expect(e, 'the call should have failed').toBeInstanceOf(OpenAI.APIError);
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
    return e as InstanceType<typeof OpenAI.APIError>;
  };
  const hi = [{ role: 'user' as const, content: 'hi' }];

  it('a wrong key → AuthenticationError (401)', async () => {
    const e = await rejects(client(`pf_${'x'.repeat(43)}`).chat.completions.create({ model: echo.slug, messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(e.status).toBe(401);
    expect(e.type).toBe('authentication_error');
    expect(e.code).toBe('UNAUTHORIZED');
    const junk = await rejects(
      client('sk-not-a-paiflow-key').chat.completions.create({ model: echo.slug, messages: hi }),
    );
    expect(junk).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('no key at all → 401 with a Bearer challenge', async () => {
    const r = await json('POST', '/api/v1/chat/completions', { model: echo.slug, messages: hi });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(r.body.error).toMatchObject({ code: 'UNAUTHORIZED', type: 'authentication_error' });
  });

  it('an unknown model → NotFoundError (404)', async () => {
    const e = await rejects(client(echo.key).chat.completions.create({ model: 'no-such-workflow', messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.NotFoundError);
    expect(e.status).toBe(404);
    expect(e.type).toBe('not_found_error');
    expect(e.message).toContain('no-such-workflow');
  });

  it('the key of another workflow → PermissionDeniedError (403)', async () => {
    const e = await rejects(client(llm.key).chat.completions.create({ model: echo.slug, messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(e.status).toBe(403);
    expect(e.type).toBe('permission_error');
  });

  it('empty messages, or no user message → BadRequestError (400) with a path', async () => {
    const e = await rejects(client(echo.key).chat.completions.create({ model: echo.slug, messages: [] }));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.status).toBe(400);
    expect(e.type).toBe('invalid_request_error');
    expect(e.param).toBe('messages');
    expect((e.error as any).path).toBe('messages');
    const noUser = await rejects(
      client(echo.key).chat.completions.create({ model: echo.slug, messages: [{ role: 'system', content: 'only' }] }),
    );
    expect(noUser).toBeInstanceOf(OpenAI.BadRequestError);
    expect(noUser.message).toMatch(/user/);
    const r = await json(
      'POST',
      '/api/v1/chat/completions',
      { model: echo.slug, messages: [{ role: 'wizard', content: 'x' }] },
      { authorization: `Bearer ${echo.key}` },
    );
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      path: 'messages[0].role',
      type: 'invalid_request_error',
    });
    const noModel = await json(
      'POST',
      '/api/v1/chat/completions',
      { messages: hi },
      { authorization: `Bearer ${echo.key}` },
    );
    expect(noModel.status).toBe(400);
    expect(noModel.body.error).toMatchObject({ path: 'model', type: 'invalid_request_error' });
  });

  it('another required input the messages cannot fill → 400 MISSING_INPUT, as on the run endpoint', async () => {
    const e = await rejects(client(needsMore.key).chat.completions.create({ model: needsMore.slug, messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.code).toBe('MISSING_INPUT');
    expect((e.error as any).path).toBe('inputs.language');
  });

  it('a failed run → UnprocessableEntityError (422 RUN_FAILED) naming the run and its error; streamed: an error line', async () => {
    const e = await rejects(client(failing.key).chat.completions.create({ model: failing.slug, messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect(e.code).toBe('RUN_FAILED');
    const runId = e.headers?.get('x-run-id');
    expect(runId).toBeTruthy();
    expect(e.message).toContain(runId!);
    expect(e.message).toContain('CHAT_TEST_MISSING_SECRET');

    const stream = await client(failing.key).chat.completions.create({
      model: failing.slug,
      messages: hi,
      stream: true,
    });
    const seen: unknown[] = [];
    const err = await (async () => {
      for await (const ch of stream) seen.push(ch);
    })().then(
      () => null,
      (x) => x,
    );
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.message).toContain('CHAT_TEST_MISSING_SECRET');
    expect(err.error).toMatchObject({ code: 'RUN_FAILED' });
    expect(seen.some((c: any) => c.choices[0]?.finish_reason === 'stop')).toBe(false);
  });

  it('a run that cannot finish now (paused on human input) → 202 RUN_PENDING with a statusUrl to poll', async () => {
    const r = await json(
      'POST',
      '/api/v1/chat/completions',
      { model: paused.slug, messages: hi },
      { authorization: `Bearer ${paused.key}` },
    );
    expect(r.status, r.text).toBe(202);
    expect(r.body.error).toMatchObject({ code: 'RUN_PENDING', status: 'waiting' });
    expect(r.body.error.statusUrl).toBe(`${srv.baseUrl}/api/v1/runs/${r.headers.get('x-run-id')}`);
    expect(r.headers.get('location')).toBe(r.body.error.statusUrl);
    const poll = await json('GET', new URL(r.body.error.statusUrl).pathname, undefined, {
      authorization: `Bearer ${paused.key}`,
    });
    expect(poll.body.status).toBe('waiting');
  });

  it('the CORS preflight answers without a key', async () => {
    const pre = await fetch(`${srv.baseUrl}/api/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
  });
});

describe('mapping rules', () => {
  const msgs = [
    { role: 'user' as const, content: 'first' },
    { role: 'assistant' as const, content: 'a' },
    { role: 'user' as const, content: 'last' },
  ];
  const d = (name: string, type: 'string' | 'array' | 'number' = 'string', required = true) => ({
    name,
    type,
    required,
  });

  it('messages → inputs: by name preference, else the first required string, else the first string', () => {
    expect(inputsFromMessages([d('text'), d('query')], msgs, msgs)).toEqual({ query: 'last' });
    expect(inputsFromMessages([d('count', 'number'), d('topic', 'string', false), d('subject')], msgs, msgs)).toEqual({
      subject: 'last',
    });
    expect(inputsFromMessages([d('count', 'number'), d('topic', 'string', false)], msgs, msgs)).toEqual({
      topic: 'last',
    });
    expect(inputsFromMessages([d('messages', 'array'), d('prompt')], msgs, msgs)).toEqual({
      messages: msgs,
      prompt: 'last',
    });
    expect(inputsFromMessages([d('messages', 'string')], msgs, msgs)).toEqual({ messages: JSON.stringify(msgs) });
    expect(inputsFromMessages([], msgs, msgs)).toEqual({});
  });

  it('outputs → content: by name preference, else the first string, else JSON', () => {
    expect(contentFromOutputs({ text: 't', answer: 'a' })).toBe('a');
    expect(contentFromOutputs({ answer: null, reply: 'r' })).toBe('r');
    expect(contentFromOutputs({ n: 1, summary: 's' })).toBe('s');
    expect(contentFromOutputs({ answer: { x: 1 } })).toBe('{"x":1}');
    expect(contentFromOutputs({ n: 1 })).toBe('{"n":1}');
  });

  it('streaming source: the node the chosen output is exactly {{node.output.text}} of', () => {
    const g = (value: string, name = 'answer') =>
      ({
        nodes: [
          node('end', 'end', {
            outputs: [
              { name: 'x', value: '{{a.output.text}}' },
              { name, value },
            ],
          }),
        ],
        edges: [],
      }) as any;
    expect(streamingSources(g('{{reply.output.text}}'))).toEqual(['reply']);
    expect(streamingSources(g('{{ r1.output.text || r2.output.text }}'))).toEqual(['r1', 'r2']);
    expect(streamingSources(g('Answer: {{reply.output.text}}'))).toEqual([]);
    expect(streamingSources(g('{{reply.output}}'))).toEqual([]);
    expect(streamingSources(g('{{b.output.text}}', 'other'))).toEqual(['a']); // no preferred name: the first output
  });
});
