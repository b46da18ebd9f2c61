// Guarantees: publishing pins the workflows a version calls (sub-workflow nodes and agents' workflow tools) to the
// child's published version at that moment, in the version's graph only; a published parent called over /api/v1
// keeps running that version after the child's draft changes and the child publishes again, while an editor run of
// the draft may choose the child's draft; a child never published makes publishing fail (422, code and path); a
// call cycle A → B → A is refused when saved or validated; a workflow of another workspace is not callable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { childGraph, parentGraph } from '../engine/sub-workflow-support';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from './api-helpers';
import { bearer } from './v1-endpoint-helpers';
import { databaseOf } from '../support/database-of';

useFreshDataDir();

/** start(who) → agent `a1` with the workflow tool `greeter` → end(answer). */
function agentParent(childId: string) {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'who', type: 'string', required: false, default: 'Ada' }] } },
      },
      {
        id: 'a1',
        type: 'agent',
        position: { x: 200, y: 0 },
        data: {
          config: {
            model: 'fake-model',
            task: 'greet {{inputs.who}}',
            tools: ['workflow__greeter'],
            workflowTools: [{ workflowId: childId, name: 'greeter' }],
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'answer', value: '{{a1.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'a1' },
      { id: 'e2', source: 'a1', target: 'end' },
    ],
  };
}

describe('sub-workflows of published parents run the pinned child version', () => {
  let fake: FakeOpenAi;
  let child = '';
  let parent = '';
  let agent = '';
  const slugs: Record<string, string> = {};
  const keys: Record<string, string> = {};

  const create = async (name: string, graph: unknown, draft = false) => {
    const a = await call(createWf, 'POST', `/api/workflows${draft ? '?draft=1' : ''}`, { body: { name, graph } });
    expect(a.status, a.text).toBe(201);
    return a.body.id as string;
  };
  const put = (id: string, graph: unknown, draft = false) =>
    call(putWf, 'PUT', `/api/workflows/${id}${draft ? '?draft=1' : ''}`, { params: { id }, body: { graph } });
  const publishOf = (id: string) => call(publish, 'POST', `/api/workflows/${id}/publish`, { params: { id } });
  const v1 = (slug: string, key: string) =>
    call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
      params: { slug },
      body: { inputs: { who: 'Ada' } },
      headers: bearer(key),
    });
  const draftRun = async (id: string) => {
    const a = await call(startRun, 'POST', `/api/workflows/${id}/runs`, { params: { id }, body: { inputs: {} } });
    expect(a.status, a.text).toBe(202);
    // Generous: an agent run with a child run takes seconds alone and far longer on a loaded CI machine.
    return waitForRun(getRun, a.body.runId, 120_000);
  };
  /** The agent asks for the tool once, then answers with the tool's result. */
  const scriptAgent = () =>
    fake.script({ toolCalls: [{ id: 'c1', name: 'workflow__greeter', arguments: { name: 'Ada' } }] });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    process.env.OPENAI_API_KEY = 'test';
    process.env.OPENAI_BASE_URL = fake.baseURL;
    fake.setDefault((body) => {
      const last = body.messages.at(-1);
      return { text: last?.role === 'tool' ? `tool said ${last.content}` : 'no tool' };
    });
    await getApp();
    child = await create('Greeter', childGraph('v1'));
    expect((await publishOf(child)).body.version).toBe(1);
    parent = await create('Parent', parentGraph(child));
    agent = await create('Agent parent', agentParent(child));
    for (const id of [parent, agent]) {
      const p = await publishOf(id);
      expect(p.status, p.text).toBe(201);
      slugs[id] = p.body.slug;
      const k = await call(createKey, 'POST', `/api/workflows/${id}/api-keys`, { params: { id }, body: {} });
      keys[id] = k.body.key;
    }
    // The child moves on: version 2 is published, then its draft is edited again.
    expect((await put(child, childGraph('v2'))).status).toBe(200);
    expect((await publishOf(child)).body.version).toBe(2);
    expect((await put(child, childGraph('draft'))).status).toBe(200);
  });
  afterAll(async () => {
    await (await getApp()).close();
    await fake?.close();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });

  it('pins the child version in the published graph and leaves the draft untouched', async () => {
    const app = await getApp();
    const wf = (await app.store.getWorkflow(parent))!;
    expect(wf.graph.nodes[1].data.config).not.toHaveProperty('pinnedVersion');
    const version = (await app.store.getVersion(wf.currentVersionId!))!;
    expect(version.graph.nodes[1].data.config).toMatchObject({ workflowId: child, pinnedVersion: 1 });
    const ag = (await app.store.getWorkflow(agent))!;
    const agVersion = (await app.store.getVersion(ag.currentVersionId!))!;
    expect((agVersion.graph.nodes[1].data.config as any).workflowTools).toEqual([
      { workflowId: child, name: 'greeter', pinnedVersion: 1 },
    ]);
    expect((ag.graph.nodes[1].data.config as any).workflowTools[0]).not.toHaveProperty('pinnedVersion');
    const got = await call(getWf, 'GET', `/api/workflows/${parent}`, { params: { id: parent } });
    expect(got.body.graph.nodes[1].data.config).not.toHaveProperty('pinnedVersion');
  });

  it('a published parent called over /api/v1 runs the pinned version, not the draft or a later version', async () => {
    const a = await v1(slugs[parent], keys[parent]);
    expect(a.status, a.text).toBe(200);
    expect(a.body.outputs.greeting).toBe('v1, Ada');
    const childRun = await call(getRun, 'GET', `/api/runs/${a.body.outputs.childRunId}`, {
      params: { runId: a.body.outputs.childRunId },
    });
    expect(childRun.body).toMatchObject({ workflowId: child, status: 'succeeded' });
    const app = await getApp();
    expect((await app.store.getVersion(childRun.body.versionId))!.version).toBe(1);
  });

  it("an editor run of the draft may choose the child's draft; by default it gets the current published", async () => {
    expect((await draftRun(parent)).outputs.greeting).toBe('v2, Ada');
    expect((await put(parent, parentGraph(child, { version: 'draft' }))).status).toBe(200);
    expect((await draftRun(parent)).outputs.greeting).toBe('draft, Ada');
    // The published version still answers with the pinned child.
    expect((await v1(slugs[parent], keys[parent])).body.outputs.greeting).toBe('v1, Ada');
  });

  it("an agent's workflow tool in a published parent runs the pinned version; a draft run, the draft", async () => {
    scriptAgent();
    const a = await v1(slugs[agent], keys[agent]);
    expect(a.status, a.text).toBe(200);
    expect(a.body.outputs.answer).toBe('tool said {"greeting":"v1, Ada"}');
    scriptAgent();
    expect((await draftRun(agent)).outputs.answer).toBe('tool said {"greeting":"draft, Ada"}');
  }, 180_000);

  it('a child that was never published makes publishing fail with 422, the code and the path', async () => {
    const lonely = await create('Never published', childGraph('x'));
    const p1 = await create('Calls an unpublished child', parentGraph(lonely, { version: 'draft' }));
    expectError(await publishOf(p1), 422, 'CHILD_NOT_PUBLISHED', 'graph.nodes[1].data.config.workflowId');
    const p2 = await create('Agent calls an unpublished child', agentParent(lonely));
    expectError(
      await publishOf(p2),
      422,
      'CHILD_NOT_PUBLISHED',
      'graph.nodes[1].data.config.workflowTools[0].workflowId',
    );
  });

  it('a call cycle A → B → A is refused when saved or validated, with the code and the path', async () => {
    const a = await create('A', childGraph('a'));
    const b = await create('B', parentGraph(a));
    const err = expectError(
      await put(a, parentGraph(b)),
      400,
      'WORKFLOW_CALL_CYCLE',
      'graph.nodes[1].data.config.workflowId',
    );
    expect(err.message).toContain('"B"');
    // Also for an editor autosave, and through an agent's workflow tools.
    expectError(await put(a, agentParent(b), true), 400, 'WORKFLOW_CALL_CYCLE');
    expectError(await put(a, parentGraph(a), true), 400, 'WORKFLOW_CALL_CYCLE');
    const v = await call(validateWf, 'POST', `/api/workflows/${a}/validate`, {
      params: { id: a },
      body: { graph: agentParent(b) },
    });
    expect(v.body.ok).toBe(false);
    expect(v.body.errors).toContainEqual(
      expect.objectContaining({
        code: 'WORKFLOW_CALL_CYCLE',
        path: 'nodes[1].data.config.workflowTools[0].workflowId',
        nodeIds: ['a1'],
      }),
    );
    // Nothing was saved: A still calls nobody.
    const app = await getApp();
    expect((await app.store.getWorkflow(a))!.graph.nodes.map((n) => n.type)).toEqual(['start', 'end']);
  });

  it('a workflow of another workspace cannot be called', async () => {
    const app = await getApp();
    await databaseOf(app).prisma.workspace.create({ data: { id: 'ws_sub_elsewhere', name: 'Elsewhere' } });
    const foreign = await app.store.createWorkflow({
      id: 'wf_sub_foreign',
      workspaceId: 'ws_sub_elsewhere',
      name: 'Foreign',
      description: '',
      graph: childGraph('secret'),
      engine: 'auto',
    });
    await app.store.publishVersion(foreign.id, {
      id: 'ver_sub_foreign',
      graph: foreign.graph,
      engine: 'auto',
      slug: 'foreign-sub',
    });
    const c = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Reaches out', graph: parentGraph(foreign.id) },
    });
    expect(c.status).toBe(400);
    const id = await create('Reaches out', parentGraph(foreign.id), true);
    const run = await draftRun(id);
    expect(run.status).toBe('failed');
    expect(run.nodes.find((n: any) => n.nodeId === 'w1').error).toMatchObject({ code: 'WORKFLOW_NOT_FOUND' });
    expect(await app.store.listRuns(foreign.id)).toHaveLength(0);
    expectError(await publishOf(id), 422, 'CHILD_WORKFLOW_NOT_FOUND', 'graph.nodes[1].data.config.workflowId');
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
});
