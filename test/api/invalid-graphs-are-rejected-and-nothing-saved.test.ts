// Guarantees: every kind of invalid graph is refused with a specific 400 code and JSON path — by create, draft
// create, import and PUT, and listed by validate — nothing is saved or changed, and no answer is ever a 500 or a
// stack trace. Request-level errors: bad-requests-get-a-specific-4xx-and-never-a-500.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';
import { cases, seededWorkflowId, workflowCount } from './invalid-graph-cases';

useFreshDataDir();

let seededId: string;
beforeAll(async () => {
  await getApp();
  seededId = await seededWorkflowId();
});
afterAll(async () => {
  await (await getApp()).close();
});

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

it('never answered 500 or leaked a stack trace', () => {
  expectNoServerErrorsOrStacks();
});
