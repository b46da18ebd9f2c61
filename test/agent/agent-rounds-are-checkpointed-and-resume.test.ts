// Guarantees: an Agent node's completed rounds are durable. When it fails at round 3, a resume continues at round 3
// with the conversation it would have had, and the tool calls of rounds 1–2 reached their target exactly once, each
// with the idempotency key `runId:nodeId:round:callIndex`. On both engines (PGlite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOpenAi } from '../support/fake-openai-server';
import type { Harness } from '../support/harness';
import {
  agentGraph,
  durableHarness,
  post,
  startCountingTarget,
  startFakeOpenAi,
  type CountingTarget,
} from './support/durable-agent';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;
const combos = kinds.flatMap((k) => (['dag', 'langgraph'] as const).map((engine) => [k, engine] as const));

describe.each(combos)('agent checkpoints on %s with the %s engine', (kind, engine) => {
  let fake: FakeOpenAi;
  let target: CountingTarget;
  let h: Harness;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    target = await startCountingTarget();
    h = await durableHarness(kind, fake, target);
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    await target?.close();
  });

  it('an agent that failed at round 3 resumes at round 3; rounds 1–2 tool calls ran once', async () => {
    fake.requests.length = 0;
    target.hits.length = 0;
    fake.script(
      { toolCalls: [post(target, 'r1', 'one')] },
      { toolCalls: [post(target, 'r2', 'two')] },
      { status: 400 }, // round 3: a non-retryable model error fails the node
    );
    const wf = await h.createWorkflow(agentGraph(), 'durable', engine);
    const failed = await h.runToEnd(wf);
    expect(failed.status).toBe('failed');
    expect(fake.requests).toHaveLength(3);
    expect(target.hits.map((x) => x.path)).toEqual(['/r1', '/r2']);
    const roundThree = fake.requests[2].messages;

    fake.script({ text: 'both reports are posted' });
    await h.runs.resume(failed.id);
    await h.runs.waitFor(failed.id);
    const done = (await h.store.getRun(failed.id))!;
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ text: 'both reports are posted' });

    // The model was asked once more, for round 3, with the same conversation; rounds 1–2 were not redone.
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[3].messages).toEqual(roundThree);
    expect(target.hits.map((x) => x.path)).toEqual(['/r1', '/r2']);
    expect(target.hits.map((x) => x.key)).toEqual([`${failed.id}:a1:1:0`, `${failed.id}:a1:2:0`]);

    const a1 = (await h.store.getNodeRuns(failed.id)).find((n) => n.nodeId === 'a1')!;
    expect(a1).toMatchObject({ status: 'succeeded', attempt: 2 });
    const out = a1.output as { rounds: number; toolCalls: { round: number; name: string }[] };
    expect(out.rounds).toBe(3);
    expect(out.toolCalls.map((c) => [c.round, c.name])).toEqual([
      [1, 'http_fetch'],
      [2, 'http_fetch'],
    ]);
    // A node that succeeded drops its checkpoint: a later "re-run from here" starts afresh.
    expect((await h.store.getCheckpoint(failed.id, 'a1'))?.state ?? null).toBeNull();
    const resumedAt = (await h.events(failed.id)).find((e) => e.type === 'node.progress' && e.data.resumedAgent);
    expect(resumedAt?.data.resumedAgent).toMatchObject({ completedRounds: 2, storedToolCalls: 2 });
  });

  it('a resume whose agent was asked something else starts afresh (the checkpoint belongs to its config)', async () => {
    fake.requests.length = 0;
    target.hits.length = 0;
    fake.script({ toolCalls: [post(target, 'x1', 'one')] }, { status: 400 });
    const wf = await h.createWorkflow(agentGraph(), 'changed', engine);
    const failed = await h.runToEnd(wf);
    expect(failed.status).toBe('failed');
    const graph = agentGraph({ task: 'post a different report' });
    await h.store.updateWorkflow(wf, { graph });

    fake.script({ text: 'done differently' });
    await h.runs.resume(failed.id);
    await h.runs.waitFor(failed.id);
    expect((await h.store.getRun(failed.id))!.status).toBe('succeeded');
    const last = fake.requests.at(-1);
    expect(last.messages.at(-1)).toMatchObject({ role: 'user', content: 'post a different report' });
    expect(last.messages.some((m: { role: string }) => m.role === 'tool')).toBe(false);
  });
});
