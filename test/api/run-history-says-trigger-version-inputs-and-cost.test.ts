// Guarantees: the editor's run history (GET /api/workflows/:id/runs) says of each run how it was started (editor or
// the published API), which published version ran (null: the draft), what it cost and what its inputs were (a short
// preview), agrees with the workspace run list on all of it, and filters by status and trigger; a bad filter is a 400
// with its query path. Real app on the embedded database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as listAllRuns } from '@/app/api/runs/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { GET as listRuns, POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import {
  call,
  expectError,
  expectNoServerErrorsOrStacks,
  simpleGraph,
  useFreshDataDir,
  waitForRun,
} from './api-helpers';
import { bearer } from './v1-endpoint-helpers';

useFreshDataDir('paiflow-run-history-');
process.env.SEED_EXAMPLE = '0';

/** start → condition: message "fail" → an HTTP call to a closed port (the run fails), else → template → end. */
function graph() {
  const g = simpleGraph();
  const cond = { left: '{{inputs.message}}', op: 'eq', right: 'fail' };
  g.nodes.push(
    {
      id: 'route',
      type: 'condition',
      position: { x: 100, y: 0 },
      data: { config: { branches: [{ id: 'bad', conditions: [cond] }] } as never },
    },
    { id: 'h', type: 'http', position: { x: 200, y: 200 }, data: { config: { url: 'http://127.0.0.1:9/' } as never } },
  );
  g.edges = [
    { id: 'e0', source: 'start', target: 'route' },
    { id: 'e1', source: 'route', target: 't1', sourceHandle: 'else' } as never,
    { id: 'e3', source: 'route', target: 'h', sourceHandle: 'bad' } as never,
    { id: 'e2', source: 't1', target: 'end' },
  ];
  return g;
}

let wfId = '';
const history = (qs = '') => call(listRuns, 'GET', `/api/workflows/${wfId}/runs${qs}`, { params: { id: wfId } });
const ids: Record<string, string> = {};

beforeAll(async () => {
  await getApp();
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'History', graph: graph() } });
  expect(wf.status, wf.text).toBe(201);
  wfId = wf.body.id;

  // From the editor: a draft run that succeeds, and one that fails.
  const a = await call(startRun, 'POST', `/api/workflows/${wfId}/runs`, {
    params: { id: wfId },
    body: { inputs: { message: 'from the editor' } },
  });
  expect(a.status, a.text).toBe(202);
  ids.editor = a.body.runId;
  expect((await waitForRun(getRun, ids.editor)).status).toBe('succeeded');
  const f = await call(startRun, 'POST', `/api/workflows/${wfId}/runs`, {
    params: { id: wfId },
    body: { inputs: { message: 'fail' } },
  });
  expect(f.status, f.text).toBe(202);
  ids.failed = f.body.runId;
  expect((await waitForRun(getRun, ids.failed)).status).toBe('failed');

  // Through the published API with a key: version 1.
  const p = await call(publish, 'POST', `/api/workflows/${wfId}/publish`, { params: { id: wfId } });
  expect(p.status, p.text).toBe(201);
  const k = await call(createKey, 'POST', `/api/workflows/${wfId}/api-keys`, { params: { id: wfId }, body: {} });
  expect(k.status, k.text).toBe(201);
  const v = await call(v1Run, 'POST', `/api/v1/workflows/${p.body.slug}/run`, {
    params: { slug: p.body.slug },
    headers: bearer(k.body.key),
    body: { inputs: { message: 'x'.repeat(1000) }, mode: 'sync' },
  });
  expect(v.status, v.text).toBe(200);
  ids.api = v.body.runId;
});

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

describe('the run history of a workflow', () => {
  it('says trigger, version, cost and inputs of every run, newest first', async () => {
    const a = await history();
    expect(a.status, a.text).toBe(200);
    expect(a.body.map((r: { id: string }) => r.id)).toEqual([ids.api, ids.failed, ids.editor]);
    const [api, failed, editor] = a.body;
    expect(editor).toMatchObject({
      trigger: 'editor',
      version: null,
      versionId: null,
      status: 'succeeded',
      costUsd: 0,
      error: null,
      singleNode: null,
    });
    expect(JSON.parse(editor.inputsPreview)).toEqual({ message: 'from the editor' });
    expect(failed).toMatchObject({ trigger: 'editor', status: 'failed', error: { code: expect.any(String) } });
    expect(api).toMatchObject({ trigger: 'api', version: 1, versionId: expect.stringMatching(/^ver_/) });
    // A long input is previewed, not shipped whole.
    expect(api.inputsPreview.length).toBe(200);
    expect(api.inputsPreview.startsWith('{"message": "xxx')).toBe(true);
    // The same facts as the workspace's run list.
    const all = await call(listAllRuns, 'GET', `/api/runs?workflowId=${wfId}`);
    for (const row of all.body.runs) {
      const mine = a.body.find((r: { id: string }) => r.id === row.id);
      for (const key of ['trigger', 'version', 'costUsd', 'status', 'createdAt', 'durationMs'])
        expect(mine[key], `${row.id}.${key}`).toEqual(row[key]);
    }
  });

  it('filters by trigger and by status', async () => {
    const ids_ = async (qs: string) => (await history(qs)).body.map((r: { id: string }) => r.id);
    expect(await ids_('?trigger=api')).toEqual([ids.api]);
    expect(await ids_('?trigger=editor')).toEqual([ids.failed, ids.editor]);
    expect(await ids_('?trigger=webhook')).toEqual([]);
    expect(await ids_('?status=failed')).toEqual([ids.failed]);
    expect(await ids_('?status=succeeded&trigger=editor')).toEqual([ids.editor]);
    expect(await ids_('?limit=1')).toEqual([ids.api]);
    // A bad limit still means the default, as it always has.
    expect(await ids_('?limit=abc')).toHaveLength(3);
  });

  it('refuses an unknown filter value with its path', async () => {
    expectError(await history('?status=nope'), 400, 'VALIDATION_ERROR', 'query.status');
    expectError(await history('?trigger=fax'), 400, 'VALIDATION_ERROR', 'query.trigger');
  });
});
