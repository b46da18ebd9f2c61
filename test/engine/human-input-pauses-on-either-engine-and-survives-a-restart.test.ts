// Guarantees: a human-input node pauses its run in `waiting` with its rendered question until a person answers, on
// the DAG engine and the state-graph engine alike (one pause mechanism: the answer is stored beside the node's
// checkpoint, like a tool approval's or a breakpoint's); the answer becomes the node's output and nothing before the
// node runs again; an answer of the wrong type is a 400 that leaves the run waiting; the wait survives a restart;
// and inside a loop the node asks again on every pass, each pass's answer its own.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PaiError } from '@/engine/errors';
import type { Graph } from '@/engine/graph/schema';
import { createHarness, probeCalls, resetProbes, type Harness } from '../support/harness';
import { storeKinds } from '../support/databases';

const n = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const e = (source: string, target: string, sourceHandle?: string): Graph['edges'][number] => ({
  id: `${source}-${target}-${sourceHandle ?? ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

const HITL: Graph = {
  nodes: [
    n('start', 'start', { inputs: [{ name: 'doc', type: 'string' }] }),
    n('draft', 'probe'),
    n('ask', 'human_input', { prompt: 'Approve publishing {{inputs.doc}}?', answerType: 'text' }),
    n('publish', 'template', { template: '{{inputs.doc}} → {{ask.output.answer}}' }),
    n('end', 'end', { outputs: [{ name: 'result', value: '{{publish.output.text}}' }] }),
  ],
  edges: [e('start', 'draft'), e('draft', 'ask'), e('ask', 'publish'), e('publish', 'end')],
};

/** A loop over two reviewers; each pass asks its reviewer (a human-input node in the loop's body). */
const PER_PASS: Graph = {
  nodes: [
    n('start', 'start', { inputs: [{ name: 'people', type: 'array' }] }),
    n('loop', 'loop', { mode: 'list', items: '{{inputs.people}}', collect: '{{ask.output.answer}}' }),
    n('ask', 'human_input', { prompt: 'Review as {{loop.output.item}}', answerType: 'text' }),
    n('end', 'end', { outputs: [{ name: 'answers', value: '{{loop.output.results}}' }] }),
  ],
  edges: [e('start', 'loop'), e('loop', 'ask', 'body'), e('ask', 'loop'), e('loop', 'end', 'done')],
};

const kinds = await storeKinds();

describe.each(kinds)('human input on %s', (kind) => {
  // Only the restart case runs on PostgreSQL too: no store conformance suite holds a pending wait's storage yet.
  const onPglite = it.runIf(kind === 'pglite');
  const harnesses: Harness[] = [];
  const harness = async () => {
    const h = await createHarness(kind);
    harnesses.push(h);
    return h;
  };
  afterAll(async () => {
    for (const h of harnesses) await h.close().catch(() => {});
  });
  beforeEach(() => resetProbes());

  const lastEvent = async (h: Harness, runId: string) => (await h.events(runId)).at(-1)!;

  onPglite.each(['dag', 'langgraph', 'auto'] as const)(
    'engine %s: run → waiting with the question → answer → succeeds; nothing before it runs twice',
    async (engine) => {
      const h = await harness();
      const wf = (await h.store.getWorkflow(await h.createWorkflow(HITL, 'hitl', engine)))!;
      const { run } = await h.runs.start({ workflow: wf, inputs: { doc: 'report.pdf' }, engine });
      expect(run.engine).toBe(engine === 'langgraph' ? 'langgraph' : 'dag');
      await h.runs.waitFor(run.id);
      expect((await h.store.getRun(run.id))!.status).toBe('waiting');
      const ev = await lastEvent(h, run.id);
      expect(ev).toMatchObject({
        type: 'run.waiting',
        data: { nodeId: 'ask', prompt: 'Approve publishing report.pdf?' },
      });
      const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((x) => [x.nodeId, x.status]));
      expect(nodes).toMatchObject({ draft: 'succeeded', ask: 'waiting' });
      expect(nodes.publish).toBeUndefined();

      await expect(h.runs.answer(run.id, 'draft', 'yes')).rejects.toMatchObject({ code: 'WRONG_NODE' });
      await expect(h.runs.answer(run.id, 'ask', true)).rejects.toMatchObject({
        code: 'INVALID_ANSWER',
        path: 'answer',
      });
      expect((await h.store.getRun(run.id))!.status).toBe('waiting');

      await h.runs.answer(run.id, 'ask', 'approved');
      await h.runs.waitFor(run.id);
      const done = (await h.store.getRun(run.id))!;
      expect(done.status).toBe('succeeded');
      expect(done.outputs).toEqual({ result: 'report.pdf → approved' });
      expect(probeCalls.get('draft')).toBe(1);
      const ask = (await h.store.getNodeRuns(run.id)).find((x) => x.nodeId === 'ask')!;
      expect(ask.output).toEqual({ answer: 'approved', prompt: 'Approve publishing report.pdf?' });
      const err = await h.runs.answer(run.id, 'ask', 'again').catch((x) => x);
      expect(err).toBeInstanceOf(PaiError);
      expect(err).toMatchObject({ code: 'RUN_NOT_WAITING' });
    },
  );

  it('the wait survives a restart: the answer reaches the node from its checkpoint', async () => {
    const h1 = await harness();
    const wf = (await h1.store.getWorkflow(await h1.createWorkflow(HITL)))!;
    const { run } = await h1.runs.start({ workflow: wf, inputs: { doc: 'memo' } });
    await h1.runs.waitFor(run.id);
    expect((await h1.store.getRun(run.id))!.status).toBe('waiting');
    await h1.runs.close();
    await h1.tdb.reopen();
    const h2 = await createHarness(kind, { tdb: h1.tdb });
    harnesses.push(h2);
    expect(await h2.runs.recover(new Date(Date.now() + 1000))).not.toContain(run.id); // waiting is not orphaned
    await h2.runs.answer(run.id, 'ask', 'ship it');
    await h2.runs.waitFor(run.id);
    const done = (await h2.store.getRun(run.id))!;
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ result: 'memo → ship it' });
    expect(probeCalls.get('draft')).toBe(1);
  });

  onPglite('inside a loop it asks on every pass, and each pass keeps its own answer', async () => {
    const h = await harness();
    const wf = (await h.store.getWorkflow(await h.createWorkflow(PER_PASS)))!;
    const { run } = await h.runs.start({ workflow: wf, inputs: { people: ['ann', 'bo'] } });
    expect(run.engine).toBe('langgraph');
    await h.runs.waitFor(run.id);
    expect((await lastEvent(h, run.id)).data.prompt).toBe('Review as ann');
    await h.runs.answer(run.id, 'ask', 'fine by ann');
    await h.runs.waitFor(run.id);
    expect((await h.store.getRun(run.id))!.status).toBe('waiting');
    expect((await lastEvent(h, run.id)).data.prompt).toBe('Review as bo');
    await h.runs.answer(run.id, 'ask', 'fine by bo');
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toEqual({ answers: ['fine by ann', 'fine by bo'] });
  });
});
