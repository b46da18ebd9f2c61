// Guarantees: in GET /api/runs (the /runs page) and GET /api/workflows/:id/runs (the editor's history), a single-node
// run ("run this node") names its node — by label — and shows the input that node actually ran with (the edited
// input when one was given), not only the run's start inputs; a run of the whole workflow has `singleNode: null`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as listAllRuns } from '@/app/api/runs/route';
import { POST as runNode } from '@/app/api/workflows/[id]/nodes/[nodeId]/run/route';
import { GET as listRuns, POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';

useFreshDataDir('paiflow-single-node-list-');
process.env.SEED_EXAMPLE = '0';

/** start(name) → hello (template) → greet (template, label "Greet") → end. */
const graph = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'name', type: 'string', required: true }] } },
    },
    {
      id: 'hello',
      type: 'template',
      position: { x: 200, y: 0 },
      data: { label: 'Hello', config: { template: 'Hello {{inputs.name}}', format: 'text' } },
    },
    {
      id: 'greet',
      type: 'template',
      position: { x: 400, y: 0 },
      data: { label: 'Greet', config: { template: '{{hello.output.text}}!', format: 'text' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 600, y: 0 },
      data: { config: { outputs: [{ name: 'text', value: '{{greet.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'hello' },
    { id: 'e2', source: 'hello', target: 'greet' },
    { id: 'e3', source: 'greet', target: 'end' },
  ],
};

describe('single-node runs in the run lists', () => {
  let wfId = '';
  let fullRun = '';
  beforeAll(async () => {
    await getApp();
    const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Single node list', graph } });
    expect(wf.status, wf.text).toBe(201);
    wfId = wf.body.id;
    const started = await call(startRun, 'POST', `/api/workflows/${wfId}/runs`, {
      params: { id: wfId },
      body: { inputs: { name: 'Ada' } },
    });
    expect(started.status, started.text).toBe(202);
    fullRun = started.body.runId;
    await (await getApp()).runs.waitFor(fullRun);
  });
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
  });

  const runGreet = async (body: unknown) => {
    const a = await call(runNode, 'POST', `/api/workflows/${wfId}/nodes/greet/run`, {
      params: { id: wfId, nodeId: 'greet' },
      body,
    });
    expect(a.status, a.text).toBe(200);
    expect(a.body.status).toBe('succeeded');
    return a.body.runId as string;
  };

  it('an edited input: both lists name the node and show that input; the run inputs stay as given', async () => {
    const runId = await runGreet({ input: { template: 'Edited by hand', format: 'text' } });
    const all = await call(listAllRuns, 'GET', `/api/runs?workflowId=${wfId}`);
    expect(all.status, all.text).toBe(200);
    const row = all.body.runs.find((r: { id: string }) => r.id === runId);
    expect(row.singleNode).toMatchObject({ nodeId: 'greet', label: 'Greet' });
    expect(JSON.parse(row.singleNode.inputPreview)).toEqual({ template: 'Edited by hand', format: 'text' });
    expect(JSON.parse(row.inputsPreview)).toEqual({ name: 'Ada' });

    const history = await call(listRuns, 'GET', `/api/workflows/${wfId}/runs`, { params: { id: wfId } });
    const h = history.body.find((r: { id: string }) => r.id === runId);
    expect(h.singleNode).toMatchObject({ nodeId: 'greet', label: 'Greet' });
    expect(JSON.parse(h.singleNode.inputPreview)).toEqual({ template: 'Edited by hand', format: 'text' });
  });

  it('no edit: the input shown is the one the node ran with (its snapshot)', async () => {
    const runId = await runGreet({ upstream: { hello: { text: 'Hi Bo' } } });
    const all = await call(listAllRuns, 'GET', `/api/runs?workflowId=${wfId}`);
    const row = all.body.runs.find((r: { id: string }) => r.id === runId);
    expect(row.singleNode.nodeId).toBe('greet');
    const run = await call(getRun, 'GET', `/api/runs/${runId}`, { params: { runId } });
    const snapshot = run.body.nodes.find((n: { nodeId: string }) => n.nodeId === 'greet');
    expect(JSON.parse(row.singleNode.inputPreview)).toEqual(snapshot.input);
  });

  it('a run of the whole workflow is not a single-node run', async () => {
    const all = await call(listAllRuns, 'GET', `/api/runs?workflowId=${wfId}`);
    expect(all.body.runs.find((r: { id: string }) => r.id === fullRun).singleNode).toBeNull();
  });
});
