/**
 * GET /api/workflows as the list page reads it: each workflow's latest run as `lastRun: { id, status, createdAt,
 * startedAt, finishedAt }` (null before the first run; a single-node test run does not count), read for the whole
 * list in one query however many workflows it has; `?q=` keeps the workflows whose name or description contains it,
 * ignoring case, with `%` and `_` taken literally; a too-long `q` is a 400 at `query.q`. Shared by the embedded-store
 * and the PostgreSQL test files; the caller points the environment at its database first.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as runNode } from '@/app/api/workflows/[id]/nodes/[nodeId]/run/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, waitForRun } from './api-helpers';
import { databaseOf } from '../support/database-of';

export function workflowListSuite(onClose?: () => Promise<void>) {
  const ids: Record<string, string> = {};
  const create = async (name: string, description = '') => {
    const a = await call(createWf, 'POST', '/api/workflows', { body: { name, description, graph: simpleGraph() } });
    expect(a.status, a.text).toBe(201);
    return (ids[name] = a.body.id as string);
  };
  const run = async (id: string) => {
    const a = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
      params: { id },
      body: { inputs: { message: 'hi' } },
    });
    expect(a.status, a.text).toBe(202);
    return waitForRun(getRun, a.body.runId);
  };
  const list = async (query = '') => {
    const a = await call(listWf, 'GET', `/api/workflows${query}`);
    expect(a.status, a.text).toBe(200);
    return a.body as Array<{ id: string; name: string; nodeCount: number; lastRun: any }>;
  };
  const names = async (query: string) => (await list(query)).map((w) => w.name).sort();

  beforeAll(async () => {
    await getApp();
    await create('Invoice parser', 'Reads PDF invoices');
    await create('Support bot', 'Answers tickets');
    await create('Weekly digest', 'Summarises SUPPORT tickets of the week');
    await create('100% sure_thing');
  });

  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await onClose?.();
  });

  describe('GET /api/workflows', () => {
    it('says each workflow’s latest run, or null before the first', async () => {
      const before = await list();
      expect(before.find((w) => w.id === ids['Support bot'])).toMatchObject({ nodeCount: 3, lastRun: null });

      await run(ids['Support bot']);
      const second = await run(ids['Support bot']);
      const row = (await list()).find((w) => w.id === ids['Support bot'])!;
      expect(row.lastRun).toEqual({
        id: second.id,
        status: 'succeeded',
        createdAt: second.createdAt,
        startedAt: second.startedAt,
        finishedAt: second.finishedAt,
      });
      expect(Date.parse(row.lastRun.startedAt)).not.toBeNaN();
      expect((await list()).find((w) => w.id === ids['Invoice parser'])!.lastRun).toBeNull();

      // Running one node to try it is not a run of the workflow.
      const id = ids['Support bot'];
      const one = await call(runNode, 'POST', `/api/workflows/${id}/nodes/t1/run`, {
        params: { id, nodeId: 't1' },
        body: { inputs: { message: 'only this node' } },
      });
      expect(one.status, one.text).toBe(200);
      expect((await list()).find((w) => w.id === id)!.lastRun.id).toBe(second.id);
    });

    it('reads the last runs of the whole list in one query', async () => {
      const app = await getApp();
      const spy = vi.spyOn(databaseOf(app).sql, 'query');
      try {
        await list();
        const few = spy.mock.calls.length;
        for (const name of ['Invoice parser', 'Weekly digest']) await run(ids[name]);
        for (let i = 0; i < 3; i++) await run(await create(`More ${i}`));
        spy.mockClear();
        const rows = await list();
        expect(rows.filter((w) => w.lastRun).length).toBeGreaterThanOrEqual(6);
        expect(spy.mock.calls.length).toBe(few);
        expect(few).toBeLessThanOrEqual(1);
      } finally {
        spy.mockRestore();
      }
    });

    it('searches names and descriptions, ignoring case', async () => {
      expect(await names('?q=invoice')).toEqual(['Invoice parser']);
      expect(await names('?q=support')).toEqual(['Support bot', 'Weekly digest']);
      expect(await names('?q=%25')).toEqual(['100% sure_thing']);
      expect(await names('?q=_')).toEqual(['100% sure_thing']);
      expect(await names('?q=nothing-like-this')).toEqual([]);
      // An empty q is no filter.
      expect((await list('?q=')).length).toBe((await list()).length);
    });

    it('refuses a search longer than 200 characters at query.q', async () => {
      expectError(await call(listWf, 'GET', `/api/workflows?q=${'x'.repeat(201)}`), 400, 'VALIDATION_ERROR', 'query.q');
    });
  });
}
