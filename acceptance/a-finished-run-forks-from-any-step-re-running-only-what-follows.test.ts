/**
 * Guarantee: time travel over a run, the same on both engines. `GET /api/runs/:id/checkpoints` lists a finished
 * run's steps in order with what each added to the state; `POST /api/runs/:id/fork { checkpointId, state? }` starts a
 * new run of the same graph from step 3 of a 6-step run, with step 3's output edited: steps 1–3 are reused (never
 * started again, their snapshots marked as forked), only steps 4–6 run, and they see the edited state. The source
 * run is unchanged. A checkpoint the run does not have is 404 and an edit of a later step is 400, each with its path.
 */
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, startRun, waitForRun } from './support/runs';
import { readSse } from './support/sse';

const { api, baseURL, token } = acceptance();

/** start → draft → review → polish → publish → end: six steps, each template adding to what came before. */
function sixSteps() {
  const step = (id: string, template: string, x: number) => node(id, 'template', { template }, x);
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'topic', type: 'string', required: true }] }),
      step('draft', 'draft about {{inputs.topic}}', 200),
      step('review', 'reviewed {{draft.output.text}}', 400),
      step('polish', 'polished {{review.output.text}}', 600),
      step('publish', 'published {{polish.output.text}}', 800),
      node('end', 'end', { outputs: [{ name: 'post', value: '{{publish.output.text}}' }] }, 1000),
    ],
    edges: chain('start', 'draft', 'review', 'polish', 'publish', 'end'),
  };
}

async function startedNodes(runId: string): Promise<string[]> {
  const stream = await readSse(`${baseURL}/api/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${token}` },
    timeoutMs: 60_000,
  });
  expect(stream.status).toBe(200);
  return stream.events
    .map((e) => e.json)
    .filter((e) => e.type === 'node.started')
    .map((e) => e.nodeId);
}

describe.each(['dag', 'langgraph'] as const)('fork a finished run on the %s engine', (engine) => {
  it('lists six checkpoints, forks from step 3 with its state edited, and re-runs only steps 4–6', async () => {
    const wf = await createWorkflow(api, `Fork ${engine} ${Date.now()}`, sixSteps(), { engine });
    const sourceId = await startRun(api, wf, { topic: 'tea' });
    const source = await waitForRun(api, sourceId);
    expect(source.status).toBe('succeeded');
    expect(source.outputs).toEqual({ post: 'published polished reviewed draft about tea' });

    const history = await api.expectStatus(api.get(`/api/runs/${sourceId}/checkpoints`), 200);
    expect(history.engine).toBe(engine);
    expect(history.inputs).toEqual({ topic: 'tea' });
    expect(history.checkpoints.map((c: any) => [c.step, c.nodeId])).toEqual([
      [1, 'start'],
      [2, 'draft'],
      [3, 'review'],
      [4, 'polish'],
      [5, 'publish'],
      [6, 'end'],
    ]);
    const step3 = history.checkpoints[2];
    expect(step3.output).toEqual({ text: 'reviewed draft about tea' });

    const forked = await api.expectStatus(
      api.post(`/api/runs/${sourceId}/fork`, {
        checkpointId: step3.checkpointId,
        state: { review: { text: 'reviewed and shortened' } },
      }),
      201,
    );
    expect(forked.forkedFrom).toEqual({ runId: sourceId, checkpointId: 'review', step: 3 });
    expect(forked.reused).toEqual(['start', 'draft', 'review']);
    const run = await waitForRun(api, forked.runId);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.engine).toBe(engine);
    expect(run.versionId).toBe(source.versionId);
    expect(run.outputs).toEqual({ post: 'published polished reviewed and shortened' });
    // Steps 1–3 were reused, never executed (attempt 0); steps 4–6 ran once each, and nothing else started.
    for (const id of ['start', 'draft', 'review']) expect(nodeOf(run, id), id).toMatchObject({ attempt: 0 });
    for (const id of ['polish', 'publish', 'end']) expect(nodeOf(run, id), id).toMatchObject({ attempt: 1 });
    expect(await startedNodes(forked.runId)).toEqual(['polish', 'publish', 'end']);

    // The source run is as it was.
    const after = await waitForRun(api, sourceId);
    expect(after.outputs).toEqual(source.outputs);
    expect(after.nodes.map((n: any) => n.output)).toEqual(source.nodes.map((n: any) => n.output));
  });
});

describe('a fork that cannot be made is refused with its path', () => {
  it('answers 404 for a checkpoint it does not have, 400 for an edit of a later step or an unknown key', async () => {
    const wf = await createWorkflow(api, `Fork refusals ${Date.now()}`, sixSteps());
    const sourceId = await startRun(api, wf, { topic: 'coffee' });
    expect((await waitForRun(api, sourceId)).status).toBe('succeeded');

    const missing = await api.post(`/api/runs/${sourceId}/fork`, { checkpointId: 'nowhere' });
    expect(missing.status, missing.text).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'CHECKPOINT_NOT_FOUND', path: 'checkpointId' });

    const later = await api.post(`/api/runs/${sourceId}/fork`, {
      checkpointId: 'draft',
      state: { publish: { text: 'too late' } },
    });
    expect(later.status, later.text).toBe(400);
    expect(later.body.error).toMatchObject({ code: 'FORK_STATE_NOT_AT_CHECKPOINT', path: 'state.publish' });

    const unknown = await api.post(`/api/runs/${sourceId}/fork`, { checkpointId: 'draft', from: 'step 2' });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.error.path).toBe('from');

    const none = await api.post('/api/runs/run_doesnotexist/fork', { checkpointId: 'draft' });
    expect(none.status, none.text).toBe(404);
    expect(none.body.error.code).toBe('RUN_NOT_FOUND');
  });
});
