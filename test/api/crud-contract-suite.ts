/**
 * The v1 contract suite (health, node-types, seeded example run, CRUD, validate, export/import), shared by the
 * embedded-store and the PostgreSQL test files. The caller points the environment at its database first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { GET as nodeTypes } from '@/app/api/node-types/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { DELETE as deleteWf, GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { GET as listRuns, POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, waitForRun } from './api-helpers';

export function crudAndContractSuite(kind: 'pglite' | 'postgres', onClose?: () => Promise<void>) {
  afterAll(async () => {
    await (await getApp()).close();
    await onClose?.();
  });

  describe('GET /api/health', () => {
    it('names the implementation of each part, with the offline demo LLM when no key is set', async () => {
      const a = await call(health, 'GET', '/api/health');
      expect(a.status).toBe(200);
      // the contract; more may follow
      expect(Object.keys(a.body)).toEqual(expect.arrayContaining(['bus', 'db', 'llm', 'ok', 'search']));
      expect(a.body.workers).toBe('in-process');
      expect(a.body.ok).toBe(true);
      for (const k of ['db', 'bus', 'search', 'llm']) expect(typeof a.body[k], k).toBe('string');
      expect(a.body.db).toMatch(kind === 'postgres' ? /postgres/i : /pglite/i);
      expect(a.body.bus).toBe('in-process');
      expect(a.body.llm).toBe('demo (offline)');
    });
  });

  describe('GET /api/node-types', () => {
    it('lists the registry with a JSON Schema per type', async () => {
      const a = await call(nodeTypes, 'GET', '/api/node-types');
      expect(a.status).toBe(200);
      expect(Array.isArray(a.body)).toBe(true);
      const byType = Object.fromEntries(a.body.map((t: any) => [t.type, t]));
      for (const type of ['start', 'end', 'llm', 'template', 'condition', 'http']) {
        const t = byType[type];
        expect(t, type).toBeDefined();
        expect(t.type).toBe(type);
        expect(Number.isInteger(t.version) && t.version >= 1).toBe(true);
        expect(typeof t.label).toBe('string');
        expect(['flow', 'ai', 'data', 'integration', 'logic']).toContain(t.category);
        expect(t.configSchema.type, type).toBe('object');
        expect(typeof t.configSchema.properties, type).toBe('object');
        expect(Array.isArray(t.inputs) && Array.isArray(t.outputs)).toBe(true);
        for (const p of [...t.inputs, ...t.outputs])
          expect(p).toEqual({ id: expect.any(String), label: expect.any(String) });
      }
      // The schema is the one the engine validates with: the llm temperature bounds are there.
      expect(byType.llm.configSchema.properties.temperature).toMatchObject({ type: 'number', minimum: 0, maximum: 2 });
      expect(byType.condition.configSchema.properties.branches.type).toBe('array');
      expect(byType.start.inputs).toEqual([]);
      expect(byType.end.outputs).toEqual([]);
    });
  });

  describe('the seeded example', () => {
    let exampleId: string;

    it('exists on a fresh database', async () => {
      const a = await call(listWf, 'GET', '/api/workflows');
      expect(a.status).toBe(200);
      const ex = a.body.find((w: any) => w.name === 'Support triage (example)');
      expect(ex).toBeDefined();
      expect(ex.nodeCount).toBe(6);
      exampleId = ex.id;
    });

    it('runs to success through the API with a complete run view', async () => {
      const started = await call(startRun, 'POST', `/api/workflows/${exampleId}/runs`, {
        params: { id: exampleId },
        body: { inputs: { message: 'The checkout page is down, urgent!' } },
      });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ runId: expect.stringMatching(/^run_/), status: expect.any(String) });
      expect(['queued', 'running']).toContain(started.body.status);

      const run = await waitForRun(getRun, started.body.runId);
      expect(run.status).toBe('succeeded');
      expect(run).toMatchObject({
        id: started.body.runId,
        workflowId: exampleId,
        versionId: null,
        engine: 'dag',
        error: null,
        inputs: { message: 'The checkout page is down, urgent!' },
      });
      expect(run.outputs.route).toBe('urgent');
      expect(String(run.outputs.answer)).toMatch(/^ESCALATED/);
      expect(run.nodes.map((n: any) => n.nodeId).sort()).toEqual([
        'end',
        'escalate',
        'reply',
        'route',
        'start',
        'summarize',
      ]);
      for (const n of run.nodes) {
        for (const k of [
          'nodeId',
          'type',
          'status',
          'attempt',
          'input',
          'output',
          'error',
          'startedAt',
          'finishedAt',
          'durationMs',
          'usage',
        ]) {
          expect(n, `${n.nodeId}.${k}`).toHaveProperty(k);
        }
      }
      const byId = Object.fromEntries(run.nodes.map((n: any) => [n.nodeId, n]));
      expect(byId.reply.status).toBe('skipped');
      const llm = byId.summarize;
      expect(llm).toMatchObject({ type: 'llm', status: 'succeeded', attempt: 1, error: null });
      expect(typeof llm.output.text).toBe('string');
      expect(llm.usage.inputTokens).toBeGreaterThan(0);
      expect(Date.parse(llm.startedAt)).toBeLessThanOrEqual(Date.parse(llm.finishedAt));
      expect(llm.durationMs).toBeGreaterThanOrEqual(0);

      const runs = await call(listRuns, 'GET', `/api/workflows/${exampleId}/runs`, { params: { id: exampleId } });
      expect(runs.status).toBe(200);
      expect(runs.body.map((r: any) => r.id)).toContain(started.body.runId);
    });
  });

  describe('workflow CRUD', () => {
    let id: string;
    let revision: number;

    it('creates (201) and reads back the same graph', async () => {
      const graph = simpleGraph();
      const a = await call(createWf, 'POST', '/api/workflows', {
        body: { name: 'Greeter', description: 'says hello', graph },
      });
      expect(a.status).toBe(201);
      expect(a.body).toMatchObject({
        id: expect.stringMatching(/^wf_/),
        name: 'Greeter',
        description: 'says hello',
        engine: 'auto',
        revision: expect.any(Number),
      });
      id = a.body.id;
      revision = a.body.revision;

      const g = await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } });
      expect(g.status).toBe(200);
      expect(g.body.graph.nodes.map((n: any) => n.id)).toEqual(['start', 't1', 'end']);
      expect(g.body.graph.edges).toEqual(graph.edges);
      expect(g.body.graph.nodes[1].data).toEqual(graph.nodes[1].data);
      expect(g.body.problems).toEqual([]);
    });

    it('lists it', async () => {
      const a = await call(listWf, 'GET', '/api/workflows');
      expect(a.body.find((w: any) => w.id === id)).toMatchObject({ name: 'Greeter', nodeCount: 3 });
    });

    it('updates with the current revision and refuses a stale one with 409 CONFLICT', async () => {
      const ok = await call(putWf, 'PUT', `/api/workflows/${id}`, {
        params: { id },
        body: { name: 'Greeter v2', revision },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.name).toBe('Greeter v2');
      expect(ok.body.revision).toBeGreaterThan(revision);

      const stale = await call(putWf, 'PUT', `/api/workflows/${id}`, {
        params: { id },
        body: { name: 'lost update', revision },
      });
      expectError(stale, 409, 'CONFLICT');
      const g = await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } });
      expect(g.body.name).toBe('Greeter v2');
      revision = g.body.revision;

      const graph = simpleGraph('Hi {{inputs.message}}!');
      const withGraph = await call(putWf, 'PUT', `/api/workflows/${id}`, { params: { id }, body: { graph, revision } });
      expect(withGraph.status).toBe(200);
      expect(withGraph.body.graph.nodes[1].data.config.template).toBe('Hi {{inputs.message}}!');
    });

    it('refuses an invalid graph on update and keeps the stored one', async () => {
      const bad = simpleGraph();
      (bad.nodes[1].data.config as any).template = 42;
      const a = await call(putWf, 'PUT', `/api/workflows/${id}`, { params: { id }, body: { graph: bad } });
      expectError(a, 400, 'INVALID_CONFIG', 'graph.nodes[1].data.config.template');
      const g = await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } });
      expect(g.body.graph.nodes[1].data.config.template).toBe('Hi {{inputs.message}}!');
    });

    it('runs the updated draft', async () => {
      const started = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
        params: { id },
        body: { inputs: { message: 'Ada' } },
      });
      expect(started.status).toBe(202);
      const run = await waitForRun(getRun, started.body.runId);
      expect(run.status).toBe('succeeded');
      expect(run.outputs).toEqual({ text: 'Hi Ada!' });
    });

    it('validates the stored draft or a posted graph: { ok, engine, errors, warnings }', async () => {
      const a = await call(validateWf, 'POST', `/api/workflows/${id}/validate`, { params: { id } });
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ ok: true, engine: 'dag', errors: [], warnings: [] });

      const cyclic = simpleGraph();
      cyclic.edges.push({ id: 'back', source: 'end', target: 't1' });
      const auto = await call(validateWf, 'POST', `/api/workflows/${id}/validate`, {
        params: { id },
        body: { graph: cyclic },
      });
      expect(auto.body.engine).toBe('langgraph');
      const dag = await call(validateWf, 'POST', `/api/workflows/${id}/validate`, {
        params: { id },
        body: { graph: cyclic, engine: 'dag' },
      });
      expect(dag.status).toBe(200);
      expect(dag.body.ok).toBe(false);
      expect(dag.body.engine).toBe('dag');
      const cyc = dag.body.errors.find((e: any) => e.code === 'GRAPH_CYCLE');
      expect(cyc).toBeDefined();
      expect([...cyc.nodeIds].sort()).toEqual(['end', 't1']);
      for (const e of dag.body.errors)
        expect(e).toMatchObject({ code: expect.any(String), message: expect.any(String), path: expect.any(String) });
    });

    it('exports portable JSON that imports back to an identical graph', async () => {
      const ex = await call(exportWf, 'GET', `/api/workflows/${id}/export`, { params: { id } });
      expect(ex.status).toBe(200);
      expect(ex.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.paiflow\.json"/);
      expect(ex.body).toMatchObject({
        format: 'paiflow.workflow',
        formatVersion: 2,
        workflow: { name: 'Greeter v2', description: 'says hello', engine: 'auto' },
      });

      const im = await call(importWf, 'POST', '/api/workflows/import', { body: ex.body });
      expect(im.status).toBe(201);
      expect(im.body.id).not.toBe(id);
      const original = await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } });
      const copy = await call(getWf, 'GET', `/api/workflows/${im.body.id}`, { params: { id: im.body.id } });
      expect(copy.body.graph).toEqual(original.body.graph);
      expect(JSON.stringify(copy.body.graph.nodes.map((n: any) => n.id))).toBe(
        JSON.stringify(original.body.graph.nodes.map((n: any) => n.id)),
      );
      // The workspace already has that name: the copy is numbered (imports-of-an-existing-name-are-numbered.test.ts).
      expect(copy.body).toMatchObject({
        name: `${original.body.name} (2)`,
        description: original.body.description,
        engine: original.body.engine,
      });

      // A second round trip of the copy is identical too (the export is a fixed point), but for that name.
      const ex2 = await call(exportWf, 'GET', `/api/workflows/${im.body.id}/export`, { params: { id: im.body.id } });
      expect(ex2.body.workflow).toEqual({ ...ex.body.workflow, name: `${ex.body.workflow.name} (2)` });

      const wrongFormat = await call(importWf, 'POST', '/api/workflows/import', {
        body: { ...ex.body, format: 'something.else' },
      });
      expectError(wrongFormat, 400, 'VALIDATION_ERROR', 'format');
      const future = await call(importWf, 'POST', '/api/workflows/import', { body: { ...ex.body, formatVersion: 99 } });
      expectError(future, 400, 'VALIDATION_ERROR', 'formatVersion');
    });

    it('deletes (204), after which the workflow is 404', async () => {
      const d = await call(deleteWf, 'DELETE', `/api/workflows/${id}`, { params: { id } });
      expect(d.status).toBe(204);
      expect(d.text).toBe('');
      expectError(await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } }), 404, 'WORKFLOW_NOT_FOUND');
      expectError(
        await call(deleteWf, 'DELETE', `/api/workflows/${id}`, { params: { id } }),
        404,
        'WORKFLOW_NOT_FOUND',
      );
      expectError(
        await call(putWf, 'PUT', `/api/workflows/${id}`, { params: { id }, body: { name: 'x' } }),
        404,
        'WORKFLOW_NOT_FOUND',
      );
      const list = await call(listWf, 'GET', '/api/workflows');
      expect(list.body.some((w: any) => w.id === id)).toBe(false);
    });

    it('never answered 500 or leaked a stack trace', () => {
      expectNoServerErrorsOrStacks();
    });
  });

  beforeAll(async () => {
    await getApp();
  });
}
