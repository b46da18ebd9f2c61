// Guarantees: a bad request — malformed JSON, another content type, an oversize body, missing or ill-typed fields,
// an unknown workflow or run, a missing or invalid run input — is refused with a specific 4xx code (and a JSON path
// where one applies) and creates nothing; odd but well-formed requests never get a 500 or a stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as events } from '@/app/api/runs/[runId]/events/route';
import { POST as cancelRun } from '@/app/api/runs/[runId]/cancel/route';
import { POST as resumeRun } from '@/app/api/runs/[runId]/resume/route';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { DELETE as deleteWf, GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { GET as listRuns, POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';
import { seededWorkflowId, workflowCount, type G } from './invalid-graph-cases';

useFreshDataDir();

let seededId: string;
beforeAll(async () => {
  await getApp();
  seededId = await seededWorkflowId();
});
afterAll(async () => {
  await (await getApp()).close();
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
    // Some fetch implementations refuse a mismatched length client-side.
    if (declared) expect(declared.status).toBe(413);
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

  it(
    'starting a run with a missing required input → 400 MISSING_INPUT at inputs.message, ' + 'and no run is created',
    async () => {
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
    },
  );

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
    // Moderate nesting inside a config is fine (a draft: `extra` is not a key the template node knows).
    const ok = await call(createWf, 'POST', '/api/workflows?draft=1', {
      raw: raw.replace(`${'['.repeat(depth)}`, '['.repeat(100)).replace(`${']'.repeat(depth)}`, ']'.repeat(100)),
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.problems.map((p: { code: string }) => p.code)).toEqual(['UNKNOWN_KEY']);
    await call(deleteWf, 'DELETE', `/api/workflows/${ok.body.id}`, { params: { id: ok.body.id } });
    // Forcing the other engine: either it runs (202) or it is refused with a 4xx, never a 500.
    const lg = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
      params: { id },
      body: { inputs: { message: 'x' }, engine: 'langgraph' },
    });
    expect([202, 400, 409, 422]).toContain(lg.status);
    // A prototype key in the inputs is refused with its path (and pollutes nothing).
    const proto = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
      params: { id },
      raw: '{"inputs":{"message":"x","__proto__":{"polluted":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect({ status: proto.status, code: proto.body.error.code, path: proto.body.error.path }).toEqual({
      status: 400,
      code: 'RESERVED_KEY',
      path: 'inputs.__proto__',
    });
    expect(({} as any).polluted).toBeUndefined();
    // A cursor past any seq is still a stream (that ends with the run), not an error.
    const run = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
      params: { id },
      body: { inputs: { message: 'x' } },
    });
    expect(run.status).toBe(202);
    const sse = await call(events, 'GET', `/api/runs/${run.body.runId}/events?after=99999999999`, {
      params: { runId: run.body.runId },
    });
    expect(sse.status).toBe(200);
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
});
