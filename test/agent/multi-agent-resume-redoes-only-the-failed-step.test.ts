// Guarantees: a multi_agent node checkpoints its plan and each finished step, so resuming a run whose step failed
// (its worker's request answered 400, which is not retried) redoes only that step and what depends on it: the planner
// is not asked again and the finished steps' workers and reviewers are not asked again — on both engines and both
// stores. The resumed node's output holds every step.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi, type ScriptedResponse } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import {
  count,
  multiAgentGraph,
  planAnswer,
  requestLog,
  roleOf,
  stepOf,
  THREE_STEPS,
} from './support/multi-agent-team';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

describe.each(kinds)('multi_agent resume (%s)', (kind) => {
  let fake: FakeOpenAi;
  let h: Harness;
  let failS2: boolean;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createHarness(kind, {
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    failS2 = true;
    fake.setDefault((body): ScriptedResponse => {
      switch (roleOf(body)) {
        case 'planner':
          return { text: planAnswer(THREE_STEPS) };
        case 'worker': {
          const step = stepOf(body)!;
          if (step === 's2' && failS2) {
            failS2 = false;
            return { status: 400 };
          }
          // s1 answers after s2 failed: its result must still be kept for the resume.
          return { text: `result of ${step}`, delayMs: step === 's1' ? 300 : 0 };
        }
        case 'reviewer':
          return { text: '{"approved": true, "feedback": "ok"}' };
        default:
          return { text: 'final answer' };
      }
    });
  });

  it.each(['dag', 'langgraph'] as const)('on the %s engine redoes only the failed step', async (engine) => {
    const wf = await h.createWorkflow(multiAgentGraph({ llmRetries: 0 }), 'multi resume', engine);
    const failed = await h.runToEnd(wf, { question: 'two facts' });
    expect(failed.engine).toBe(engine);
    expect(failed.status).toBe('failed');
    const node = (await h.store.getNodeRuns(failed.id)).find((n) => n.nodeId === 'm1')!;
    expect(node.status).toBe('failed');
    expect(node.error?.message).toContain('step "s2"');
    const before = requestLog(fake.requests);
    expect(count(before, 'planner')).toBe(1);
    expect(count(before, 'worker:s1')).toBe(1);
    expect(count(before, 'reviewer:s1')).toBe(1);
    expect(count(before, 'worker:s2')).toBe(1);
    expect(count(before, 'worker:s3')).toBe(0);

    fake.requests.length = 0;
    await h.runs.resume(failed.id);
    await h.runs.waitFor(failed.id);
    const resumed = (await h.store.getRun(failed.id))!;
    expect(resumed.status).toBe('succeeded');
    const after = requestLog(fake.requests);
    expect(after).toEqual(['worker:s2', 'reviewer:s2', 'worker:s3', 'reviewer:s3', 'summary']);
    expect(resumed.outputs?.answer).toBe('final answer');
    expect(resumed.outputs?.steps).toEqual([
      expect.objectContaining({ id: 's1', result: 'result of s1', approved: true, attempts: 1 }),
      expect.objectContaining({ id: 's2', result: 'result of s2', approved: true, attempts: 1 }),
      expect.objectContaining({ id: 's3', result: 'result of s3', approved: true, attempts: 1 }),
    ]);
    expect((resumed.outputs?.plan as unknown[]).length).toBe(3);
  });
});
