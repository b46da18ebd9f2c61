// Guarantees: asked for structured output, the offline demo model answers JSON only (no demo prefix, nothing appended)
// with the schema filled from the last user message: a choice takes the option sharing most words with it (Chinese:
// characters), else "other"; values are read after their name, else by type in the order they appear; what is not
// there is empty (required) or null (optional). The same request always gets the same answer.
import { describe, expect, it } from 'vitest';
import { DemoProvider } from './demo-provider';
import { demoStructured, overlapTokens } from './demo-structured';

const choice = {
  type: 'object',
  properties: {
    class_id: {
      type: 'string',
      anyOf: [
        { const: 'billing', title: 'Billing', description: 'invoices, payments, charges' },
        { const: 'tech', title: 'Technical problem', description: 'errors, crashes, login' },
        { const: 'other', title: 'none of the classes' },
      ],
    },
  },
  required: ['class_id'],
};

describe('the demo model’s structured answers', () => {
  it('answer JSON only, the same each time, even after earlier turns', async () => {
    const demo = new DemoProvider();
    const req = {
      model: 'demo',
      messages: [
        { role: 'system' as const, content: 'Classify.' },
        { role: 'user' as const, content: 'hi' },
        { role: 'assistant' as const, content: 'hello' },
        { role: 'user' as const, content: 'I was charged twice on my invoice' },
      ],
      responseFormat: { name: 'classification', schema: choice },
    };
    const a = await demo.chat(req);
    expect(JSON.parse(a.text)).toEqual({ class_id: 'billing' });
    expect((await demo.chat(req)).text).toBe(a.text);
  });

  it('pick by word overlap, Chinese by characters, and "other" when nothing overlaps', () => {
    expect(demoStructured(choice, 'The app crashes at login')).toEqual({ class_id: 'tech' });
    expect(demoStructured(choice, 'Quelle heure est-il')).toEqual({ class_id: 'other' });
    const zh = {
      type: 'string',
      enum: ['退款申请', '物流查询', 'other'],
    };
    expect(demoStructured(zh, '我的包裹物流到哪了')).toBe('物流查询');
    expect([...overlapTokens('Refunds for 订单')]).toEqual(['refund', '订', '单']);
  });

  it('read values after their names, else by type, and leave out what is not there', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'integer' },
        score: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        email: { type: 'string', description: 'contact e-mail' },
        subscribed: { type: 'boolean' },
        nicknames: { type: 'array', items: { type: 'string' } },
        address: { type: 'object' },
      },
      required: ['name', 'age', 'subscribed', 'nicknames', 'address'],
    };
    expect(
      demoStructured(schema, 'Name: Ada Lovelace, age is 36, reach me at ada@example.org; known as "Countess"'),
    ).toEqual({
      name: 'Ada Lovelace',
      age: 36,
      score: null,
      email: 'ada@example.org',
      subscribed: false,
      nicknames: ['Countess'],
      address: {},
    });
  });
});
