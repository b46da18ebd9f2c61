/**
 * Guarantees of the scorers beyond plain text: `similarity` (embeddings, Chinese text folded first), `json_schema`
 * (schemas refused when the spec is parsed, the first error's path in the reason), `retrieval` (recall@k and MRR
 * over the knowledge hits, by title or document id) and `llm_judge` (a model's lenient JSON verdict, its usage
 * reported; a verdict of the offline demo model says so). Services are fakes: a bag-of-characters embedder and a
 * scripted judge (and the demo model itself).
 */
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../node-kit/agent-services';
import type { ChatRequest, ChatResponse } from '../llm/types';
import { score, scorerNeeds, scorerSchema, type JudgeFn, type ScoredRun } from './scorers';
import { JUDGE_MAX_TOKENS } from './model-scorers';
import { DemoProvider } from '../llm/demo-provider';

const run = (outputs: Record<string, unknown>, expected?: unknown, extra: Partial<ScoredRun> = {}): ScoredRun => ({
  outputs,
  expected,
  durationMs: 1200,
  costUsd: 0.002,
  ...extra,
});
const spec = (s: unknown) => scorerSchema.parse(s);

/** Bag of characters: each character adds 1 to the bucket of its code point; counts calls. */
function fakeEmbedder(): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    dimension: 512,
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map((t) => {
        const v = new Array<number>(512).fill(0);
        for (const ch of t) v[ch.codePointAt(0)! % 512] += 1;
        return v;
      });
    },
  };
}

function scriptedJudge(text: string): JudgeFn & { requests: Array<ChatRequest & { credentialId?: string }> } {
  const requests: Array<ChatRequest & { credentialId?: string }> = [];
  const fn = async (req: ChatRequest & { credentialId?: string }): Promise<ChatResponse> => {
    requests.push(req);
    return {
      text,
      toolCalls: [],
      usage: { inputTokens: 320, outputTokens: 24, costUsd: 0.0004 },
      model: req.model,
      provider: 'fake',
    };
  };
  return Object.assign(fn, { requests });
}

describe('similarity', () => {
  const sim = spec({ name: 'close', type: 'similarity' });

  it('scores Chinese text equal up to full-width forms as 1, without calling the embedder', async () => {
    const embedder = fakeEmbedder();
    expect(await score(sim, run({ answer: '退货期限：３０天' }, '退货期限:30天'), { embedder })).toEqual({
      score: 1,
      passed: true,
    });
    expect(embedder.calls).toEqual([]);
  });

  it('fails an unrelated Chinese sentence, and passes a close one', async () => {
    const embedder = fakeEmbedder();
    const far = await score(sim, run({ answer: '今天北京下雨，记得带伞。' }, '退货期限:30天'), { embedder });
    expect(far.passed).toBe(false);
    expect(far.score).toBeLessThan(0.8);
    expect(far.reason).toMatch(/below 0.8/);
    expect(embedder.calls[0]).toEqual(['今天北京下雨,记得带伞。', '退货期限:30天']);
    const near = await score(sim, run({ answer: '退货期限为30天' }, '退货期限:30天'), { embedder });
    expect(near.passed).toBe(true);
    expect(near.score).toBeGreaterThanOrEqual(0.8);
    expect(near.score).toBeLessThanOrEqual(1);
  });

  it('without an embedder answers a failed score saying so', async () => {
    expect(await score(sim, run({ a: 'x' }, 'y'))).toMatchObject({ passed: false, reason: /no embedder/ });
    expect(scorerNeeds(sim)).toEqual({ embedder: true });
  });
});

describe('json_schema', () => {
  const order = spec({
    name: 'shape',
    type: 'json_schema',
    schema: {
      type: 'object',
      required: ['id', 'items'],
      properties: {
        id: { type: 'string', pattern: '^\\d{6}$' },
        items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } } },
      },
    },
  });

  it('passes a JSON string or an object that matches the schema', async () => {
    expect(await score(order, run({ out: '{"id":"123456","items":[{"qty":2}]}' }))).toEqual({ score: 1, passed: true });
    expect((await score(order, run({ out: { id: '123456', items: [] } }))).passed).toBe(true);
    expect((await score(order, run({ out: '```json\n{"id":"123456","items":[]}\n```' }))).passed).toBe(true);
  });

  it('fails with the first error’s path and message', async () => {
    const bad = await score(order, run({ out: { id: '123456', items: [{ qty: 0 }] } }));
    expect(bad).toMatchObject({ score: 0, passed: false });
    expect(bad.reason).toBe('at /items/0/qty: 0 is less than 1.');
    expect((await score(order, run({ out: { items: [] } }))).reason).toMatch(/at the root: .*required property "id"/);
    expect((await score(order, run({ out: { id: '12', items: [] } }))).reason).toMatch(
      /^at \/id: String does not match pattern/,
    );
    expect((await score(order, run({ out: '订单号 123456' }))).reason).toMatch(/^the output is not JSON: "订单号/);
  });

  it('refuses an invalid schema when the spec is parsed, saying why', () => {
    const wrongType = scorerSchema.safeParse({ name: 's', type: 'json_schema', schema: { type: 'strin' } });
    expect(wrongType.success).toBe(false);
    expect(wrongType.error?.issues[0]).toMatchObject({
      path: ['schema'],
      message: expect.stringMatching(/^invalid JSON Schema: \/type: "strin" is not a type/),
    });
    const lookahead = scorerSchema.safeParse({
      name: 's',
      type: 'json_schema',
      schema: { type: 'string', pattern: '^(?=a)' },
    });
    expect(lookahead.success).toBe(false);
    expect(lookahead.error?.issues[0].message).toMatch(/invalid JSON Schema: .*lookahead/);
    const draft4 = scorerSchema.safeParse({
      name: 's',
      type: 'json_schema',
      schema: { $schema: 'http://json-schema.org/draft-04/schema#' },
    });
    expect(draft4.error?.issues[0].message).toMatch(/not supported/);
  });

  it('stops a pattern that backtracks in JavaScript in time, off the event loop', async () => {
    // RE2 accepts (a+)+ (it matches it in linear time); JavaScript's engine, which the validator runs, backtracks.
    const s = spec({ name: 'slow', type: 'json_schema', schema: { type: 'string', pattern: '^(a+)+$' } });
    const started = Date.now();
    await expect(score(s, run({ out: JSON.stringify(`${'a'.repeat(40)}!`) }))).rejects.toMatchObject({
      code: 'REGEX_TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('understands a 2020-12 schema named by $schema', async () => {
    const s = spec({
      name: 't',
      type: 'json_schema',
      schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [{ type: 'number' }] },
    });
    expect((await score(s, run({ out: [1, 'x'] }))).passed).toBe(true);
    expect((await score(s, run({ out: ['x'] }))).reason).toBe(
      'at /0: Instance type "string" is invalid. Expected "number".',
    );
  });
});

describe('retrieval', () => {
  const hits = [
    { title: 'Shipping FAQ', documentId: 'doc-ship' },
    { title: '退货政策', documentId: 'doc-refund' },
    { title: 'Warranty', documentId: null },
    { title: 'Price list', documentId: 'doc-price' },
  ];

  it('recall@k counts expected sources, by title or document id, among the first k hits', async () => {
    const recall = spec({ name: 'found', type: 'retrieval', k: 3 });
    const both = await score(recall, run({}, { sources: ['shipping faq', 'doc-refund'] }, { retrieved: hits }));
    expect(both).toEqual({ score: 1, passed: true });
    const half = await score(recall, run({}, { sources: ['退货政策', 'doc-price'] }, { retrieved: hits }));
    expect(half).toMatchObject({ score: 0.5, passed: false });
    expect(half.reason).toBe('1 of 2 expected sources in the top 3; missing "doc-price"');
    const lenient = spec({ name: 'found', type: 'retrieval', k: 3, threshold: 0.5 });
    expect((await score(lenient, run({}, ['退货政策', 'doc-price'], { retrieved: hits }))).passed).toBe(true);
  });

  it('MRR is 1 / the rank of the first expected source in the first k', async () => {
    const mrr = spec({ name: 'rank', type: 'retrieval', metric: 'mrr' });
    expect(await score(mrr, run({}, { sources: ['Ｗａｒｒａｎｔｙ'] }, { retrieved: hits }))).toMatchObject({
      passed: false,
    });
    expect((await score(mrr, run({}, { sources: ['Ｗａｒｒａｎｔｙ'] }, { retrieved: hits }))).score).toBeCloseTo(
      1 / 3,
    );
    expect(await score(mrr, run({}, { sources: ['doc-refund'] }, { retrieved: hits }))).toEqual({
      score: 0.5,
      passed: true,
    });
    const top2 = spec({ name: 'rank', type: 'retrieval', metric: 'mrr', k: 2 });
    expect(await score(top2, run({}, { sources: ['doc-price'] }, { retrieved: hits }))).toMatchObject({
      score: 0,
      reason: 'no expected source among the first 2 hits',
    });
  });

  it('reads the expectation’s named field, and fails a row without expected sources', async () => {
    const named = spec({ name: 'found', type: 'retrieval', field: 'docs' });
    expect((await score(named, run({}, { docs: ['doc-ship'] }, { retrieved: hits }))).passed).toBe(true);
    const plain = spec({ name: 'found', type: 'retrieval' });
    expect(await score(plain, run({}, { answer: 'x' }, { retrieved: hits }))).toMatchObject({
      passed: false,
      reason: 'the row has no expected sources',
    });
    expect((await score(plain, run({}, ['doc-ship']))).reason).toMatch(/retrieved nothing/);
  });
});

describe('llm_judge', () => {
  const rubric = '回答必须礼貌，并给出退货期限。';
  const judged = spec({ name: 'polite', type: 'llm_judge', rubric, model: 'gpt-4o-mini', credentialId: 'cred-1' });
  const row = run({ answer: '您好，退货期限为30天。' }, '30天', { inputs: { question: '退货期限是多久？' } });

  it('parses the verdict, reports the judge’s reason and usage', async () => {
    const judge = scriptedJudge('{"score":0.9,"reason":"礼貌且给出了期限。"}');
    expect(await score(judged, row, { judge })).toEqual({
      score: 0.9,
      passed: true,
      reason: '礼貌且给出了期限。',
      usage: { inputTokens: 320, outputTokens: 24, costUsd: 0.0004 },
    });
  });

  it('sends the rubric, inputs, expectation and output, asking for a short JSON verdict at temperature 0', async () => {
    const judge = scriptedJudge('{"score":1,"reason":"ok"}');
    await score(judged, row, { judge });
    const [req] = judge.requests;
    expect(req).toMatchObject({ model: 'gpt-4o-mini', credentialId: 'cred-1', jsonMode: true, temperature: 0 });
    expect(req.maxTokens).toBe(JUDGE_MAX_TOKENS); // a rambling judge costs at most this much per row
    const [system, user] = req.messages;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/evaluator/);
    expect(system.content).toContain('{"score":');
    expect(system.content).toMatch(/language of the output/);
    expect(user.content).toContain(rubric);
    expect(user.content).toContain('退货期限是多久？');
    expect(user.content).toContain('"30天"');
    expect(user.content).toContain('您好，退货期限为30天。');
  });

  it('is lenient: text around the JSON, a numeric string, a score out of range', async () => {
    const chatty = scriptedJudge('Here is my grade:\n```json\n{"score":"0.4","reason":"misses {the} deadline"}\n```');
    expect(await score(judged, row, { judge: chatty })).toMatchObject({
      score: 0.4,
      passed: false,
      reason: 'misses {the} deadline',
    });
    expect((await score(judged, row, { judge: scriptedJudge('{"score": 7}') })).score).toBe(1);
    expect((await score(judged, row, { judge: scriptedJudge('{"score": -2, "reason": "x"}') })).score).toBe(0);
  });

  it('an answer that is not JSON is a failed 0 that quotes it, with the usage still reported', async () => {
    const garbage = scriptedJudge('I think this answer is quite good, maybe eight out of ten.');
    const s = await score(judged, row, { judge: garbage });
    expect(s).toMatchObject({ score: 0, passed: false, usage: { inputTokens: 320 } });
    expect(s.reason).toBe(
      'the judge\'s answer was not JSON with a score: "I think this answer is quite good, maybe eight out of ten."',
    );
  });

  it('a score the offline demo model judged says so; a real judge’s does not', async () => {
    const demo = new DemoProvider();
    expect(await score(judged, row, { judge: (req) => demo.chat(req) })).toMatchObject({ demo: true });
    expect(await score(judged, row, { judge: scriptedJudge('{"score":1}') })).not.toHaveProperty('demo');
  });

  it('without a judge answers a failed score saying so', async () => {
    expect(await score(judged, row)).toMatchObject({ passed: false, reason: /no judge/ });
    expect(scorerNeeds(judged)).toEqual({ judge: true });
    expect(scorerNeeds(spec({ name: 'e', type: 'exact' }))).toEqual({});
  });

  it('refuses an empty rubric or a missing model', () => {
    expect(scorerSchema.safeParse({ name: 'j', type: 'llm_judge', rubric: ' ', model: 'm' }).success).toBe(false);
    expect(scorerSchema.safeParse({ name: 'j', type: 'llm_judge', rubric: 'r' }).success).toBe(false);
  });
});
