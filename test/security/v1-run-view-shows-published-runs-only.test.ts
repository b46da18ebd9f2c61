// Guarantees: an API key of a workflow reads only that workflow's published runs through /api/v1/runs/:id (an editor
// draft run is "not found", for the run view and its event stream alike), and sees the run's status, inputs, outputs
// and usage, never the graph or any node's input or output; the node trace (statuses, timings, error codes) only when
// the workflow's publisher opted in with PATCH /publish { publicTrace: true }.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { PATCH as publishSettings, POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as startDraftRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWorkflow } from '@/app/api/workflows/route';
import { GET as v1Events } from '@/app/api/v1/runs/[runId]/events/route';
import { GET as v1Run } from '@/app/api/v1/runs/[runId]/route';
import { POST as runPublished } from '@/app/api/v1/workflows/[slug]/run/route';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir } from '../api/api-helpers';
import { bearer } from '../api/v1-endpoint-helpers';

const SECRET_PROMPT = 'internal prompt: classify {{inputs.message}} for the back office';

let workflowId: string;
let slug: string;
let key: string;

beforeAll(async () => {
  useFreshDataDir('paiflow-v1view-');
  const wf = await call(createWorkflow, 'POST', '/api/workflows', {
    body: {
      name: 'Internals',
      graph: {
        nodes: [
          {
            id: 'start',
            type: 'start',
            position: { x: 0, y: 0 },
            data: { config: { inputs: [{ name: 'message', type: 'string', required: true }] } },
          },
          { id: 'inner', type: 'template', position: { x: 200, y: 0 }, data: { config: { template: SECRET_PROMPT } } },
          {
            id: 'end',
            type: 'end',
            position: { x: 400, y: 0 },
            data: { config: { outputs: [{ name: 'answer', value: 'thanks for "{{inputs.message}}"' }] } },
          },
        ],
        edges: [
          { id: 'e1', source: 'start', target: 'inner' },
          { id: 'e2', source: 'inner', target: 'end' },
        ],
      },
    },
  });
  workflowId = wf.body.id;
  const params = { id: workflowId };
  slug = (await call(publish, 'POST', `/api/workflows/${workflowId}/publish`, { params, body: {} })).body.slug;
  key = (await call(createKey, 'POST', `/api/workflows/${workflowId}/api-keys`, { params, body: {} })).body.key;
});

afterAll(async () => {
  await (await getApp()).close();
});

const view = (runId: string) =>
  call(v1Run, 'GET', `/api/v1/runs/${runId}`, { params: { runId }, headers: bearer(key) });

async function publishedRun() {
  const r = await call(runPublished, 'POST', `/api/v1/workflows/${slug}/run`, {
    params: { slug },
    headers: bearer(key),
    body: { inputs: { message: 'hello' } },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.runId as string;
}

describe('GET /api/v1/runs/:id', () => {
  it('an editor draft run of the same workflow is not found, for the view and the event stream', async () => {
    const draft = await call(startDraftRun, 'POST', `/api/workflows/${workflowId}/runs`, {
      params: { id: workflowId },
      body: { inputs: { message: 'draft' } },
    });
    expect(draft.status).toBe(202);
    await (await getApp()).runs.waitFor(draft.body.runId);
    const seen = await view(draft.body.runId);
    expect(seen.status).toBe(404);
    expect(seen.body.error.code).toBe('RUN_NOT_FOUND');
    const events = await call(v1Events, 'GET', `/api/v1/runs/${draft.body.runId}/events`, {
      params: { runId: draft.body.runId },
      headers: bearer(key),
    });
    expect(events.status).toBe(404);
  });

  it('a published run shows status, inputs, outputs and usage, and nothing of the internals', async () => {
    const runId = await publishedRun();
    const seen = await view(runId);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      id: runId,
      workflowId,
      status: 'succeeded',
      inputs: { message: 'hello' },
      outputs: { answer: 'thanks for "hello"' },
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(seen.body.nodes).toBeUndefined();
    expect(seen.body.graph).toBeUndefined();
    expect(seen.text).not.toContain('internal prompt');
  });

  it('with publicTrace, the node trace: statuses and timings, still no node inputs or outputs', async () => {
    const on = await call(publishSettings, 'PATCH', `/api/workflows/${workflowId}/publish`, {
      params: { id: workflowId },
      body: { publicTrace: true },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body.publicTrace).toBe(true);
    const runId = await publishedRun();
    const seen = await view(runId);
    expect(seen.status).toBe(200);
    expect(seen.body.nodes.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])).toEqual([
      ['start', 'succeeded'],
      ['inner', 'succeeded'],
      ['end', 'succeeded'],
    ]);
    for (const n of seen.body.nodes) {
      expect(n).not.toHaveProperty('input');
      expect(n).not.toHaveProperty('output');
      expect(typeof n.durationMs).toBe('number');
    }
    expect(seen.text).not.toContain('internal prompt');
  });

  it('publishing settings refuse what is not a boolean, with its path', async () => {
    const bad = await call(publishSettings, 'PATCH', `/api/workflows/${workflowId}/publish`, {
      params: { id: workflowId },
      body: { publicTrace: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe('publicTrace');
  });
});
