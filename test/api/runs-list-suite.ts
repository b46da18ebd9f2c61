/**
 * GET /api/runs over 1,000 runs written straight into the store (three workflows, varied statuses, engines,
 * versions, triggers and times, many sharing a created_at): paging with the cursor returns every run exactly once,
 * newest first; each filter and the search narrow to exactly the runs they name; another workspace's runs never
 * appear; bad parameters are 400 with the parameter's path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listRuns } from '@/app/api/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { getApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { ownerHeaders } from '../support/owner';
import { call, expectNoServerErrorsOrStacks, simpleGraph } from './api-helpers';
import { databaseOf } from '../support/database-of';
import { BASE, MINUTE, newestFirst, seedRunList, type SeedRun } from '../store/support/seed-runs';

export function runsListSuite(kind: string, cleanup?: () => Promise<void>) {
  describe(`GET /api/runs filters, searches and pages 1,000 runs (${kind})`, () => {
    let app: App;
    let headers: Record<string, string>;
    let headersB: Record<string, string>;
    const seeded: SeedRun[] = [];
    const seededB: SeedRun[] = [];
    const wfIds: string[] = [];
    let wfB = '';

    const get = (query: string, h = headers) =>
      call(listRuns, 'GET', `/api/runs${query ? `?${query}` : ''}`, { headers: h });

    /** Every page of `query` with `limit`, each run's id in the order served. */
    async function pageAll(query: string, limit: number, h = headers): Promise<string[]> {
      const ids: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 100; page++) {
        const qs = new URLSearchParams(query);
        qs.set('limit', String(limit));
        if (cursor) qs.set('cursor', cursor);
        const res = await get(qs.toString(), h);
        expect(res.status, res.text).toBe(200);
        expect(res.body.runs.length).toBeLessThanOrEqual(limit);
        ids.push(...res.body.runs.map((r: { id: string }) => r.id));
        cursor = res.body.nextCursor;
        if (!cursor) return ids;
        expect(res.body.runs.length, 'a page before the last is full').toBe(limit);
      }
      throw new Error('more than 100 pages');
    }

    const expected = (pred: (r: SeedRun) => boolean) =>
      seeded
        .filter(pred)
        .sort(newestFirst)
        .map((r) => r.id);

    beforeAll(async () => {
      app = await getApp();
      headers = await ownerHeaders(app);
      for (const name of ['Alpha', 'Beta', 'Gamma']) {
        const wf = await call(createWf, 'POST', '/api/workflows', { body: { name, graph: simpleGraph() }, headers });
        expect(wf.status, wf.text).toBe(201);
        wfIds.push(wf.body.id);
      }
      const ws = await call(createWorkspace, 'POST', '/api/workspaces', { body: { name: 'Other' }, headers });
      expect(ws.status, ws.text).toBe(201);
      headersB = { ...headers, 'x-workspace-id': ws.body.id };
      const b = await call(createWf, 'POST', '/api/workflows', {
        body: { name: 'Other flow', graph: simpleGraph() },
        headers: headersB,
      });
      expect(b.status, b.text).toBe(201);
      wfB = b.body.id;
      const seed = await seedRunList(databaseOf(app), {
        workflows: wfIds.map((id, i) => ({ id, name: ['Alpha', 'Beta', 'Gamma'][i] })),
        workflowOfB: wfB,
        count: 1000,
        needleEvery: 50,
        percentAt: 500,
        bEvery: 20,
      });
      seeded.push(...seed.a);
      seededB.push(...seed.b);
    });

    afterAll(async () => {
      expectNoServerErrorsOrStacks();
      await app?.close();
      await cleanup?.();
    });

    it('pages through all 1,000 runs with limit 100: each exactly once, newest first', async () => {
      const ids = await pageAll('', 100);
      expect(ids.length).toBe(1000);
      expect(new Set(ids).size).toBe(1000);
      expect(ids).toEqual(expected(() => true));
    });

    it('serves the documented fields of each run', async () => {
      const res = await get('limit=200');
      expect(res.status).toBe(200);
      const byId = new Map(seeded.map((r) => [r.id, r]));
      for (const row of res.body.runs) {
        const s = byId.get(row.id)!;
        expect(row).toMatchObject({
          workflowId: s.workflowId,
          workflowName: s.workflowName,
          versionId: s.versionId,
          version: s.version,
          engine: s.engine,
          status: s.status,
          trigger: s.apiKeyId ? 'api' : 'editor',
          createdAt: s.createdAt,
          startedAt: s.startedAt,
          finishedAt: s.finishedAt,
          durationMs: s.finishedAt ? Date.parse(s.finishedAt) - Date.parse(s.startedAt!) : null,
        });
        if (s.error) expect(row.error).toEqual(s.error);
        else expect(row.error).toBeUndefined();
      }
    });

    it('defaults to 50 a page', async () => {
      const res = await get('');
      expect(res.body.runs).toHaveLength(50);
      expect(typeof res.body.nextCursor).toBe('string');
    });

    it('each filter narrows to exactly the runs it names, across pages', { timeout: 180_000 }, async () => {
      const from = new Date(BASE - 300 * 7 * MINUTE).toISOString();
      const to = new Date(BASE - 100 * 7 * MINUTE).toISOString();
      const cases: Array<[string, (r: SeedRun) => boolean]> = [
        [`workflowId=${wfIds[1]}`, (r) => r.workflowId === wfIds[1]],
        ['status=failed', (r) => r.status === 'failed'],
        ['status=running', (r) => r.status === 'running'],
        ['engine=dag', (r) => r.engine === 'dag'],
        ['version=draft', (r) => r.versionId === null],
        ['version=2', (r) => r.version === 2],
        ['trigger=api', (r) => r.apiKeyId !== null],
        ['trigger=editor', (r) => r.apiKeyId === null],
        [`from=${from}`, (r) => r.createdAt >= from],
        [`to=${to}`, (r) => r.createdAt < to],
        [`from=${from}&to=${to}`, (r) => r.createdAt >= from && r.createdAt < to],
        [
          `workflowId=${wfIds[0]}&status=succeeded&engine=langgraph&trigger=editor`,
          (r) => r.workflowId === wfIds[0] && r.status === 'succeeded' && r.engine === 'langgraph' && !r.apiKeyId,
        ],
        [`version=3&workflowId=${wfIds[2]}`, (r) => r.version === 3 && r.workflowId === wfIds[2]],
      ];
      for (const [query, pred] of cases) {
        const want = expected(pred);
        expect(want.length, `${query} selects something`).toBeGreaterThan(0);
        expect(want.length, `${query} leaves something out`).toBeLessThan(1000);
        expect(await pageAll(query, 37), query).toEqual(want);
      }
    });

    it('searches by run id prefix and by input text, case-insensitively and literally', async () => {
      const target = seeded[123];
      const prefix = target.id.slice(0, 9);
      expect(await pageAll(`q=${prefix}`, 100)).toEqual(expected((r) => r.id.startsWith(prefix)));
      expect(await pageAll(`q=${target.id}`, 100)).toEqual([target.id]);
      const needles = await pageAll('q=needle-in', 100);
      expect(needles).toEqual(expected((r) => String(r.inputs.note).includes('Needle-In')));
      expect(needles).toHaveLength(19); // every 50th run but the 500th
      // `%` and `_` are matched as themselves, not as LIKE wildcards.
      expect(await pageAll(`q=${encodeURIComponent('100%')}`, 100)).toEqual([seeded[500].id]);
      expect(await pageAll('q=order_1', 100)).toEqual([]);
      expect(await pageAll(`q=${encodeURIComponent('order 7')}&status=failed`, 100)).toEqual(
        expected((r) => String(r.inputs.message).startsWith('order 7') && r.status === 'failed'),
      );
    });

    it("never shows another workspace's runs, and the other workspace sees only its own", async () => {
      const a = new Set(await pageAll('q=haystack', 200));
      for (const r of seededB) expect(a.has(r.id)).toBe(false);
      expect((await get(`workflowId=${wfB}`)).body.runs).toEqual([]);
      const b = await pageAll('', 200, headersB);
      expect(b).toEqual([...seededB].sort(newestFirst).map((r) => r.id));
      expect((await get(`workflowId=${wfIds[0]}`, headersB)).body.runs).toEqual([]);
    });

    it('answers 400 with the parameter path for bad parameters', async () => {
      const bad: Array<[string, string, string]> = [
        ['status=exploded', 'query.status', 'VALIDATION_ERROR'],
        ['engine=auto', 'query.engine', 'VALIDATION_ERROR'],
        ['version=v2', 'query.version', 'VALIDATION_ERROR'],
        ['version=0', 'query.version', 'VALIDATION_ERROR'],
        ['trigger=carrier-pigeon', 'query.trigger', 'VALIDATION_ERROR'],
        ['from=yesterday', 'query.from', 'VALIDATION_ERROR'],
        ['to=2026-13-45', 'query.to', 'VALIDATION_ERROR'],
        ['from=2026-11-02&to=2026-11-01', 'query.from', 'VALIDATION_ERROR'],
        ['limit=0', 'query.limit', 'VALIDATION_ERROR'],
        ['limit=201', 'query.limit', 'VALIDATION_ERROR'],
        ['limit=ten', 'query.limit', 'VALIDATION_ERROR'],
        ['cursor=not-a-cursor', 'query.cursor', 'INVALID_CURSOR'],
        [`q=${'x'.repeat(201)}`, 'query.q', 'VALIDATION_ERROR'],
      ];
      for (const [query, path, code] of bad) {
        const res = await get(query);
        expect(res.status, `${query}: ${res.text}`).toBe(400);
        expect(res.body.error, query).toMatchObject({ code, path });
      }
      expect((await get('limit=200')).body.runs).toHaveLength(200);
    });

    it('is refused without credentials', async () => {
      const res = await call(listRuns, 'GET', '/api/runs', { anonymous: true });
      expect(res.status).toBe(401);
    });
  });
}
