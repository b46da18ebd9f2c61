/**
 * GET /api/workflows/:id/stats on a small data set whose numbers are worked out by hand: runs per day, success
 * rate, p50/p95 run durations (percentile_cont, interpolated), tokens and cost summed from node usage (a malformed
 * cost ignored), the slowest and the most failing nodes with the latest error; runs outside the range, and another
 * workspace, never count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as stats } from '@/app/api/workflows/[id]/stats/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { getApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { ownerHeaders } from '../support/owner';
import { call, expectNoServerErrorsOrStacks, simpleGraph } from './api-helpers';
import { databaseOf } from '../support/database-of';
import { seedStatsRuns, STATS_FAILING_NODES, STATS_RUNS as RUNS, type StatsRun } from '../store/support/seed-runs';

const RANGE = 'from=2026-11-10T00:00:00Z&to=2026-11-12T00:00:00Z';

const seed = (app: App, workflowId: string, runs: StatsRun[], prefix: string) =>
  seedStatsRuns(databaseOf(app), workflowId, runs, prefix);

export function workflowStatsSuite(kind: string, cleanup?: () => Promise<void>) {
  describe(`GET /api/workflows/:id/stats computes its numbers in SQL (${kind})`, () => {
    let app: App;
    let headers: Record<string, string>;
    let headersB: Record<string, string>;
    let wf = '';
    let noCost = '';

    const get = (id: string, query = RANGE, h = headers) =>
      call(stats, 'GET', `/api/workflows/${id}/stats?${query}`, { headers: h, params: { id } });

    beforeAll(async () => {
      app = await getApp();
      headers = await ownerHeaders(app);
      const make = async (name: string, h = headers) => {
        const r = await call(createWf, 'POST', '/api/workflows', { body: { name, graph: simpleGraph() }, headers: h });
        expect(r.status, r.text).toBe(201);
        return r.body.id as string;
      };
      wf = await make('Stats');
      noCost = await make('No cost');
      await seed(app, wf, RUNS, 'a_');
      await seed(
        app,
        noCost,
        RUNS.filter((r) => r.id === 'r4'),
        'b_',
      );
      const ws = await call(createWorkspace, 'POST', '/api/workspaces', { body: { name: 'Other' }, headers });
      expect(ws.status, ws.text).toBe(201);
      headersB = { ...headers, 'x-workspace-id': ws.body.id };
      // Another workspace's workflow with runs on the same days: counts nowhere in A.
      await seed(app, await make('B flow', headersB), RUNS, 'c_');
    });

    afterAll(async () => {
      expectNoServerErrorsOrStacks();
      await app?.close();
      await cleanup?.();
    });

    it('counts runs per day with their outcomes, duration percentiles, tokens and cost', async () => {
      const res = await get(wf);
      expect(res.status, res.text).toBe(200);
      const [d1, d2] = res.body.perDay;
      expect(res.body.perDay).toHaveLength(2);
      expect(d1).toMatchObject({ day: '2026-11-10', runs: 3, succeeded: 2, failed: 1, inputTokens: 30 });
      expect(d1.outputTokens).toBe(15);
      expect(d1.p50Ms).toBeCloseTo(200, 6);
      expect(d1.p95Ms).toBeCloseTo(290, 6); // 200 + 0.9 × (300 − 200)
      expect(d1.costUsd).toBeCloseTo(0.003, 9);
      expect(d2).toMatchObject({ day: '2026-11-11', runs: 3, succeeded: 1, failed: 1, inputTokens: 30 });
      expect(d2.p50Ms).toBeCloseTo(700, 6);
      expect(d2.p95Ms).toBeCloseTo(970, 6);
      expect(d2.costUsd).toBeNull(); // no node of that day reported a (numeric) cost
    });

    it('sums the range in totals', async () => {
      const { totals } = (await get(wf)).body;
      expect(totals).toMatchObject({ runs: 6, inputTokens: 60, outputTokens: 30 });
      expect(totals.successRate).toBeCloseTo(3 / 5, 9);
      expect(totals.p50Ms).toBeCloseTo(300, 6);
      expect(totals.p95Ms).toBeCloseTo(880, 6); // 400 + 0.8 × (1000 − 400)
      expect(totals.costUsd).toBeCloseTo(0.003, 9);
    });

    it('names the slowest nodes by p95 and the most failing ones with their latest error', async () => {
      const body = (await get(wf)).body;
      expect(body.slowestNodes.map((n: { nodeId: string }) => n.nodeId)).toEqual(['n_llm', 't1']);
      expect(body.slowestNodes[0]).toMatchObject({ type: 'llm', runs: 5 });
      expect(body.slowestNodes[0].p95Ms).toBeCloseTo(790, 6);
      expect(body.slowestNodes[1].p95Ms).toBeCloseTo(38, 6);
      expect(body.failingNodes).toEqual(STATS_FAILING_NODES);
    });

    it('reports no cost when no node has one, and zeros for days without runs', async () => {
      const res = await get(noCost, 'from=2026-11-09T00:00:00Z&to=2026-11-13T00:00:00Z');
      expect(res.body.perDay.map((d: { day: string; runs: number }) => [d.day, d.runs])).toEqual([
        ['2026-11-09', 0],
        ['2026-11-10', 0],
        ['2026-11-11', 1],
        ['2026-11-12', 0],
      ]);
      expect(res.body.totals).toMatchObject({ runs: 1, successRate: 1, inputTokens: 30, costUsd: null });
      expect(res.body.failingNodes).toEqual([]);
    });

    it('is empty outside any run, and another workspace cannot see the workflow', async () => {
      const empty = await get(wf, 'from=2025-01-01T00:00:00Z&to=2025-01-03T00:00:00Z');
      expect(empty.body.totals).toMatchObject({ runs: 0, successRate: null, p50Ms: null, inputTokens: 0 });
      expect(empty.body.perDay).toHaveLength(2);
      expect((await get(wf, RANGE, headersB)).status).toBe(404);
    });

    it('answers 400 with the parameter path for a bad range', async () => {
      for (const [q, path] of [
        ['from=last-week', 'query.from'],
        ['to=2026-11-40', 'query.to'],
        ['from=2026-11-12&to=2026-11-10', 'query.from'],
        ['from=2020-01-01&to=2026-01-01', 'query.from'],
      ]) {
        const res = await get(wf, q);
        expect(res.status, `${q}: ${res.text}`).toBe(400);
        expect(res.body.error.path).toBe(path);
      }
      const dflt = await get(wf, '');
      expect(dflt.status).toBe(200);
      expect(dflt.body.perDay.length).toBeGreaterThanOrEqual(30);
    });
  });
}
