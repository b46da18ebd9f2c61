// Guarantees: a step the reviewer rejects is done again by a fresh worker whose prompt carries the reviewer's feedback
// (and its previous answer), at most maxRetries times; then the last result is kept with approved: false. A step
// approved on a retry is approved. An unreadable verdict is asked for once more, then counts as a rejection that says
// so. With review: false no reviewer is asked and every step has approved: null.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { postgresAvailable } from '../support/databases';
import { startFakeOpenAi, type FakeOpenAi, type ScriptedResponse } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import { count, lastUserText, multiAgentGraph, planAnswer, requestLog, roleOf } from './support/multi-agent-team';

const ONE_STEP = [{ id: 's1', description: 'write the slogan', dependencies: [] }];

describe('multi_agent: review and retries', () => {
  let fake: FakeOpenAi;
  let h: Harness;
  let workerCalls: number;
  let reviews: number;
  /** The reviewer's answer to its n-th request (1-based). */
  let reviewer: (n: number) => string;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createHarness((await postgresAvailable()) ? 'postgres' : 'pglite', {
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    workerCalls = 0;
    reviews = 0;
    fake.setDefault((body): ScriptedResponse => {
      switch (roleOf(body)) {
        case 'planner':
          return { text: planAnswer(ONE_STEP) };
        case 'worker':
          return { text: `answer ${++workerCalls}` };
        case 'reviewer':
          return { text: reviewer(++reviews) };
        default:
          return { text: 'summary of the slogan' };
      }
    });
  });

  const workerPrompts = () => fake.requests.filter((b) => roleOf(b) === 'worker').map(lastUserText);
  const run = async (config: Record<string, unknown>) => {
    const r = await h.runToEnd(await h.createWorkflow(multiAgentGraph(config)), { question: 'a slogan for tea' });
    expect(r.status).toBe('succeeded');
    return { r, steps: r.outputs?.steps as any[], log: requestLog(fake.requests) };
  };

  it('redoes a rejected step with the feedback, then gives up after maxRetries keeping the last result', async () => {
    reviewer = (n) => JSON.stringify({ approved: false, feedback: `FIX-${n}: make it shorter` });
    const { r, steps, log } = await run({ maxRetries: 2 });
    expect(count(log, 'worker:s1')).toBe(3);
    expect(count(log, 'reviewer:s1')).toBe(3);
    const [first, second, third] = workerPrompts();
    expect(first).not.toContain('FIX-');
    expect(second).toContain('FIX-1: make it shorter');
    expect(second).toContain('answer 1');
    expect(third).toContain('FIX-2: make it shorter');
    expect(third).toContain('answer 2');
    expect(third).not.toContain('FIX-1');
    // Each retry is a fresh conversation, not a continuation.
    for (const b of fake.requests.filter((x) => roleOf(x) === 'worker')) expect(b.messages).toHaveLength(2);
    expect(steps).toEqual([
      expect.objectContaining({
        id: 's1',
        result: 'answer 3',
        approved: false,
        attempts: 3,
        feedback: 'FIX-3: make it shorter',
      }),
    ]);
    const events = await h.events(r.id);
    expect(events.filter((e) => e.type === 'agent.step' && e.data.kind === 'retry')).toHaveLength(2);
  });

  it('keeps the result a retry got approved', async () => {
    reviewer = (n) =>
      n === 1 ? '{"approved": false, "feedback": "name the tea"}' : '{"approved": true, "feedback": ""}';
    const { steps, log } = await run({ maxRetries: 2 });
    expect(count(log, 'worker:s1')).toBe(2);
    expect(workerPrompts()[1]).toContain('name the tea');
    expect(steps[0]).toMatchObject({ result: 'answer 2', approved: true, attempts: 2 });
  });

  it('maxRetries 0 keeps the first result, unapproved', async () => {
    reviewer = () => '{"approved": false, "feedback": "no"}';
    const { steps, log } = await run({ maxRetries: 0 });
    expect(count(log, 'worker:s1')).toBe(1);
    expect(steps[0]).toMatchObject({ result: 'answer 1', approved: false, attempts: 1 });
  });

  it('asks an unreadable reviewer once more, then counts it as a rejection that says so', async () => {
    reviewer = () => 'Looks good to me!';
    const { steps, log } = await run({ maxRetries: 0 });
    expect(count(log, 'reviewer:s1')).toBe(2);
    const again = fake.requests.filter((b) => roleOf(b) === 'reviewer')[1];
    expect(again.messages.map((m: any) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(steps[0].approved).toBe(false);
    expect(steps[0].feedback).toMatch(/no readable verdict/);
    expect(steps[0].feedback).toContain('Looks good to me!');
  });

  it('review: false asks no reviewer and leaves approved null', async () => {
    reviewer = () => 'never asked';
    const { steps, log } = await run({ review: false });
    expect(count(log, 'reviewer:s1')).toBe(0);
    expect(steps[0]).toMatchObject({ result: 'answer 1', approved: null, attempts: 1 });
  });
});
