// Guarantees: a multi_agent node runs its plan in topological batches — the two steps that do not depend on each
// other are at the fake server at the same time (with maxParallel 1 they are not), the step that needs both runs
// after them and is given their results — each worker has a fresh conversation with only the task, its step and its
// dependencies' results, every step/attempt/round/review is a child span of the node's span, and the node's usage is
// the sum over every call.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { postgresAvailable } from '../support/databases';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import { multiAgentGraph, planAnswer, requestLog, roleOf, stepOf, THREE_STEPS } from './support/multi-agent-team';

const DELAY = 800;

describe('multi_agent: independent steps run concurrently', () => {
  let fake: FakeOpenAi;
  let h: Harness;
  /** Worker requests as they arrived; each is answered no earlier than DELAY ms after it arrived. */
  let arrivals: Array<{ step: string; at: number }>;

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
    arrivals = [];
    fake.setDefault((body) => {
      const usage = { prompt_tokens: 10, completion_tokens: 1 };
      switch (roleOf(body)) {
        case 'planner':
          return { text: planAnswer(THREE_STEPS), usage };
        case 'worker': {
          const step = stepOf(body)!;
          arrivals.push({ step, at: Date.now() });
          return { text: `result of ${step}`, usage, delayMs: step === 's3' ? 0 : DELAY };
        }
        case 'reviewer':
          return { text: '```json\n{"approved": true, "feedback": "fine"}\n```', usage };
        case 'summary':
          return { text: 'the final answer', usage };
        default:
          return { text: 'unexpected request', usage };
      }
    });
  });

  /** Lower bound of requests in flight when each arrived: earlier ones that cannot have been answered yet. */
  const inFlight = () => arrivals.map((r, i) => arrivals.slice(0, i + 1).filter((q) => q.at + DELAY > r.at).length);

  it('sends the two independent steps to workers at the same time, then the step that needs both', async () => {
    const wf = await h.createWorkflow(multiAgentGraph({ planner: { model: 'm' }, worker: { model: 'm' } }));
    const run = await h.runToEnd(wf, { question: 'find two facts and combine them' });
    expect(run.status).toBe('succeeded');

    const log = requestLog(fake.requests);
    // Both workers of the first batch asked before any review (which needs a worker's answer) and before s3.
    expect(log.slice(0, 3)).toEqual(['planner', expect.stringMatching(/^worker:s[12]$/), expect.any(String)]);
    expect(new Set(log.slice(1, 3))).toEqual(new Set(['worker:s1', 'worker:s2']));
    expect(log.indexOf('worker:s3')).toBeGreaterThan(Math.max(log.indexOf('reviewer:s1'), log.indexOf('reviewer:s2')));
    expect(Math.max(...inFlight())).toBe(2);
    expect(log[log.length - 1]).toBe('summary');

    // Fresh conversations: system + user only; only the task, the step and the dependencies' results.
    const workers = fake.requests.filter((b) => roleOf(b) === 'worker');
    for (const b of workers) expect(b.messages).toHaveLength(2);
    const s1 = workers.find((b) => stepOf(b) === 's1')!.messages[1].content;
    expect(s1).toContain('find two facts and combine them');
    expect(s1).not.toContain('result of');
    expect(s1).not.toContain('find the second fact');
    const s3 = workers.find((b) => stepOf(b) === 's3')!.messages[1].content;
    expect(s3).toContain('result of s1');
    expect(s3).toContain('result of s2');

    expect(run.outputs?.answer).toBe('the final answer');
    expect((run.outputs?.plan as unknown[]).length).toBe(3);
    expect(run.outputs?.steps).toEqual([
      expect.objectContaining({ id: 's1', status: 'succeeded', result: 'result of s1', approved: true, attempts: 1 }),
      expect.objectContaining({ id: 's2', status: 'succeeded', result: 'result of s2', approved: true, attempts: 1 }),
      expect.objectContaining({ id: 's3', status: 'succeeded', result: 'result of s3', approved: true, attempts: 1 }),
    ]);

    // Usage: every call of the node (planner, 3 workers, 3 reviews, summary).
    expect(fake.requests).toHaveLength(8);
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'm1')!;
    expect(node.usage).toMatchObject({ inputTokens: 80, outputTokens: 8 });

    // Trace: steps under the node's span, attempts under their step, rounds and reviews under their attempt.
    const events = await h.events(run.id);
    const nodeSpan = events.find((e) => e.type === 'node.started' && e.nodeId === 'm1')!.spanId;
    const steps = events.filter((e) => e.type === 'agent.step' && e.data.kind === 'step');
    expect(steps.map((e) => e.data.stepId).sort()).toEqual(['s1', 's2', 's3']);
    for (const s of steps) expect(s.parentSpanId).toBe(nodeSpan);
    const stepSpans = new Set(steps.map((e) => e.spanId));
    const attempts = events.filter((e) => e.type === 'agent.step' && e.data.kind === 'work');
    expect(attempts).toHaveLength(3);
    for (const a of attempts) expect(stepSpans.has(a.parentSpanId!)).toBe(true);
    const attemptSpans = new Set(attempts.map((e) => e.spanId));
    const rounds = events.filter((e) => e.type === 'agent.step' && e.data.round === 1);
    const reviews = events.filter((e) => e.type === 'agent.step' && e.data.kind === 'review');
    expect(rounds).toHaveLength(3);
    expect(reviews).toHaveLength(3);
    for (const e of [...rounds, ...reviews]) expect(attemptSpans.has(e.parentSpanId!)).toBe(true);
    const plan = events.find((e) => e.type === 'agent.step' && e.data.kind === 'plan')!;
    expect(plan.parentSpanId).toBe(nodeSpan);
  });

  it('with maxParallel 1 the independent steps run one after the other', async () => {
    const wf = await h.createWorkflow(multiAgentGraph({ maxParallel: 1 }));
    const run = await h.runToEnd(wf, { question: 'find two facts and combine them' });
    expect(run.status).toBe('succeeded');
    const log = requestLog(fake.requests);
    expect(log).toEqual([
      'planner',
      'worker:s1',
      'reviewer:s1',
      'worker:s2',
      'reviewer:s2',
      'worker:s3',
      'reviewer:s3',
      'summary',
    ]);
    expect(Math.max(...inFlight())).toBe(1);
  });
});
