// Guarantees: POST /api/workflows without a graph (the list's "Blank workflow") stores a Start joined to an End that
// runs at once to `succeeded`; without a name too, it is named "Untitled workflow", then "Untitled workflow (2)", in
// the request's language (?lang= or Accept-Language: "未命名工作流", node labels 开始 / 结束). A caller that sends a
// graph gets exactly that graph (an empty one stays empty), and a graph without a name is still refused at `name`.
import { afterAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
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

useFreshDataDir('paiflow-blank-workflow-');
process.env.SEED_EXAMPLE = '0';

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

const create = async (body: unknown, headers?: Record<string, string>, url = '/api/workflows') => {
  const a = await call(createWf, 'POST', url, { body, headers });
  expect(a.status, a.text).toBe(201);
  return a.body;
};

describe('a blank workflow', () => {
  it('has a Start joined to an End, and runs to succeeded', async () => {
    const wf = await create({ name: 'Blank one' });
    expect(wf.name).toBe('Blank one');
    expect(wf.graph.nodes.map((n: any) => [n.id, n.type, n.data.label])).toEqual([
      ['start', 'start', 'Start'],
      ['end', 'end', 'End'],
    ]);
    expect(wf.graph.edges).toEqual([expect.objectContaining({ source: 'start', target: 'end' })]);
    expect(wf.problems).toEqual([]);
    // Side by side, not on top of each other.
    const [s, e] = wf.graph.nodes;
    expect(e.position.x - s.position.x).toBeGreaterThanOrEqual(300);

    const id = wf.id;
    const run = await call(startRun, 'POST', `/api/workflows/${id}/runs`, { params: { id }, body: { inputs: {} } });
    expect(run.status, run.text).toBe(202);
    expect((await waitForRun(getRun, run.body.runId)).status).toBe('succeeded');
  });

  it('gets a name no other workflow has, in the request language', async () => {
    expect((await create({})).name).toBe('Untitled workflow');
    expect((await create({ description: 'second' })).name).toBe('Untitled workflow (2)');
    expect((await create({})).name).toBe('Untitled workflow (3)');

    const zh = await create({}, {}, '/api/workflows?lang=zh-CN');
    expect(zh.name).toBe('未命名工作流');
    expect(zh.graph.nodes.map((n: any) => n.data.label)).toEqual(['开始', '结束']);
    expect((await create({}, { 'accept-language': 'zh-CN,zh;q=0.9' })).name).toBe('未命名工作流 (2)');
  });

  it('leaves a graph the caller sends as it is, and still asks a graph for its name', async () => {
    // (An empty graph is not runnable: only a draft may be one.)
    const empty = await create(
      { name: 'Empty on purpose', graph: { nodes: [], edges: [] } },
      {},
      '/api/workflows?draft=1',
    );
    expect(empty.graph).toEqual({ nodes: [], edges: [] });
    expect(empty.problems.map((p: any) => p.code)).toEqual(['MISSING_START', 'MISSING_END']);
    const given = await create({ name: 'Given', graph: simpleGraph() });
    expect(given.graph.nodes.map((n: any) => n.id)).toEqual(['start', 't1', 'end']);

    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { graph: simpleGraph() } }),
      400,
      'VALIDATION_ERROR',
      'name',
    );
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { name: '  ' } }),
      400,
      'VALIDATION_ERROR',
      'name',
    );
    expectError(await call(createWf, 'POST', '/api/workflows', { body: { bogus: 1 } }), 400, 'UNKNOWN_KEY');
  });
});
