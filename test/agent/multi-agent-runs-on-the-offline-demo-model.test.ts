// Guarantees: without an API key a multi_agent node runs end to end on the offline demo model: the demo plans
// (a valid JSON plan: the task's two parts as independent steps and a step combining them), its workers ask for the
// built-in tools their own step needs, its reviewer approves (saying it is the demo model), and the answer is built
// from the step results, labelled as the demo model. The demo's other behaviour is unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '@/engine/agent/multi-agent/plan';
import { plannerMessages, reviewerMessages } from '@/engine/agent/multi-agent/prompts';
import { parseReview } from '@/engine/agent/multi-agent/review';
import { DEMO_PREFIX, DemoProvider } from '@/engine/llm/demo-provider';
import { postgresAvailable } from '../support/databases';
import { createHarness, type Harness } from '../support/harness';
import { multiAgentGraph } from './support/multi-agent-team';

describe('the demo model as a team', () => {
  const demo = new DemoProvider();

  it('plans a task of two parts as two independent steps and a combining step', async () => {
    const res = await demo.chat({
      model: 'demo',
      messages: plannerMessages('What is 6 * 7? What time is it?', 10, ''),
    });
    expect(res.text.startsWith(DEMO_PREFIX)).toBe(true);
    const plan = parsePlan(res.text, 10);
    expect(plan).toEqual({
      ok: true,
      steps: [
        { id: 's1', description: 'Answer this part of the task: What is 6 * 7?', dependencies: [] },
        { id: 's2', description: 'Answer this part of the task: What time is it?', dependencies: [] },
        expect.objectContaining({ id: 's3', dependencies: ['s1', 's2'] }),
      ],
    });
    const single = parsePlan(
      (await demo.chat({ model: 'demo', messages: plannerMessages('Write a haiku', 10, '') })).text,
      10,
    );
    expect(single).toMatchObject({ ok: true, steps: [{ id: 's1' }, { id: 's2', dependencies: ['s1'] }] });
  });

  it('reviews with an approval labelled as the demo model', async () => {
    const step = { id: 's1', description: 'do it', dependencies: [] };
    const res = await demo.chat({ model: 'demo', messages: reviewerMessages('task', step, 'result', 'be strict') });
    const verdict = parseReview(res.text);
    expect(verdict?.approved).toBe(true);
    expect(verdict?.feedback).toContain(DEMO_PREFIX);
  });
});

describe('a multi_agent node on the demo model', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness((await postgresAvailable()) ? 'postgres' : 'pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('plans, works with tools, reviews and answers', async () => {
    const wf = await h.createWorkflow(multiAgentGraph({ worker: { tools: ['calculator', 'current_time'] } }));
    const run = await h.runToEnd(wf, { question: 'What is 17 * 3 + 1 and what time is it?' });
    expect(run.status).toBe('succeeded');
    const plan = run.outputs?.plan as any[];
    expect(plan.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    const steps = run.outputs?.steps as any[];
    expect(steps.map((s) => [s.id, s.status, s.approved, s.attempts])).toEqual([
      ['s1', 'succeeded', true, 1],
      ['s2', 'succeeded', true, 1],
      ['s3', 'succeeded', true, 1],
    ]);
    expect(steps[0].result).toContain('calculator returned: 52');
    expect(steps[1].result).toContain('current_time returned');
    expect(steps[2].result).toContain('52');
    const answer = String(run.outputs?.answer);
    expect(answer.startsWith(DEMO_PREFIX)).toBe(true);
    expect(answer).toContain('52');
    const events = await h.events(run.id);
    const calls = events.filter((e) => e.type === 'tool.called').map((e) => e.data.name);
    expect(calls.sort()).toEqual(['calculator', 'current_time']);
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'm1')!;
    expect(node.usage?.inputTokens).toBeGreaterThan(0);
  });
});
