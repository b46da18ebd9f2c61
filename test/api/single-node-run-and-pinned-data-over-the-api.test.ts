// Guarantees: POST /api/workflows/:id/nodes/:nodeId/run answers with the node's outcome after running only that node
// (one request reaches the OpenAI-compatible server; the downstream node is not in the run), with upstream values
// from `upstream` or the last run; a missing upstream value is 400 UPSTREAM_MISSING with its path, an invalid edited
// input 400 with its path, another workspace's run as fromRunId 404; history shows it as a single-node run. Pinned
// data replaces its node in editor test runs of the draft and never in a published version called over /api/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as runNode } from '@/app/api/workflows/[id]/nodes/[nodeId]/run/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { PUT as putWf } from '@/app/api/workflows/[id]/route';
import { GET as listRuns, POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { getApp } from '@/lib/server/app';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from './api-helpers';
import { bearer } from './v1-endpoint-helpers';

useFreshDataDir();

/** start(message) → t1 (template) → ask (llm) → t2 (template) → end(text = t2's). */
function graph(pinned?: { output: unknown; at: string }) {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'message', type: 'string', required: true }] } },
      },
      {
        id: 't1',
        type: 'template',
        position: { x: 200, y: 0 },
        data: { config: { template: 'Hello {{inputs.message}}', format: 'text' } },
      },
      {
        id: 'ask',
        type: 'llm',
        position: { x: 400, y: 0 },
        data: {
          label: 'Ask',
          config: { model: 'fake-model', userPrompt: '{{t1.output.text}}' },
          ...(pinned ? { pinned } : {}),
        },
      },
      {
        id: 't2',
        type: 'template',
        position: { x: 600, y: 0 },
        data: { config: { template: 'model said {{ask.output.text}}', format: 'text' } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 800, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{t2.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 't1' },
      { id: 'e2', source: 't1', target: 'ask' },
      { id: 'e3', source: 'ask', target: 't2' },
      { id: 'e4', source: 't2', target: 'end' },
    ],
  };
}

describe('single-node runs and pinned data over the API', () => {
  let fake: FakeOpenAi;
  const create = async (name: string, g: unknown, headers?: Record<string, string>) => {
    const a = await call(createWf, 'POST', '/api/workflows', { body: { name, graph: g }, headers });
    expect(a.status, a.text).toBe(201);
    return a.body.id as string;
  };
  const one = (id: string, nodeId: string, body: unknown) =>
    call(runNode, 'POST', `/api/workflows/${id}/nodes/${nodeId}/run`, { params: { id, nodeId }, body });
  const draftRun = async (id: string, inputs: Record<string, unknown>, headers?: Record<string, string>) => {
    const a = await call(startRun, 'POST', `/api/workflows/${id}/runs`, { params: { id }, body: { inputs }, headers });
    expect(a.status, a.text).toBe(202);
    return a.body.runId as string;
  };
  const userPrompt = (i: number) =>
    fake.requests[i].messages.findLast((m: { role: string }) => m.role === 'user').content;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    process.env.OPENAI_API_KEY = 'test';
    process.env.OPENAI_BASE_URL = fake.baseURL;
    await getApp();
  });
  afterAll(async () => {
    await (await getApp()).close();
    await fake?.close();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });

  it('runs only the node, with explicit upstream values, and history tells the run apart', async () => {
    const id = await create('One node', graph());
    fake.requests.length = 0;
    const a = await one(id, 'ask', { upstream: { t1: { text: 'given text' } } });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({ status: 'succeeded', output: { text: 'echo: given text' }, error: null });
    expect(typeof a.body.durationMs).toBe('number');
    expect(a.body.events.map((e: { type: string }) => e.type)).toContain('node.succeeded');
    expect(fake.requests).toHaveLength(1);
    expect(userPrompt(0)).toBe('given text');

    const run = await waitForRun(getRun, a.body.runId);
    expect(run.singleNode).toEqual({ nodeId: 'ask', label: 'Ask' });
    expect(run.nodes.map((n: { nodeId: string }) => n.nodeId)).toEqual(['start', 't1', 'ask']);
    const list = await call(listRuns, 'GET', `/api/workflows/${id}/runs`, { params: { id } });
    expect(list.body[0]).toMatchObject({ id: a.body.runId, singleNode: { nodeId: 'ask', label: 'Ask' } });
  });

  it('takes upstream values from the last run, and refuses what it cannot run', async () => {
    const id = await create('From the last run', graph());
    expectError(await one(id, 'ask', {}), 400, 'UPSTREAM_MISSING', 'upstream.t1');
    expectError(
      await one(id, 'ask', { upstream: { t1: { text: 'x' } }, input: { userPrompt: 42 } }),
      400,
      'INVALID_INPUT',
      'input.userPrompt',
    );
    expectError(await one(id, 'nope', {}), 404, 'NODE_NOT_FOUND');

    expect((await waitForRun(getRun, await draftRun(id, { message: 'Ada' }))).status).toBe('succeeded');
    fake.requests.length = 0;
    const a = await one(id, 'ask', {});
    expect(a.status, a.text).toBe(200);
    expect(a.body.status).toBe('succeeded');
    expect(fake.requests).toHaveLength(1);
    expect(userPrompt(0)).toBe('Hello Ada');
  });

  it('another workspace’s run is not found as fromRunId', async () => {
    const id = await create('Mine', graph());
    const ws = await call(createWorkspace, 'POST', '/api/workspaces', { body: { name: 'Other' } });
    expect(ws.status, ws.text).toBe(201);
    const other = { 'x-workspace-id': ws.body.id };
    const theirs = await create('Theirs', graph(), other);
    const theirRun = await draftRun(theirs, { message: 'secret' }, other);
    await (await getApp()).runs.waitFor(theirRun);
    fake.requests.length = 0;
    expectError(await one(id, 'ask', { fromRunId: theirRun }), 404, 'RUN_NOT_FOUND');
    expect(fake.requests).toHaveLength(0);
  });

  it('pinned output replaces the node in a test run of the draft, never in the published version', async () => {
    const id = await create('Pinned', graph());
    const pinned = { output: { text: 'pinned answer' }, at: new Date().toISOString() };
    const put = await call(putWf, 'PUT', `/api/workflows/${id}`, { params: { id }, body: { graph: graph(pinned) } });
    expect(put.status, put.text).toBe(200);

    fake.requests.length = 0;
    const test = await waitForRun(getRun, await draftRun(id, { message: 'Ada' }));
    expect(test.status).toBe('succeeded');
    expect(test.outputs).toEqual({ text: 'model said pinned answer' });
    expect(fake.requests).toHaveLength(0);
    expect(test.nodes.find((n: { nodeId: string }) => n.nodeId === 'ask')).toMatchObject({ attempt: 0 });

    const p = await call(publish, 'POST', `/api/workflows/${id}/publish`, { params: { id } });
    expect(p.status, p.text).toBe(201);
    const app = await getApp();
    const version = (await app.store.getVersion((await app.store.getWorkflow(id))!.currentVersionId!))!;
    expect(version.graph.nodes.some((n) => 'pinned' in n.data)).toBe(false);
    const key = await call(createKey, 'POST', `/api/workflows/${id}/api-keys`, { params: { id }, body: {} });
    const slug = p.body.slug as string;
    const v1 = await call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
      params: { slug },
      body: { inputs: { message: 'Ada' } },
      headers: bearer(key.body.key),
    });
    expect(v1.status, v1.text).toBe(200);
    expect(v1.body.outputs).toEqual({ text: 'model said echo: Hello Ada' });
    expect(fake.requests).toHaveLength(1);
  });

  it('never answered with a 5xx or a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
});
