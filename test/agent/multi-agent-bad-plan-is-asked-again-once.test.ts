// Guarantees: a plan that cannot be used (a cycle, an unknown dependency, duplicate ids, no JSON) is asked for once
// more with its problem stated; a good second plan runs; a second bad one fails the node with MULTI_AGENT_BAD_PLAN and
// a message naming the problem, and no worker is started.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { postgresAvailable } from '../support/databases';
import { startFakeOpenAi, type FakeOpenAi, type ScriptedResponse } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import { count, lastUserText, multiAgentGraph, planAnswer, requestLog, roleOf } from './support/multi-agent-team';

const CYCLE = [
  { id: 'a', description: 'do a', dependencies: ['b'] },
  { id: 'b', description: 'do b', dependencies: ['a'] },
];
const UNKNOWN_DEP = [{ id: 'a', description: 'do a', dependencies: ['zz'] }];
const GOOD = [{ id: 'a', description: 'do a', dependencies: [] }];

describe('multi_agent: a bad plan', () => {
  let fake: FakeOpenAi;
  let h: Harness;
  let plans: string[];

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
    let n = 0;
    fake.setDefault((body): ScriptedResponse => {
      switch (roleOf(body)) {
        case 'planner':
          return { text: plans[Math.min(n++, plans.length - 1)] };
        case 'reviewer':
          return { text: '{"approved": true, "feedback": "ok"}' };
        default:
          return { text: 'done' };
      }
    });
  });

  const runIt = async () => h.runToEnd(await h.createWorkflow(multiAgentGraph({})), { question: 'plan this' });

  it('is asked for again with the problem stated, and a good second plan runs', async () => {
    plans = [planAnswer(UNKNOWN_DEP), planAnswer(GOOD)];
    const run = await runIt();
    expect(run.status).toBe('succeeded');
    const log = requestLog(fake.requests);
    expect(count(log, 'planner')).toBe(2);
    const second = fake.requests.filter((b) => roleOf(b) === 'planner')[1];
    expect(second.messages.map((m: any) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(lastUserText(second)).toContain('"a" depends on "zz", which is not a step of the plan');
    expect(run.outputs?.plan).toEqual(GOOD);
  });

  it('fails the node with MULTI_AGENT_BAD_PLAN after the second bad plan, starting no worker', async () => {
    plans = [planAnswer(CYCLE), 'I would rather not plan.'];
    const run = await runIt();
    expect(run.status).toBe('failed');
    const log = requestLog(fake.requests);
    expect(log).toEqual(['planner', 'planner']);
    expect(lastUserText(fake.requests[1])).toContain('cycle: a → b → a');
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'm1')!;
    expect(node.status).toBe('failed');
    expect(node.error).toMatchObject({ code: 'MULTI_AGENT_BAD_PLAN' });
    expect(node.error?.message).toMatch(/no usable plan, also when asked again: the answer contains no JSON/);
  });

  it('a cycle twice fails with the cycle named', async () => {
    plans = [planAnswer(CYCLE)];
    const run = await runIt();
    expect(run.status).toBe('failed');
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'm1')!;
    expect(node.error).toMatchObject({ code: 'MULTI_AGENT_BAD_PLAN' });
    expect(node.error?.message).toContain('the dependencies form a cycle: a → b → a');
    expect(count(requestLog(fake.requests), 'planner')).toBe(2);
  });
});
