// Exercises OpenAiCompatibleProvider through the real `openai` SDK over real HTTP against a local fake server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../test/support/fake-openai-server';
import { PaiError } from '../errors';
import { OpenAiCompatibleProvider } from './openai-provider';
import type { ChatRequest } from './types';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let fake: FakeOpenAi;
const provider = (o: { maxRetries?: number; timeoutMs?: number } = {}) =>
  new OpenAiCompatibleProvider({
    apiKey: KEY,
    baseURL: fake.baseURL,
    maxRetries: o.maxRetries ?? 0,
    timeoutMs: o.timeoutMs ?? 5000,
  });
const req = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-test',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'hello there' },
  ],
  ...extra,
});
const tools = [
  { name: 'add', description: 'adds', parameters: { type: 'object', properties: { a: { type: 'number' } } } },
];
const twoCalls = [
  { id: 'call_a', name: 'add', arguments: { a: 1, b: 2 } },
  { id: 'call_b', name: 'lookup', arguments: '{"q":"paris weather"}' },
];

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

describe('OpenAiCompatibleProvider', () => {
  it('has id and a label with the host', () => {
    const p = provider();
    expect(p.id).toBe('openai-compatible');
    expect(p.label).toContain(new URL(fake.baseURL).host);
    expect(p.label).not.toContain(KEY);
  });

  it('returns text and usage for a plain completion', async () => {
    fake.script({ text: 'Hi! How can I help?', usage: { prompt_tokens: 12, completion_tokens: 5 } });
    const res = await provider().chat(req({ temperature: 0.2, maxTokens: 50 }));
    expect(res).toMatchObject({
      text: 'Hi! How can I help?',
      toolCalls: [],
      model: 'gpt-test',
      provider: 'openai-compatible',
      finishReason: 'stop',
    });
    expect(res.usage).toEqual({ inputTokens: 12, outputTokens: 5, cachedTokens: 0, costUsd: null });
    const body = fake.requests[0];
    expect(body).toMatchObject({ model: 'gpt-test', temperature: 0.2, max_tokens: 50 });
    expect(body.stream).toBeFalsy();
    expect(body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hello there' },
    ]);
  });

  it('streams tokens in order; they join to the final text; usage present', async () => {
    fake.script({ text: 'one two three four five', usage: { prompt_tokens: 7, completion_tokens: 5 } });
    const tokens: string[] = [];
    const res = await provider().chat(req({ onToken: (t) => tokens.push(t) }));
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe('one two three four five');
    expect(res.text).toBe('one two three four five');
    expect(res.usage).toMatchObject({ inputTokens: 7, outputTokens: 5 });
    expect(fake.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('maps messages with tool calls and tool results to the wire shape', async () => {
    await provider().chat(
      req({
        tools,
        messages: [
          { role: 'user', content: 'add' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":1}' }] },
          { role: 'tool', toolCallId: 'c1', content: '1' },
        ],
      }),
    );
    const body = fake.requests[0];
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'add', description: 'adds', parameters: tools[0].parameters } },
    ]);
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
    });
    expect(body.messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '1' });
  });

  it.each([false, true])('assembles two tool calls (streaming=%s)', async (streaming) => {
    fake.script({ toolCalls: twoCalls });
    const tokens: string[] = [];
    const res = await provider().chat(req({ tools, ...(streaming ? { onToken: (t: string) => tokens.push(t) } : {}) }));
    expect(res.finishReason).toBe('tool_calls');
    expect(res.text).toBe('');
    expect(res.toolCalls).toEqual([
      { id: 'call_a', name: 'add', arguments: '{"a":1,"b":2}' },
      { id: 'call_b', name: 'lookup', arguments: '{"q":"paris weather"}' },
    ]);
    expect(tokens).toEqual([]);
  });

  it('sends response_format json_object in jsonMode', async () => {
    fake.script({ text: '{"ok":true}' });
    const res = await provider().chat(req({ jsonMode: true }));
    expect(JSON.parse(res.text)).toEqual({ ok: true });
    expect(fake.requests[0].response_format).toEqual({ type: 'json_object' });
  });

  it('succeeds after a 429 when the SDK may retry', async () => {
    fake.script({ status: 429 }, { text: 'after retry' });
    const res = await provider({ maxRetries: 1 }).chat(req());
    expect(res.text).toBe('after retry');
    expect(fake.requests).toHaveLength(2);
  });

  it('maps 429 without retries to LLM_RATE_LIMITED (retryable)', async () => {
    fake.script({ status: 429 });
    const err = await provider()
      .chat(req())
      .catch((e) => e);
    expect(err).toBeInstanceOf(PaiError);
    expect(err).toMatchObject({ code: 'LLM_RATE_LIMITED', retryable: true });
  });

  it('maps 5xx to LLM_UNAVAILABLE (retryable)', async () => {
    fake.script({ status: 503 });
    const err = await provider()
      .chat(req({ onToken: () => {} }))
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
  });

  it('maps 401 to LLM_AUTH without leaking the key', async () => {
    fake.script({ status: 401 });
    const err = await provider()
      .chat(req())
      .catch((e) => e);
    expect(err).toBeInstanceOf(PaiError);
    expect(err).toMatchObject({ code: 'LLM_AUTH', retryable: false });
    expect(JSON.stringify({ m: err.message, j: err.toJSON(), s: String(err) })).not.toContain(KEY);
    expect(err.message).not.toContain('SECRET');
  });

  it('maps connection failures to LLM_UNAVAILABLE', async () => {
    const p = new OpenAiCompatibleProvider({ apiKey: KEY, baseURL: 'http://127.0.0.1:1/v1', maxRetries: 0 });
    const err = await p.chat(req()).catch((e) => e);
    expect(err).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
    expect(err.message).not.toContain(KEY);
  });

  it('maps a timeout to LLM_UNAVAILABLE', async () => {
    fake.script({ text: 'late', hang: true });
    const err = await provider({ timeoutMs: 100 })
      .chat(req())
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
  });

  it('aborts promptly mid-stream (stalled stream)', async () => {
    fake.script({ text: 'alpha beta gamma delta', hang: true });
    const ac = new AbortController();
    const tokens: string[] = [];
    const started = Date.now();
    const p = provider().chat(
      req({
        signal: ac.signal,
        onToken: (t) => {
          tokens.push(t);
          ac.abort();
        },
      }),
    );
    const err = await p.catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('AbortError');
    expect(tokens).toEqual(['alpha ']);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('aborts promptly between slow chunks', async () => {
    fake.script({ text: 'a b c d e f g h', chunkDelayMs: 200 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const started = Date.now();
    const err = await provider()
      .chat(req({ signal: ac.signal, onToken: () => {} }))
      .catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('rejects with AbortError when aborted before the response (non-streaming)', async () => {
    fake.script({ text: 'x', delayMs: 5000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const err = await provider()
      .chat(req({ signal: ac.signal }))
      .catch((e) => e);
    expect(err.name).toBe('AbortError');
  });
});
