// Guarantees: POST /api/v1/chat/completions lets the official `openai` SDK call a published workflow (model = slug,
// apiKey = one of its keys) over a real socket: the last user message reaches the workflow's message input (or the
// whole array its `messages` input), the answer is the end output, and streaming forwards the LLM node's live tokens
// and joins to the same content. Errors: chat-completion-errors-are-the-sdks-typed-errors.test.ts.
import { describe, expect, it } from 'vitest';
import { contentFromOutputs, inputsFromMessages, streamingSources } from '@/lib/server/chat-completions/handler';
import { client, echo, json, llm, node, useChatServer, whole } from './chat-completions-fixtures';

useChatServer();

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
    // A template node uses no tokens.
    expect(c.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
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

  it(
    'stream from an LLM node: its live tokens arrive as several content chunks ' + 'and join to the same content',
    async () => {
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
      for await (const ch of await client(llm.key).chat.completions.create({
        model: llm.slug,
        messages,
        stream: true,
      })) {
        if (ch.choices[0]?.delta.content) deltas.push(ch.choices[0].delta.content);
        if (ch.usage) usage = ch.usage;
      }
      expect(deltas.length).toBeGreaterThan(5); // word by word, not one final piece
      expect(deltas.join('')).toBe(content);
      expect(usage).toEqual(plain.usage);
    },
  );

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
