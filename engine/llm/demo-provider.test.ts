import { describe, expect, it } from 'vitest';
import { DEMO_PREFIX, DemoProvider } from './demo-provider';
import type { ChatRequest } from './types';

const demo = new DemoProvider();
const req = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: '',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content },
  ],
  ...extra,
});
const tools = [{ name: 'search', description: 'search the web', parameters: { type: 'object' } }];

describe('DemoProvider', () => {
  it('is labelled as an offline demo', async () => {
    expect(demo.id).toBe('demo');
    expect(demo.label).toBe('PaiFlow demo model (offline, deterministic — not a real LLM)');
    const res = await demo.chat(req('Summarise the quarterly report'));
    expect(res.text.startsWith(DEMO_PREFIX)).toBe(true);
    expect(res.text).toContain('Summarise the quarterly report');
    expect(res.text).toContain('4 words');
    expect(res).toMatchObject({ provider: 'demo', model: 'demo', toolCalls: [], finishReason: 'stop' });
    expect(res.usage.inputTokens).toBe(Math.ceil(('sys'.length + 'Summarise the quarterly report'.length) / 4));
    expect(res.usage.outputTokens).toBe(Math.ceil(res.text.length / 4));
  });

  it('answers a grounded prompt from its first cited passage, with the citation', async () => {
    const system =
      'Answer ONLY from the context below. Cite the sources you use as [n].\n\nContext:\n' +
      '[1] returns (p. 2)\nCustomers may return an item within 30 days. Refunds follow.\n\n[2] shipping\nParcels ship.';
    const res = await demo.chat({
      model: '',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'q' },
      ],
    });
    expect(res.text).toBe(`${DEMO_PREFIX} From returns: "Customers may return an item within 30 days." [1]`);
    const zh = await demo.chat({
      model: '',
      messages: [
        { role: 'system', content: 'Context:\n[1] 退款政策\n款项将在七个工作日内退回。其他说明。' },
        { role: 'user', content: '退款多久到账' },
      ],
    });
    expect(zh.text).toBe(`${DEMO_PREFIX} From 退款政策: "款项将在七个工作日内退回。" [1]`);
  });

  it('is deterministic and input-sensitive', async () => {
    const a = await demo.chat(req('hello world'));
    const b = await new DemoProvider().chat(req('hello world'));
    const c = await demo.chat(req('hello world!'));
    expect(a).toEqual(b);
    expect(a.text).toMatch(/fingerprint [0-9a-f]{8}/);
    expect(c.text).not.toBe(a.text);
    expect((await demo.chat(req('x', { model: 'gpt-4o' }))).model).toBe('gpt-4o');
  });

  it('streams word-by-word tokens that join to the text', async () => {
    const tokens: string[] = [];
    const res = await demo.chat(req('stream me please', { onToken: (t) => tokens.push(t) }));
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toBe(res.text);
  });

  it('throws AbortError when aborted mid-stream', async () => {
    const ac = new AbortController();
    let n = 0;
    const err = await demo
      .chat(req('abort me', { signal: ac.signal, onToken: () => void (++n === 2 && ac.abort()) }))
      .catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(n).toBe(2);
  });

  it('returns valid JSON in jsonMode', async () => {
    const res = await demo.chat(req('give json', { jsonMode: true }));
    expect(JSON.parse(res.text)).toMatchObject({ demo: true, echo: 'give json', words: 2 });
  });

  it('turns a call: line into a tool call, then summarises the tool result', async () => {
    const first = await demo.chat(req('please look this up\ncall:search {"q":"paris"}', { tools }));
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0]).toMatchObject({ name: 'search', arguments: '{"q":"paris"}' });
    expect(first.toolCalls[0].id).toMatch(/^call_demo_[0-9a-f]{8}$/);

    const second = await demo.chat({
      model: 'demo',
      tools,
      messages: [
        { role: 'user', content: 'call:search {"q":"paris"}' },
        { role: 'assistant', content: null, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: first.toolCalls[0].id, content: 'Paris is the capital of France.' },
      ],
    });
    expect(second.toolCalls).toEqual([]);
    expect(second.text).toContain(DEMO_PREFIX);
    expect(second.text).toContain('search returned: Paris is the capital of France.');
  });

  it('ignores call: lines without tools or for unknown tools', async () => {
    expect((await demo.chat(req('call:search {"q":1}'))).toolCalls).toEqual([]);
    expect((await demo.chat(req('call:other {}', { tools }))).toolCalls).toEqual([]);
  });
});
