// Guarantees: every kind of invalid graph or request is refused with a specific 4xx code and JSON path, nothing is saved, and no answer is ever a 500 or a stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as events } from '@/app/api/runs/[runId]/events/route';
import { POST as cancelRun } from '@/app/api/runs/[runId]/cancel/route';
import { POST as resumeRun } from '@/app/api/runs/[runId]/resume/route';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { DELETE as deleteWf, GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { GET as listRuns, POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';

useFreshDataDir();

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  await (await getApp()).close();
});

async function workflowCount(): Promise<number> {
  const a = await call(listWf, 'GET', '/api/workflows');
  expect(a.status).toBe(200);
  return a.body.length;
}

type G = ReturnType<typeof simpleGraph> & { nodes: any[]; edges: any[] };
const base = (): G => simpleGraph() as G;
const llmNode = (id: string, config: Record<string, unknown>) => ({
  id,
  type: 'llm',
  position: { x: 0, y: 0 },
  data: { config: { userPrompt: 'hi', ...config } },
});

/** Each case: a graph (and engine), the expected first error code and its JSON path. */
const cases: Array<{
  name: string;
  graph: () => unknown;
  engine?: string;
  code: string;
  path: string;
  nodeIds?: string[];
}> = [
  {
    name: 'unknown node type',
    graph: () => {
      const g = base();
      g.nodes[1].type = 'teleport';
      return g;
    },
    code: 'UNKNOWN_NODE_TYPE',
    path: 'graph.nodes[1].type',
  },
  {
    name: 'dangling edge',
    graph: () => {
      const g = base();
      g.edges.push({ id: 'e3', source: 't1', target: 'ghost' });
      return g;
    },
    code: 'DANGLING_EDGE',
    path: 'graph.edges[2].target',
  },
  {
    name: 'duplicate node id',
    graph: () => {
      const g = base();
      g.nodes.push({ ...g.nodes[1], position: { x: 1, y: 1 } });
      return g;
    },
    code: 'DUPLICATE_NODE_ID',
    path: 'graph.nodes[3].id',
  },
  {
    name: 'missing start',
    graph: () => ({
      nodes: [llmNode('n1', {}), { id: 'end', type: 'end', position: { x: 0, y: 0 }, data: { config: {} } }],
      edges: [{ id: 'e1', source: 'n1', target: 'end' }],
    }),
    code: 'MISSING_START',
    path: 'graph.nodes',
  },
  {
    name: 'missing end',
    graph: () => {
      const g = base();
      g.nodes.pop();
      g.edges.pop();
      return g;
    },
    code: 'MISSING_END',
    path: 'graph.nodes',
  },
  {
    name: 'unreachable node',
    graph: () => {
      const g = base();
      g.nodes.push(llmNode('island', {}));
      return g;
    },
    code: 'UNREACHABLE_NODE',
    path: 'graph.nodes[3]',
  },
  {
    name: 'bad config (llm temperature 5)',
    graph: () => {
      const g = base();
      g.nodes.splice(1, 0, llmNode('n1', { temperature: 5 }));
      g.edges = [
        { id: 'a', source: 'start', target: 'n1' },
        { id: 'b', source: 'n1', target: 't1' },
        { id: 'c', source: 't1', target: 'end' },
      ];
      return g;
    },
    code: 'INVALID_CONFIG',
    path: 'graph.nodes[1].data.config.temperature',
  },
  {
    name: 'ref to an unknown node',
    graph: () => {
      const g = base();
      g.nodes[1].data.config.template = 'x {{nope.output.text}}';
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref to an undeclared input',
    graph: () => {
      const g = base();
      g.nodes[1].data.config.template = '{{inputs.question}}';
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref to a node that is not upstream',
    graph: () => {
      const g = base();
      // start → t1 → end and start → t2 → end: t1 may not read t2.
      g.nodes.push({ id: 't2', type: 'template', position: { x: 0, y: 0 }, data: { config: { template: 'b' } } });
      g.edges.push({ id: 'e3', source: 'start', target: 't2' }, { id: 'e4', source: 't2', target: 'end' });
      g.nodes[1].data.config.template = '{{t2.output.text}}';
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref that is code, not a path',
    graph: () => {
      const g = base();
      g.nodes[1].data.config.template = "{{constructor.constructor('return process')()}}";
      return g;
    },
    code: 'INVALID_REF',
    path: 'graph.nodes[1].data.config.template',
  },
  {
    name: 'ref in an end output to a downstream-only node',
    graph: () => {
      const g = base();
      g.nodes[2].data.config.outputs = [{ name: 'x', value: '{{end.output}}' }];
      return g;
    },
    code: 'UNRESOLVED_REF',
    path: 'graph.nodes[2].data.config.outputs[0].value',
  },
  {
    name: 'cycle under a forced dag engine',
    engine: 'dag',
    graph: () => {
      const g = base();
      g.nodes.splice(2, 0, {
        id: 't2',
        type: 'template',
        position: { x: 0, y: 0 },
        data: { config: { template: 'b' } },
      });
      g.edges = [
        { id: 'a', source: 'start', target: 't1' },
        { id: 'b', source: 't1', target: 't2' },
        { id: 'c', source: 't2', target: 't1' },
        { id: 'd', source: 't2', target: 'end' },
      ];
      return g;
    },
    code: 'GRAPH_CYCLE',
    path: 'graph.edges[2]',
    nodeIds: ['t1', 't2'],
  },
  {
    name: 'self-loop under a forced dag engine',
    engine: 'dag',
    graph: () => {
      const g = base();
      g.edges.push({ id: 'self', source: 't1', target: 't1' });
      return g;
    },
    code: 'GRAPH_CYCLE',
    path: 'graph.edges[2]',
    nodeIds: ['t1'],
  },
  {
    name: 'not a graph at all',
    graph: () => ({ nodes: 'many' }),
    code: 'GRAPH_SCHEMA',
    path: 'graph.nodes',
  },
  {
    name: 'node id with forbidden characters',
    graph: () => {
      const g = base();
      g.nodes[1].id = 'a b';
      g.edges[0].target = 'a b';
      g.edges[1].source = 'a b';
      return g;
    },
    code: 'GRAPH_SCHEMA',
    path: 'graph.nodes[1].id',
  },
  {
    name: 'reserved node id',
    graph: () => {
      const g = base();
      g.nodes[1].id = 'inputs';
      g.edges[0].target = 'inputs';
      g.edges[1].source = 'inputs';
      g.nodes[2].data.config.outputs = [];
      return g;
    },
    code: 'RESERVED_NODE_ID',
    path: 'graph.nodes[1].id',
  },
  {
    name: 'condition edge without a branch handle',
    graph: () => {
      const g = base();
      g.nodes.splice(1, 0, {
        id: 'c1',
        type: 'condition',
        position: { x: 0, y: 0 },
        data: { config: { branches: [{ id: 'yes', conditions: [{ left: '{{inputs.message}}', op: 'not_empty' }] }] } },
      });
      g.edges = [
        { id: 'a', source: 'start', target: 'c1' },
        { id: 'b', source: 'c1', target: 't1' },
        { id: 'c', source: 't1', target: 'end' },
      ];
      return g;
    },
    code: 'INVALID_HANDLE',
    path: 'graph.edges[1].sourceHandle',
  },
];

describe('POST /api/workflows refuses invalid graphs and saves nothing', () => {
  it.each(cases)('$name → 400 $code at $path', async ({ graph, engine, code, path, nodeIds }) => {
    const before = await workflowCount();
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'bad', graph: graph(), ...(engine ? { engine } : {}) },
    });
    const err = expectError(a, 400, code, path);
    expect(err.errors?.length).toBeGreaterThan(0);
    for (const e of err.errors!) expect(e.path.startsWith('graph')).toBe(true);
    if (nodeIds) {
      const withIds = err.errors!.find((e) => e.code === code);
      expect([...(withIds?.nodeIds ?? [])].sort()).toEqual(nodeIds);
    }
    expect(await workflowCount()).toBe(before);

    // The same graph is refused by import (structural) or listed as a problem by validate, never saved silently.
    const v = await call(validateWf, 'POST', `/api/workflows/${seededId}/validate`, {
      params: { id: seededId },
      body: { graph: graph(), ...(engine ? { engine } : {}) },
    });
    expect(v.status).toBe(200);
    expect(v.body.ok).toBe(false);
    expect(v.body.errors.map((e: any) => e.code)).toContain(code);
    expect(v.body.errors.map((e: any) => `graph.${e.path}`)).toContain(path);
  });

  it('a structurally corrupt graph is refused even as a draft and by import', async () => {
    const before = await workflowCount();
    const dup = cases.find((c) => c.code === 'DUPLICATE_NODE_ID')!.graph();
    expectError(
      await call(createWf, 'POST', '/api/workflows?draft=1', { body: { name: 'bad', graph: dup } }),
      400,
      'DUPLICATE_NODE_ID',
    );
    const imp = await call(importWf, 'POST', '/api/workflows/import', {
      body: { format: 'paiflow.workflow', formatVersion: 1, workflow: { name: 'bad', graph: dup } },
    });
    expectError(imp, 400, 'DUPLICATE_NODE_ID', 'graph.nodes[3].id');
    expect(await workflowCount()).toBe(before);
  });

  it('a refused PUT leaves the stored workflow unchanged', async () => {
    const before = await call(getWf, 'GET', `/api/workflows/${seededId}`, { params: { id: seededId } });
    for (const c of cases) {
      const a = await call(putWf, 'PUT', `/api/workflows/${seededId}`, {
        params: { id: seededId },
        body: { graph: c.graph(), ...(c.engine ? { engine: c.engine } : {}) },
      });
      expectError(a, 400, c.code, c.path);
    }
    const after = await call(getWf, 'GET', `/api/workflows/${seededId}`, { params: { id: seededId } });
    expect(after.body.graph).toEqual(before.body.graph);
    expect(after.body.revision).toBe(before.body.revision);
    expect(after.body.engine).toBe(before.body.engine);
  });
});

let seededId: string;
beforeAll(async () => {
  const list = await call(listWf, 'GET', '/api/workflows');
  seededId = list.body.find((w: any) => w.name === 'Support triage (example)').id;
});

describe('request-level errors', () => {
  it('malformed JSON → 400 INVALID_JSON', async () => {
    const before = await workflowCount();
    const a = await call(createWf, 'POST', '/api/workflows', {
      raw: '{"name": "x", "graph": {',
      headers: { 'content-type': 'application/json' },
    });
    expectError(a, 400, 'INVALID_JSON');
    expect(await workflowCount()).toBe(before);
  });

  it('wrong content type → 415', async () => {
    const a = await call(createWf, 'POST', '/api/workflows', {
      raw: JSON.stringify({ name: 'x', graph: simpleGraph() }),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(a, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const form = await call(createWf, 'POST', '/api/workflows', {
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
  });

  it('oversize body → 413, declared or streamed', async () => {
    const before = await workflowCount();
    const huge = JSON.stringify({ name: 'x', description: 'y'.repeat(3 * 1024 * 1024), graph: simpleGraph() });
    expectError(
      await call(createWf, 'POST', '/api/workflows', { raw: huge, headers: { 'content-type': 'application/json' } }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    const declared = await call(createWf, 'POST', '/api/workflows', {
      raw: '{}',
      headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) },
    }).catch(() => null);
    if (declared) expect(declared.status).toBe(413); // some fetch implementations refuse a mismatched length client-side
    expect(await workflowCount()).toBe(before);
  });

  it('missing body, non-object body and bad fields → 400 with a path', async () => {
    expectError(
      await call(createWf, 'POST', '/api/workflows', { headers: { 'content-type': 'application/json' } }),
      400,
      'BODY_REQUIRED',
    );
    expectError(await call(createWf, 'POST', '/api/workflows', { body: [] }), 400, 'VALIDATION_ERROR');
    expectError(await call(createWf, 'POST', '/api/workflows', { body: null }), 400, 'VALIDATION_ERROR');
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { name: '  ', graph: simpleGraph() } }),
      400,
      'VALIDATION_ERROR',
      'name',
    );
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { name: 'x', graph: simpleGraph(), engine: 'quantum' } }),
      400,
      'VALIDATION_ERROR',
      'engine',
    );
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { name: 'x', graph: null } }),
      400,
      'GRAPH_SCHEMA',
    );
  });

  it('unknown workflow or run → 404 with a code', async () => {
    const id = 'wf_doesnotexist';
    expectError(await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } }), 404, 'WORKFLOW_NOT_FOUND');
    expectError(
      await call(exportWf, 'GET', `/api/workflows/${id}/export`, { params: { id } }),
      404,
      'WORKFLOW_NOT_FOUND',
    );
    expectError(
      await call(validateWf, 'POST', `/api/workflows/${id}/validate`, { params: { id } }),
      404,
      'WORKFLOW_NOT_FOUND',
    );
    expectError(
      await call(startRun, 'POST', `/api/workflows/${id}/runs`, { params: { id }, body: { inputs: {} } }),
      404,
      'WORKFLOW_NOT_FOUND',
    );
    expectError(
      await call(listRuns, 'GET', `/api/workflows/${id}/runs`, { params: { id } }),
      404,
      'WORKFLOW_NOT_FOUND',
    );
    const runId = 'run_nope';
    expectError(await call(getRun, 'GET', `/api/runs/${runId}`, { params: { runId } }), 404, 'RUN_NOT_FOUND');
    expectError(await call(events, 'GET', `/api/runs/${runId}/events`, { params: { runId } }), 404, 'RUN_NOT_FOUND');
    expectError(
      await call(cancelRun, 'POST', `/api/runs/${runId}/cancel`, { params: { runId } }),
      404,
      'RUN_NOT_FOUND',
    );
    expectError(
      await call(resumeRun, 'POST', `/api/runs/${runId}/resume`, { params: { runId } }),
      404,
      'RUN_NOT_FOUND',
    );
  });

  it('starting a run with a missing required input → 400 MISSING_INPUT at inputs.message, and no run is created', async () => {
    const before = (await call(listRuns, 'GET', `/api/workflows/${seededId}/runs`, { params: { id: seededId } })).body
      .length;
    expectError(
      await call(startRun, 'POST', `/api/workflows/${seededId}/runs`, {
        params: { id: seededId },
        body: { inputs: {} },
      }),
      400,
      'MISSING_INPUT',
      'inputs.message',
    );
    expectError(
      await call(startRun, 'POST', `/api/workflows/${seededId}/runs`, {
        params: { id: seededId },
        body: { inputs: { message: null } },
      }),
      400,
      'MISSING_INPUT',
      'inputs.message',
    );
    expectError(
      await call(startRun, 'POST', `/api/workflows/${seededId}/runs`, { params: { id: seededId } }),
      400,
      'MISSING_INPUT',
      'inputs.message',
    );
    expectError(
      await call(startRun, 'POST', `/api/workflows/${seededId}/runs`, {
        params: { id: seededId },
        body: { inputs: { message: 42 } },
      }),
      400,
      'INVALID_INPUT',
      'inputs.message',
    );
    expectError(
      await call(startRun, 'POST', `/api/workflows/${seededId}/runs`, {
        params: { id: seededId },
        body: { inputs: 'hello' },
      }),
      400,
      'VALIDATION_ERROR',
      'inputs',
    );
    expectError(
      await call(startRun, 'POST', `/api/workflows/${seededId}/runs`, {
        params: { id: seededId },
        body: { inputs: { message: 'x' }, engine: 'warp' },
      }),
      400,
      'VALIDATION_ERROR',
      'engine',
    );
    const after = (await call(listRuns, 'GET', `/api/workflows/${seededId}/runs`, { params: { id: seededId } })).body
      .length;
    expect(after).toBe(before);
  });

  it('odd but well-formed requests get a 4xx or a sane answer, never a 500', async () => {
    const id = seededId;
    // Query parameters that a careless handler would pass straight to the database.
    for (const limit of ['1.5', '-3', 'abc', '1e12', '0']) {
      const a = await call(listRuns, 'GET', `/api/workflows/${id}/runs?limit=${limit}`, { params: { id } });
      expect(a.status, `limit=${limit}`).toBeLessThan(500);
    }
    // Revisions that do not fit the database column.
    for (const revision of [2 ** 40, -1, 1.5]) {
      const a = await call(putWf, 'PUT', `/api/workflows/${id}`, { params: { id }, body: { name: 'x', revision } });
      expect(a.status, `revision=${revision}`).toBeGreaterThanOrEqual(400);
      expect(a.status, `revision=${revision}`).toBeLessThan(500);
    }
    // A deeply nested config value.
    const deep = simpleGraph() as G;
    (deep.nodes[1].data.config as any).extra = '@DEEP@';
    const depth = 100_000;
    const raw = JSON.stringify({ name: 'deep', graph: deep }).replace(
      '"@DEEP@"',
      `${'['.repeat(depth)}"{{inputs.message}}"${']'.repeat(depth)}`,
    );
    const d = await call(createWf, 'POST', '/api/workflows', { raw, headers: { 'content-type': 'application/json' } });
    expectError(d, 400, 'JSON_TOO_DEEP');
    // Moderate nesting inside a config is fine.
    const ok = await call(createWf, 'POST', '/api/workflows', {
      raw: raw.replace(`${'['.repeat(depth)}`, '['.repeat(100)).replace(`${']'.repeat(depth)}`, ']'.repeat(100)),
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(201);
    await call(deleteWf, 'DELETE', `/api/workflows/${ok.body.id}`, { params: { id: ok.body.id } });
    // Forcing the other engine: either it runs (202) or it is refused with a 4xx, never a 500.
    const lg = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
      params: { id },
      body: { inputs: { message: 'x' }, engine: 'langgraph' },
    });
    expect([202, 400, 409, 422]).toContain(lg.status);
    // Prototype-ish keys in inputs and names.
    const proto = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
      params: { id },
      raw: '{"inputs":{"message":"x","__proto__":{"polluted":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(202);
    expect(({} as any).polluted).toBeUndefined();
    const sse = await call(events, 'GET', `/api/runs/${proto.body.runId}/events?after=99999999999`, {
      params: { runId: proto.body.runId },
    });
    expect(sse.status).toBe(200);
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
});
