/**
 * Guarantee: a workflow is saved only when its graph is valid (else 400 with a code and a JSON path, and nothing is
 * stored); validate answers `{ ok, engine, errors[], warnings[] }` without saving (a cycle under a forced dag is
 * GRAPH_CYCLE naming its nodes); PUT updates it with conflict detection; export gives portable JSON that imports back
 * as a new workflow ("name (2)" for a taken name) which runs to the same outputs; a deleted workflow is gone (404).
 */
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { chain, node, runToEnd } from './support/runs';

const { api: owner } = acceptance();
// A workspace of its own: other journeys create workflows side by side, and "nothing was saved" is read off the list.
const workspace = await owner.expectStatus(owner.post('/api/workspaces', { name: `Workflows ${Date.now()}` }), 201);
const api = owner.with({ 'x-workspace-id': workspace.id });
const NAME = `Greeter ${Date.now()}`;

function greeter(greeting: string) {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'who', type: 'string', required: true }] }),
      node('greet', 'template', { template: `${greeting}, {{inputs.who}}!` }, 200),
      node(
        'shape',
        'template',
        { format: 'json', template: '{"who": "{{inputs.who}}", "line": "{{greet.output.text}}"}' },
        400,
      ),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'text', value: '{{greet.output.text}}' },
            { name: 'data', value: '{{shape.output.json}}' },
          ],
        },
        600,
      ),
    ],
    edges: chain('start', 'greet', 'shape', 'end'),
  };
}

/** start → a → b → a (a cycle), b → end. */
function cyclic() {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'who', type: 'string', required: true }] }),
      node('a', 'template', { template: 'a {{inputs.who}}' }, 200),
      node('b', 'template', { template: 'b {{inputs.who}}' }, 400),
      node('end', 'end', { outputs: [{ name: 'text', value: '{{inputs.who}}' }] }, 600),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'a' },
      { id: 'e2', source: 'a', target: 'b' },
      { id: 'e3', source: 'b', target: 'a' },
      { id: 'e4', source: 'b', target: 'end' },
    ],
  };
}

const CLOSING_EDGE = 'the edge that closes the cycle';
const exact = (s: string) => new RegExp(`^${s.replace(/[.[\]]/g, '\\$&')}$`);

async function listIds(): Promise<string[]> {
  const list = await api.expectStatus(api.get('/api/workflows'), 200);
  return list.map((w: any) => w.id).sort();
}

describe('workflows: create, validate, save, export, import, delete', () => {
  let id: string;
  let revision: number;

  it('creates a workflow from a valid graph (201) and lists it', async () => {
    const wf = await api.expectStatus(
      api.post('/api/workflows', { name: NAME, description: 'says hello', graph: greeter('Hello') }),
      201,
    );
    expect(wf).toMatchObject({ name: NAME, description: 'says hello', engine: 'auto', problems: [] });
    expect(wf.id).toMatch(/\S/);
    expect(wf.graph.nodes.map((n: any) => n.id)).toEqual(['start', 'greet', 'shape', 'end']);
    id = wf.id;
    revision = wf.revision;
    const listed = (await api.expectStatus(api.get('/api/workflows'), 200)).find((w: any) => w.id === id);
    expect(listed).toMatchObject({ name: NAME, nodeCount: 4 });
    const read = await api.expectStatus(api.get(`/api/workflows/${id}`), 200);
    expect(read.graph.nodes.find((n: any) => n.id === 'greet').data.config.template).toBe('Hello, {{inputs.who}}!');
  });

  it('refuses an invalid graph with 400, a code and a JSON path, and stores nothing', async () => {
    const before = await listIds();
    const g = greeter('Hello');
    const cases: Array<{ why: string; graph: any; engine?: string; code: string; path: string }> = [
      {
        why: 'unknown node type',
        graph: { ...g, nodes: g.nodes.map((n) => (n.id === 'greet' ? { ...n, type: 'no_such_type' } : n)) },
        code: 'UNKNOWN_NODE_TYPE',
        path: 'graph.nodes[1].type',
      },
      {
        why: 'a template node without its template',
        graph: { ...g, nodes: g.nodes.map((n) => (n.id === 'greet' ? node('greet', 'template', {}, 200) : n)) },
        code: 'INVALID_CONFIG',
        path: 'graph.nodes[1].data.config.template',
      },
      {
        why: 'an edge to a node that does not exist',
        graph: { ...g, edges: [...g.edges, { id: 'e9', source: 'greet', target: 'ghost' }] },
        code: 'DANGLING_EDGE',
        path: 'graph.edges[3].target',
      },
      {
        why: 'a reference to an input the start node does not declare',
        graph: {
          ...g,
          nodes: g.nodes.map((n) =>
            n.id === 'greet' ? node('greet', 'template', { template: 'Hi {{inputs.nobody}}' }, 200) : n,
          ),
        },
        code: 'UNRESOLVED_REF',
        path: 'graph.nodes[1].data.config.template',
      },
      // The path points at the edge that closes the cycle: a → b or b → a, depending on where it is entered.
      { why: 'a cycle under a forced dag', graph: cyclic(), engine: 'dag', code: 'GRAPH_CYCLE', path: CLOSING_EDGE },
    ];
    for (const c of cases) {
      const r = await api.post('/api/workflows', {
        name: `${NAME} invalid`,
        graph: c.graph,
        ...(c.engine ? { engine: c.engine } : {}),
      });
      expect(r.status, `${c.why}: ${r.text}`).toBe(400);
      expect(r.body.error.code, c.why).toBe(c.code);
      expect(r.body.error.path, c.why).toMatch(c.path === CLOSING_EDGE ? /^graph\.edges\[[12]\]$/ : exact(c.path));
      expect(r.body.error.message, c.why).toBeTruthy();
      expect(r.body.error.errors, c.why).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: c.code, path: r.body.error.path })]),
      );
    }
    const notAGraph = await api.post('/api/workflows', { name: `${NAME} invalid`, graph: { nodes: 'none' } });
    expect(notAGraph.status).toBe(400);
    expect(notAGraph.body.error.code).toBe('GRAPH_SCHEMA');
    expect(notAGraph.body.error.path).toBe('graph.nodes');
    expect(await listIds()).toEqual(before);
    const names = (await api.expectStatus(api.get('/api/workflows'), 200)).map((w: any) => w.name);
    expect(names).not.toContain(`${NAME} invalid`);
  });

  it('validates a stored or sent graph: { ok, engine, errors, warnings }, GRAPH_CYCLE naming its nodes', async () => {
    const stored = await api.expectStatus(api.post(`/api/workflows/${id}/validate`, {}), 200);
    expect(stored).toEqual({ ok: true, engine: 'dag', errors: [], warnings: [] });

    const forced = await api.expectStatus(
      api.post(`/api/workflows/${id}/validate`, { graph: cyclic(), engine: 'dag' }),
      200,
    );
    expect(forced.ok).toBe(false);
    expect(forced.engine).toBe('dag');
    const cycle = forced.errors.find((e: any) => e.code === 'GRAPH_CYCLE');
    expect(cycle, JSON.stringify(forced.errors)).toBeTruthy();
    expect([...cycle.nodeIds].sort()).toEqual(['a', 'b']);
    // It points at an edge of the cycle (the one that closes it).
    const edge = cyclic().edges[Number(/^edges\[(\d+)\]$/.exec(cycle.path)?.[1])];
    expect([edge?.source, edge?.target].sort()).toEqual(['a', 'b']);
    expect(cycle.message).toMatch(/cycle/i);

    // The same cycle under auto is the state-graph engine's, not an error.
    const auto = await api.expectStatus(api.post(`/api/workflows/${id}/validate`, { graph: cyclic() }), 200);
    expect(auto.engine).toBe('langgraph');
    expect(auto.errors.map((e: any) => e.code)).not.toContain('GRAPH_CYCLE');

    const broken = await api.expectStatus(
      api.post(`/api/workflows/${id}/validate`, {
        graph: {
          ...greeter('Hi'),
          nodes: greeter('Hi').nodes.map((n) => (n.id === 'greet' ? node('greet', 'template', {}, 200) : n)),
        },
      }),
      200,
    );
    expect(broken.ok).toBe(false);
    expect(broken.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'INVALID_CONFIG', path: 'nodes[1].data.config.template' }),
      ]),
    );

    // Validating saved nothing.
    const read = await api.expectStatus(api.get(`/api/workflows/${id}`), 200);
    expect(read.revision).toBe(revision);
    expect(read.graph.nodes.map((n: any) => n.id)).toEqual(['start', 'greet', 'shape', 'end']);
  });

  it('updates with PUT, refuses a stale revision (409) and an invalid graph (400), changing nothing', async () => {
    const updated = await api.expectStatus(
      api.put(`/api/workflows/${id}`, { graph: greeter('Good morning'), description: 'says good morning', revision }),
      200,
    );
    expect(updated.revision).toBeGreaterThan(revision);
    expect(updated.description).toBe('says good morning');
    const stale = await api.put(`/api/workflows/${id}`, { graph: greeter('Stale'), revision });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'CONFLICT', path: 'revision' });
    const invalid = await api.put(`/api/workflows/${id}`, { graph: cyclic(), engine: 'dag' });
    expect(invalid.status, invalid.text).toBe(400);
    expect(invalid.body.error.code).toBe('GRAPH_CYCLE');
    revision = updated.revision;

    const read = await api.expectStatus(api.get(`/api/workflows/${id}`), 200);
    expect(read.revision).toBe(revision);
    expect(read.engine).toBe('auto');
    expect(read.graph.nodes.find((n: any) => n.id === 'greet').data.config.template).toBe(
      'Good morning, {{inputs.who}}!',
    );
    const run = await runToEnd(api, id, { who: 'Ada' });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs).toEqual({ text: 'Good morning, Ada!', data: { who: 'Ada', line: 'Good morning, Ada!' } });
  });

  it('exports portable JSON that imports back as "name (2)" and runs to the same outputs', async () => {
    const exp = await api.get(`/api/workflows/${id}/export`);
    expect(exp.status, exp.text).toBe(200);
    expect(exp.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.paiflow\.json"$/);
    const doc = exp.body;
    expect(doc).toMatchObject({
      format: 'paiflow.workflow',
      formatVersion: 2,
      workflow: { name: NAME, description: 'says good morning', engine: 'auto' },
    });
    const current = await api.expectStatus(api.get(`/api/workflows/${id}`), 200);
    expect(doc.workflow.graph).toEqual(current.graph);
    // Portable: the export carries no ids of this deployment.
    expect(JSON.stringify(doc)).not.toContain(id);

    const first = await api.expectStatus(api.post('/api/workflows/import', doc), 201);
    expect(first.name).toBe(`${NAME} (2)`);
    expect(first.id).not.toBe(id);
    expect(first.graph).toEqual(current.graph);
    const second = await api.expectStatus(api.post('/api/workflows/import', JSON.parse(exp.text)), 201);
    expect(second.name).toBe(`${NAME} (3)`);

    const original = await runToEnd(api, id, { who: 'Grace' });
    const imported = await runToEnd(api, first.id, { who: 'Grace' });
    expect(imported.status, JSON.stringify(imported.error)).toBe('succeeded');
    expect(imported.outputs).toEqual(original.outputs);
    expect(imported.outputs.text).toBe('Good morning, Grace!');
    expect(imported.workflowId).toBe(first.id);

    const wrongFormat = await api.post('/api/workflows/import', { ...doc, format: 'something.else' });
    expect(wrongFormat.status).toBe(400);
    const future = await api.post('/api/workflows/import', { ...doc, formatVersion: 99 });
    expect(future.status).toBe(400);
    // An export of an older release (format 1) still imports.
    const older = await api.expectStatus(api.post('/api/workflows/import', { ...doc, formatVersion: 1 }), 201);
    expect(older.graph).toEqual(current.graph);
    await api.expectStatus(api.delete(`/api/workflows/${older.id}`), 204);
    await api.expectStatus(api.delete(`/api/workflows/${second.id}`), 204);
  });

  it('deletes a workflow: afterwards it is 404 everywhere and no longer listed', async () => {
    await api.expectStatus(api.delete(`/api/workflows/${id}`), 204);
    for (const [method, path] of [
      ['GET', `/api/workflows/${id}`],
      ['GET', `/api/workflows/${id}/export`],
      ['POST', `/api/workflows/${id}/validate`],
      ['POST', `/api/workflows/${id}/runs`],
      ['PUT', `/api/workflows/${id}`],
      ['DELETE', `/api/workflows/${id}`],
    ]) {
      const r = await api.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(404);
      expect(r.body.error.code).toBe('WORKFLOW_NOT_FOUND');
    }
    expect(await listIds()).not.toContain(id);
  });
});
