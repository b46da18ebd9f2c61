// Guarantees: an Agent's call of a tool listed in `toolApproval` pauses the run (`waiting`) with the call's name and
// arguments before the tool runs. Approve runs it as asked, edit runs it with the person's arguments, reject never
// runs it and tells the model a person refused (with the message); the trace says who decided what. The pending
// approval survives a restart of the server. On both engines, on PGlite (the restart case on PostgreSQL too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@/engine/store/types';
import { storeKinds, openTestDb, type TestDb } from '../support/databases';
import type { FakeOpenAi } from '../support/fake-openai-server';
import type { Harness } from '../support/harness';
import { until } from '../support/until';
import {
  agentGraph,
  durableHarness,
  post,
  startCountingTarget,
  startFakeOpenAi,
  type CountingTarget,
} from './support/durable-agent';

const kinds = await storeKinds();
const combos = kinds.flatMap((k) => (['dag', 'langgraph'] as const).map((engine) => [k, engine] as const));
const ann = { userId: 'u_ann', name: 'Ann' };

describe.each(combos)('tool-call approval on %s with the %s engine', (kind, engine) => {
  // Only the restart case runs on PostgreSQL too: no store conformance suite holds a pending wait's storage yet.
  const onPglite = it.runIf(kind === 'pglite');
  let fake: FakeOpenAi;
  let target: CountingTarget;
  let tdb: TestDb;
  let h: Harness;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    target = await startCountingTarget();
    tdb = await openTestDb(kind);
    h = await durableHarness(kind, fake, target, tdb);
  });
  afterAll(async () => {
    await h?.close();
    await tdb?.dispose();
    await fake?.close();
    await target?.close();
  });

  /** Runs the approval workflow until it waits; the model asks for one POST, then answers "done". */
  async function untilWaiting(): Promise<RunRecord> {
    fake.requests.length = 0;
    target.hits.length = 0;
    fake.script({ text: 'posting it', toolCalls: [post(target, 'report', 'q3 figures')] }, { text: 'done' });
    const wf = await h.createWorkflow(agentGraph({ toolApproval: ['http_*'] }), 'approval', engine);
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('waiting');
    return run;
  }

  async function answerAndFinish(runId: string, answer: unknown): Promise<RunRecord> {
    await h.runs.answer(runId, 'a1', answer, ann);
    await h.runs.waitFor(runId);
    return (await h.store.getRun(runId))!;
  }

  onPglite('waits before the tool runs and shows the call; approve runs it as asked', async () => {
    const run = await untilWaiting();
    expect(target.hits).toEqual([]);
    const waiting = (await h.events(run.id)).filter((e) => e.type === 'run.waiting').at(-1)!;
    expect(waiting.data).toMatchObject({
      nodeId: 'a1',
      prompt: {
        kind: 'tool_approval',
        round: 1,
        name: 'http_fetch',
        arguments: { url: `${target.url}/report`, method: 'POST', body: 'q3 figures' },
        pendingCalls: 1,
      },
    });
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'a1')!;
    expect(node.status).toBe('waiting');

    const done = await answerAndFinish(run.id, { decision: 'approve' });
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ text: 'done' });
    expect(target.hits.map((x) => [x.path, x.body])).toEqual([['/report', 'q3 figures']]);
    expect(fake.requests).toHaveLength(2); // the model was not asked again for round 1
    const decided = (await h.events(run.id)).find((e) => e.type === 'tool.approval')!;
    expect(decided.data).toMatchObject({ decision: 'approve', name: 'http_fetch', by: ann });
    const resumed = (await h.events(run.id)).filter((e) => e.type === 'run.started').at(-1)!;
    expect(resumed.data).toMatchObject({ resumed: true, answeredNodeId: 'a1', answeredBy: ann });
  });

  onPglite('edit runs the call with the edited arguments, and the model sees the call as it ran', async () => {
    const run = await untilWaiting();
    const edited = { url: `${target.url}/edited`, method: 'POST', body: 'corrected figures' };
    const done = await answerAndFinish(run.id, { decision: 'edit', arguments: edited });
    expect(done.status).toBe('succeeded');
    expect(target.hits.map((x) => [x.path, x.body])).toEqual([['/edited', 'corrected figures']]);
    const assistant = fake.requests[1].messages.find((m: { role: string }) => m.role === 'assistant');
    expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(edited);
    const decided = (await h.events(run.id)).find((e) => e.type === 'tool.approval')!;
    expect(decided.data).toMatchObject({ decision: 'edit', arguments: edited, by: ann });
  });

  onPglite('reject never runs the tool and tells the model a person refused it, with the message', async () => {
    const run = await untilWaiting();
    const done = await answerAndFinish(run.id, { decision: 'reject', message: 'not before the audit' });
    expect(done.status).toBe('succeeded');
    expect(target.hits).toEqual([]);
    const toolMessage = fake.requests[1].messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('refused');
    expect(toolMessage.content).toContain('not before the audit');
    const events = await h.events(run.id);
    expect(events.find((e) => e.type === 'tool.approval')?.data).toMatchObject({ decision: 'reject', by: ann });
    expect(events.find((e) => e.type === 'tool.denied')?.data).toMatchObject({ reason: 'rejected' });
  });

  onPglite('a bad answer is a 400 with a path and leaves the run waiting', async () => {
    const run = await untilWaiting();
    await expect(h.runs.answer(run.id, 'a1', { decision: 'maybe' }, ann)).rejects.toMatchObject({
      code: 'INVALID_ANSWER',
      path: 'answer.decision',
    });
    await expect(h.runs.answer(run.id, 'a1', { decision: 'edit', arguments: 'x' }, ann)).rejects.toMatchObject({
      path: 'answer.arguments',
    });
    expect((await h.store.getRun(run.id))!.status).toBe('waiting');
    expect((await answerAndFinish(run.id, { decision: 'approve' })).status).toBe('succeeded');
  });

  it('the pending approval survives a restart of the server', async () => {
    const run = await untilWaiting();
    // "Restart": this process's run manager goes away; a new one opens the same database and recovers.
    await h.close();
    const db = await tdb.reopen();
    h = await durableHarness(kind, fake, target, { ...tdb, db } as TestDb);
    expect(await h.runs.recover(new Date(Date.now() + 1000))).toEqual([]);
    expect((await h.store.getRun(run.id))!.status).toBe('waiting');
    const done = await answerAndFinish(run.id, { decision: 'approve' });
    expect(done.status).toBe('succeeded');
    expect(target.hits.map((x) => x.path)).toEqual(['/report']);
  });

  onPglite(
    'two calls that need approval are asked one after the other; the others of the round wait with them',
    async () => {
      fake.requests.length = 0;
      target.hits.length = 0;
      fake.script(
        {
          toolCalls: [
            post(target, 'first', '1'),
            { name: 'calculator', arguments: { expression: '6*7' } },
            post(target, 'second', '2'),
          ],
        },
        { text: 'done' },
      );
      const wf = await h.createWorkflow(
        agentGraph({ tools: ['http_fetch', 'calculator'], toolApproval: ['http_fetch'] }),
        'two approvals',
        engine,
      );
      const run = await h.runToEnd(wf);
      expect(run.status).toBe('waiting');
      const prompt = async () =>
        (await h.events(run.id)).filter((e) => e.type === 'run.waiting').at(-1)!.data.prompt as Record<string, unknown>;
      expect(await prompt()).toMatchObject({ pendingCalls: 2, arguments: { body: '1' } });
      await h.runs.answer(run.id, 'a1', { decision: 'reject' }, ann);
      await h.runs.waitFor(run.id);
      await until(async () => (await h.store.getRun(run.id))!.status === 'waiting', 'the second approval');
      expect(await prompt()).toMatchObject({ pendingCalls: 1, arguments: { body: '2' } });
      expect(target.hits).toEqual([]);
      const done = await answerAndFinish(run.id, { decision: 'approve' });
      expect(done.status).toBe('succeeded');
      expect(target.hits.map((x) => x.path)).toEqual(['/second']);
      const tools = fake.requests[1].messages.filter((m: { role: string }) => m.role === 'tool');
      expect(tools.map((m: { content: string }) => m.content)).toEqual([
        expect.stringContaining('refused'),
        '42',
        expect.stringContaining('"ok":true'),
      ]);
    },
  );
});
