// Guarantees: GET /api/inbox lists the runs waiting for a person (human input, a breakpoint) in every workspace where
// the caller may answer them, newest first, with the total count and what each waits on; a viewer (who cannot answer)
// gets none, a member of one workspace never sees another's; `workflowId` and `limit` narrow it, bad ones are 400
// with their path; an answered run leaves the inbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as answer } from '@/app/api/runs/[runId]/answer/route';
import { GET as inbox } from '@/app/api/inbox/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { createTenancy, type Member, type Tenancy } from '../auth/support/tenancy';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';

useFreshDataDir('paiflow-inbox-');
process.env.SEED_EXAMPLE = '0';

/** start(item) → approve (human input, label "Approve?") → end. */
const approvalGraph = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'item', type: 'string', required: true }] } },
    },
    {
      id: 'approve',
      type: 'human_input',
      position: { x: 200, y: 0 },
      data: { label: 'Approve?', config: { prompt: 'Ship {{inputs.item}}?', answerType: 'boolean' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 400, y: 0 },
      data: { config: { outputs: [{ name: 'ok', value: '{{approve.output.answer}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'approve' },
    { id: 'e2', source: 'approve', target: 'end' },
  ],
};

describe('GET /api/inbox', () => {
  let t: Tenancy;
  let wfA = '';
  let humanA = '';
  let breakA = '';
  let humanB = '';

  const create = async (as: Member, name: string, graph: unknown) => {
    const a = await call(createWf, 'POST', '/api/workflows', { body: { name, graph }, headers: as.headers });
    expect(a.status, a.text).toBe(201);
    return a.body.id as string;
  };
  const waitingRun = async (as: Member, id: string, body: unknown) => {
    const a = await call(startRun, 'POST', `/api/workflows/${id}/runs`, { params: { id }, body, headers: as.headers });
    expect(a.status, a.text).toBe(202);
    const runId = a.body.runId as string;
    await (await getApp()).runs.waitFor(runId);
    expect((await (await getApp()).store.getRun(runId))?.status).toBe('waiting');
    return runId;
  };
  const inboxOf = (as: Member, query = '') =>
    call(inbox, 'GET', `/api/inbox${query ? `?${query}` : ''}`, { headers: as.headers });

  beforeAll(async () => {
    t = await createTenancy();
    wfA = await create(t.ownerA, 'Ship approval', approvalGraph);
    humanA = await waitingRun(t.ownerA, wfA, { inputs: { item: 'v1.2' } });
    const debugWf = await create(t.editorA, 'Debugged', simpleGraph('Hi {{inputs.message}}'));
    const fmt = (await (await getApp()).store.getWorkflow(debugWf))!.graph.nodes[1].id;
    breakA = await waitingRun(t.editorA, debugWf, { inputs: { message: 'x' }, breakpoints: [fmt] });
    const wfB = await create(t.ownerB, 'B approval', approvalGraph);
    humanB = await waitingRun(t.ownerB, wfB, { inputs: { item: 'b-side' } });
  }, 120_000);
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
  });

  it('an owner of both workspaces sees every waiting run, newest first, with what each waits on', async () => {
    const a = await inboxOf(t.ownerA);
    expect(a.status, a.text).toBe(200);
    expect(a.body.count).toBe(3);
    expect(a.body.runs.map((r: { id: string }) => r.id)).toEqual([humanB, breakA, humanA]);
    const human = a.body.runs.find((r: { id: string }) => r.id === humanA);
    expect(human).toMatchObject({
      workflowId: wfA,
      workflowName: 'Ship approval',
      workspaceId: t.workspaceA,
      kind: 'human_input',
      node: { id: 'approve', label: 'Approve?', type: 'human_input' },
      detail: 'Ship v1.2?',
    });
    expect(typeof human.waitingSince).toBe('string');
    expect(a.body.runs.find((r: { id: string }) => r.id === breakA)).toMatchObject({ kind: 'breakpoint' });
    expect(a.body.runs.find((r: { id: string }) => r.id === humanB)).toMatchObject({
      workspaceId: t.workspaceB,
      workspaceName: 'B',
    });
  });

  it("an editor sees only their workspace's runs; a viewer, who cannot answer, sees none", async () => {
    const editor = await inboxOf(t.editorA);
    expect(editor.body.count).toBe(2);
    expect(editor.body.runs.map((r: { id: string }) => r.id).sort()).toEqual([breakA, humanA].sort());
    const viewer = await inboxOf(t.viewerA);
    expect(viewer.status, viewer.text).toBe(200);
    expect(viewer.body).toEqual({ count: 0, runs: [] });
    const ownerB = await inboxOf(t.ownerB);
    expect(ownerB.body.runs.map((r: { id: string }) => r.id)).toEqual([humanB]);
  });

  it('workflowId and limit narrow it; bad ones are 400 with their path', async () => {
    const one = await inboxOf(t.ownerA, `workflowId=${wfA}`);
    expect(one.body).toMatchObject({ count: 1, runs: [{ id: humanA }] });
    // Another workspace's workflow, for a caller outside it: nothing.
    expect((await inboxOf(t.editorA, `workflowId=${one.body.runs[0].workflowId}x`)).body.count).toBe(0);
    const page = await inboxOf(t.ownerA, 'limit=1');
    expect(page.body.count).toBe(3);
    expect(page.body.runs).toHaveLength(1);
    expectError(await inboxOf(t.ownerA, 'limit=0'), 400, 'VALIDATION_ERROR', 'query.limit');
    expectError(await inboxOf(t.ownerA, 'limit=abc'), 400, 'VALIDATION_ERROR', 'query.limit');
  });

  it('an answered run leaves the inbox', async () => {
    const a = await call(answer, 'POST', `/api/runs/${humanA}/answer`, {
      params: { runId: humanA },
      body: { nodeId: 'approve', answer: true },
      headers: t.ownerA.headers,
    });
    expect(a.status, a.text).toBe(202);
    await (await getApp()).runs.waitFor(humanA);
    const after = await inboxOf(t.ownerA);
    expect(after.body.count).toBe(2);
    expect(after.body.runs.map((r: { id: string }) => r.id)).not.toContain(humanA);
  });
});
