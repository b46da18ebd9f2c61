/**
 * The RunAnalyticsStore conformance suite (engine/store/analytics.ts), written once and run on every database kind
 * (test/store/run-analytics-are-computed-alike-on-both-databases.conformance.test.ts). It holds what the API suites
 * used to check on PostgreSQL through a second app: the run list's keyset pages, filters, literal search and
 * workspace scope; the workflow stats' SQL numbers (percentile_cont, per-day buckets, usage sums); the spend of a
 * range and of single runs; each workflow's latest run (a single-node run never is); the runs waiting for a person.
 * Rows are written straight into the tables so that every number is known beforehand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunAnalyticsStore, RunListQuery } from '@/engine/store/analytics';
import { storesOn } from '@/engine/store/app/prisma-stores';
import type { Stores } from '@/engine/store/app/stores';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { openTestDb, type TestDb } from '../../support/databases';
import {
  BASE,
  insertNodes,
  insertRuns,
  MINUTE,
  newestFirst,
  seedRun as run,
  seedRunList,
  seedStatsRuns,
  STATS_FAILING_NODES,
  STATS_RUNS as RUNS,
  type SeedRun,
} from './seed-runs';
import { newWorkflow, newWorkspace } from './stores-under-test';

const naive = (iso: string) => iso.replace('Z', '');
const RUNS_IN_A = 240;

export function describeRunAnalytics(kind: 'pglite' | 'postgres') {
  describe(`RunAnalyticsStore conformance on ${kind}`, () => {
    let tdb: TestDb;
    let stores: Stores;
    let analytics: RunAnalyticsStore;
    const ws = DEFAULT_WORKSPACE_ID;
    let wsB = '';
    const wfIds: string[] = [];
    let wfB = '';
    const seeded: SeedRun[] = [];
    const seededB: SeedRun[] = [];

    beforeAll(async () => {
      tdb = await openTestDb(kind);
      stores = storesOn(tdb.db);
      analytics = stores.analytics;
      for (const name of ['Alpha', 'Beta', 'Gamma']) wfIds.push(await newWorkflow(stores, name));
      wsB = (await newWorkspace(stores)).workspaceId;
      wfB = await newWorkflow(stores, 'Other flow', wsB);
      const seed = await seedRunList(tdb.db, {
        workflows: wfIds.map((id, i) => ({ id, name: ['Alpha', 'Beta', 'Gamma'][i] })),
        workflowOfB: wfB,
        count: RUNS_IN_A,
        needleEvery: 25,
        percentAt: 100,
        bEvery: 12,
        triggerKinds: [null, null, null, 'webhook', 'schedule', 'mcp', 'evaluation', 'chat'],
      });
      seeded.push(...seed.a);
      seededB.push(...seed.b);
    });
    afterAll(async () => {
      await tdb?.dispose();
    });

    const expected = (pred: (r: SeedRun) => boolean) =>
      seeded
        .filter(pred)
        .sort(newestFirst)
        .map((r) => r.id);

    /** Every page of `q` with `limit`, the ids in the order served. */
    async function pageAll(q: Omit<RunListQuery, 'limit' | 'after'>, limit: number): Promise<string[]> {
      const ids: string[] = [];
      let after: RunListQuery['after'];
      for (let page = 0; page < 100; page++) {
        const { rows, hasMore } = await analytics.listRuns({ ...q, limit, after });
        expect(rows.length).toBeLessThanOrEqual(limit);
        ids.push(...rows.map((r) => r.id));
        if (!hasMore) return ids;
        expect(rows.length, 'a page before the last is full').toBe(limit);
        after = { createdAt: rows.at(-1)!.createdAt, id: rows.at(-1)!.id };
      }
      throw new Error('more than 100 pages');
    }

    describe('listRuns', () => {
      it('pages through every run once, newest first, ties broken by id', async () => {
        const ids = await pageAll({ workspaceId: ws }, 50);
        expect(ids).toEqual(expected(() => true));
        expect(new Set(ids).size).toBe(RUNS_IN_A);
      });

      it('serves each run with its fields, its trigger and its duration', async () => {
        const { rows } = await analytics.listRuns({ workspaceId: ws, limit: 200 });
        const byId = new Map(seeded.map((r) => [r.id, r]));
        for (const row of rows) {
          const s = byId.get(row.id)!;
          expect(row).toMatchObject({
            workflowId: s.workflowId,
            workflowName: s.workflowName,
            versionId: s.versionId,
            version: s.version,
            engine: s.engine,
            status: s.status,
            trigger: s.triggerKind ?? (s.apiKeyId ? 'api' : 'editor'),
            createdAt: s.createdAt,
            startedAt: s.startedAt,
            finishedAt: s.finishedAt,
            durationMs: s.finishedAt ? Date.parse(s.finishedAt) - Date.parse(s.startedAt!) : null,
            inputsPreview: expect.stringContaining(String(s.inputs.message)),
            singleNodeId: null,
            singleNode: null,
          });
          if (s.error) expect(row.error).toEqual(s.error);
          else expect(row.error).toBeUndefined();
        }
      });

      it('each filter narrows to exactly the runs it names, across pages', async () => {
        const from = new Date(BASE - 60 * 7 * MINUTE);
        const to = new Date(BASE - 20 * 7 * MINUTE);
        const cases: Array<[string, Omit<RunListQuery, 'limit' | 'workspaceId'>, (r: SeedRun) => boolean]> = [
          ['workflow', { workflowId: wfIds[1] }, (r) => r.workflowId === wfIds[1]],
          ['failed', { status: 'failed' }, (r) => r.status === 'failed'],
          ['running', { status: 'running' }, (r) => r.status === 'running'],
          ['dag', { engine: 'dag' }, (r) => r.engine === 'dag'],
          ['draft', { version: 'draft' }, (r) => r.versionId === null],
          ['version 2', { version: 2 }, (r) => r.version === 2],
          ['api', { trigger: 'api' }, (r) => !r.triggerKind && r.apiKeyId !== null],
          ['editor', { trigger: 'editor' }, (r) => !r.triggerKind && r.apiKeyId === null],
          ['webhook', { trigger: 'webhook' }, (r) => r.triggerKind === 'webhook'],
          ['evaluation', { trigger: 'evaluation' }, (r) => r.triggerKind === 'evaluation'],
          ['from', { from }, (r) => r.createdAt >= from.toISOString()],
          ['to', { to }, (r) => r.createdAt < to.toISOString()],
          ['range', { from, to }, (r) => r.createdAt >= from.toISOString() && r.createdAt < to.toISOString()],
          [
            'several',
            { workflowId: wfIds[0], status: 'succeeded', engine: 'langgraph' },
            (r) => r.workflowId === wfIds[0] && r.status === 'succeeded' && r.engine === 'langgraph',
          ],
          [
            'version 3 of one',
            { version: 3, workflowId: wfIds[2] },
            (r) => r.version === 3 && r.workflowId === wfIds[2],
          ],
        ];
        for (const [label, q, pred] of cases) {
          const want = expected(pred);
          expect(want.length, `${label} selects something`).toBeGreaterThan(0);
          expect(want.length, `${label} leaves something out`).toBeLessThan(RUNS_IN_A);
          expect(await pageAll({ workspaceId: ws, ...q }, 17), label).toEqual(want);
        }
      });

      it('searches by run id prefix and by input text, case-insensitively and literally', async () => {
        const target = seeded[123];
        const prefix = target.id.slice(0, 9);
        expect(await pageAll({ workspaceId: ws, q: prefix }, 100)).toEqual(expected((r) => r.id.startsWith(prefix)));
        expect(await pageAll({ workspaceId: ws, q: target.id }, 100)).toEqual([target.id]);
        const needles = await pageAll({ workspaceId: ws, q: 'needle-in' }, 100);
        expect(needles).toEqual(expected((r) => String(r.inputs.note).includes('Needle-In')));
        expect(needles).toHaveLength(9); // every 25th run but the 100th
        // `%` and `_` are matched as themselves, not as LIKE wildcards.
        expect(await pageAll({ workspaceId: ws, q: '100%' }, 100)).toEqual([seeded[100].id]);
        expect(await pageAll({ workspaceId: ws, q: 'order_1' }, 100)).toEqual([]);
      });

      it("never shows another workspace's runs, and the other workspace sees only its own", async () => {
        const a = new Set(await pageAll({ workspaceId: ws, q: 'haystack' }, 200));
        for (const r of seededB) expect(a.has(r.id)).toBe(false);
        expect((await analytics.listRuns({ workspaceId: ws, workflowId: wfB, limit: 10 })).rows).toEqual([]);
        expect(await pageAll({ workspaceId: wsB }, 7)).toEqual([...seededB].sort(newestFirst).map((r) => r.id));
        expect((await analytics.listRuns({ workspaceId: wsB, workflowId: wfIds[0], limit: 10 })).rows).toEqual([]);
      });

      it("names a single-node run's node by its label and shows the input it ran with", async () => {
        const wf = await newWorkflow(stores, 'Single node');
        const r = run({
          workflowId: wf,
          createdAt: '2026-11-21T00:00:00.000Z',
          debug: { only: 'n1', input: { edited: false } },
          graph: { nodes: [{ id: 'n1', type: 'template', data: { label: '写摘要' } }], edges: [] },
        });
        await insertRuns(tdb.db, [r]);
        await insertNodes(tdb.db, [
          { runId: r.id, node: 'n1', type: 'template', status: 'succeeded', ms: 5, at: r.createdAt, input: { q: 'x' } },
        ]);
        const { rows } = await analytics.listRuns({ workspaceId: ws, workflowId: wf, limit: 5 });
        expect(rows.map((x) => [x.singleNodeId, x.singleNode])).toEqual([
          ['n1', { nodeId: 'n1', label: '写摘要', inputPreview: '{"q": "x"}' }],
        ]);
      });
    });

    describe('workflowStats, workflowCost and runCosts', () => {
      const FROM = new Date('2026-11-10T00:00:00Z');
      const TO = new Date('2026-11-12T00:00:00Z');
      let wf = '';
      let noCost = '';
      let wfOfB = '';

      const seed = (workflowId: string, runs: typeof RUNS, prefix: string) =>
        seedStatsRuns(tdb.db, workflowId, runs, prefix);

      beforeAll(async () => {
        wf = await newWorkflow(stores, 'Stats');
        noCost = await newWorkflow(stores, 'No cost');
        wfOfB = await newWorkflow(stores, 'B flow', wsB);
        await seed(wf, RUNS, `${kind}_a_`);
        await seed(
          noCost,
          RUNS.filter((r) => r.id === 'r4'),
          `${kind}_b_`,
        );
        await seed(wfOfB, RUNS, `${kind}_c_`); // another workspace's runs on the same days count nowhere in A
      });

      it('counts runs per day with their outcomes, duration percentiles, tokens and cost', async () => {
        const s = (await analytics.workflowStats(ws, wf, FROM, TO))!;
        expect(s.perDay).toHaveLength(2);
        const [d1, d2] = s.perDay;
        expect(d1).toMatchObject({ day: '2026-11-10', runs: 3, succeeded: 2, failed: 1, inputTokens: 30 });
        expect(d1.outputTokens).toBe(15);
        expect(d1.p50Ms).toBeCloseTo(200, 6);
        expect(d1.p95Ms).toBeCloseTo(290, 6); // 200 + 0.9 × (300 − 200)
        expect(d1.costUsd).toBeCloseTo(0.003, 9);
        expect(d2).toMatchObject({ day: '2026-11-11', runs: 3, succeeded: 1, failed: 1, inputTokens: 30 });
        expect(d2.p50Ms).toBeCloseTo(700, 6);
        expect(d2.p95Ms).toBeCloseTo(970, 6);
        expect(d2.costUsd).toBeNull(); // no node of that day reported a (numeric) cost
        expect(s.totals).toMatchObject({ runs: 6, inputTokens: 60, outputTokens: 30 });
        expect(s.totals.successRate).toBeCloseTo(3 / 5, 9);
        expect(s.totals.p50Ms).toBeCloseTo(300, 6);
        expect(s.totals.p95Ms).toBeCloseTo(880, 6); // 400 + 0.8 × (1000 − 400)
        expect(s.totals.costUsd).toBeCloseTo(0.003, 9);
      });

      it('names the slowest nodes by p95 and the most failing ones with their latest error', async () => {
        const s = (await analytics.workflowStats(ws, wf, FROM, TO))!;
        expect(s.slowestNodes.map((n) => n.nodeId)).toEqual(['n_llm', 't1']);
        expect(s.slowestNodes[0]).toMatchObject({ type: 'llm', runs: 5 });
        expect(s.slowestNodes[0].p95Ms).toBeCloseTo(790, 6);
        expect(s.slowestNodes[1].p95Ms).toBeCloseTo(38, 6);
        expect(s.failingNodes).toEqual(STATS_FAILING_NODES);
      });

      it('only days with runs, no cost when no node has one, null for another workspace', async () => {
        const s = (await analytics.workflowStats(ws, noCost, new Date('2026-11-09Z'), new Date('2026-11-13Z')))!;
        // Days without runs are absent here (the API fills them with zeros, lib/server/runs/analytics.ts).
        expect(s.perDay.map((d) => [d.day, d.runs])).toEqual([['2026-11-11', 1]]);
        expect(s.totals).toMatchObject({ runs: 1, successRate: 1, inputTokens: 30, costUsd: null });
        expect(s.failingNodes).toEqual([]);
        const empty = (await analytics.workflowStats(ws, wf, new Date('2025-01-01Z'), new Date('2025-01-03Z')))!;
        expect(empty.totals).toMatchObject({ runs: 0, successRate: null, p50Ms: null, inputTokens: 0 });
        expect(empty.perDay).toEqual([]);
        expect(await analytics.workflowStats(wsB, wf, FROM, TO)).toBeNull();
      });

      it('sums the spend of [from, to), counts runs without a price, and is scoped to the workspace', async () => {
        const c = await analytics.workflowCost({ workflowId: wf, workspaceId: ws, from: FROM, to: TO });
        // r4's template node reported usage without a numeric cost: its run's price is unknown.
        expect(c).toMatchObject({ runs: 6, inputTokens: 60, outputTokens: 30, unknownPriceRuns: 1 });
        expect(c.costUsd).toBeCloseTo(0.003, 12);
        const day2 = await analytics.workflowCost({
          workflowId: wf,
          workspaceId: ws,
          from: new Date('2026-11-11T08:00:00.000Z'), // inclusive
          to: new Date('2026-11-11T23:59:59.999Z'), // exclusive: r6 is out
        });
        expect(day2).toMatchObject({ runs: 2, inputTokens: 30, outputTokens: 15, costUsd: 0, unknownPriceRuns: 1 });
        const none = await analytics.workflowCost({
          workflowId: wf,
          workspaceId: ws,
          from: new Date('2000-01-01Z'),
          to: new Date('2000-01-02Z'),
        });
        expect(none).toEqual({ runs: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unknownPriceRuns: 0 });
        const elsewhere = await analytics.workflowCost({ workflowId: wf, workspaceId: wsB, from: FROM, to: TO });
        expect(elsewhere.runs).toBe(0);
      });

      it("each run's cost is its nodes' sum, unknown as soon as one node's is", async () => {
        const costs = await analytics.runCosts([`${kind}_a_r1`, `${kind}_a_r3`, `${kind}_a_r4`, 'run_missing']);
        expect(costs.get(`${kind}_a_r1`)!.costUsd).toBeCloseTo(0.001, 12);
        expect(costs.get(`${kind}_a_r1`)).toMatchObject({ inputTokens: 10, outputTokens: 5 });
        expect(costs.get(`${kind}_a_r3`)).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
        expect(costs.get(`${kind}_a_r4`)).toEqual({ inputTokens: 30, outputTokens: 15, costUsd: null });
        expect(costs.has('run_missing')).toBe(false);
        expect((await analytics.runCosts([])).size).toBe(0);
      });
    });

    describe('latestRuns and waitingRuns', () => {
      it("each workflow's latest run in one call; a single-node run never is; another workspace has none", async () => {
        const a = await newWorkflow(stores, 'Latest A');
        const b = await newWorkflow(stores, 'Latest B');
        const never = await newWorkflow(stores, 'Never run');
        const older = run({ workflowId: a, createdAt: '2026-11-01T00:00:00.000Z', status: 'failed' });
        const newer = run({
          workflowId: a,
          createdAt: '2026-11-02T00:00:00.000Z',
          finishedAt: '2026-11-02T00:00:01.500Z',
        });
        const single = run({ workflowId: a, createdAt: '2026-11-03T00:00:00.000Z', debug: { only: 'n1' } });
        const ofB = run({ workflowId: b, createdAt: '2026-11-01T00:00:00.000Z', status: 'running' });
        await insertRuns(tdb.db, [older, newer, single, ofB]);
        const latest = await analytics.latestRuns(ws, [a, b, never]);
        expect(latest.get(a)).toEqual({
          id: newer.id,
          status: 'succeeded',
          createdAt: newer.createdAt,
          startedAt: newer.startedAt,
          finishedAt: newer.finishedAt,
        });
        expect(latest.get(b)).toMatchObject({ id: ofB.id, status: 'running', finishedAt: null });
        expect(latest.has(never)).toBe(false);
        expect((await analytics.latestRuns(wsB, [a, b])).size).toBe(0);
        expect((await analytics.latestRuns(ws, [])).size).toBe(0);
      });

      it('lists the waiting runs of the given workspaces, newest first, with what each waits on', async () => {
        const wf = await newWorkflow(stores, 'Waiting');
        const graph = {
          nodes: [
            { id: 'ask', type: 'human_input', data: { label: '请确认' } },
            { id: 'agent', type: 'agent', data: { label: 'Agent' } },
          ],
          edges: [],
        };
        const human = run({ workflowId: wf, createdAt: '2026-11-05T00:00:00.000Z', status: 'waiting', graph });
        const tool = run({ workflowId: wf, createdAt: '2026-11-06T00:00:00.000Z', status: 'waiting', graph });
        const done = run({ workflowId: wf, createdAt: '2026-11-07T00:00:00.000Z', status: 'succeeded', graph });
        const bWaits = run({ workflowId: wfB, createdAt: '2026-12-08T00:00:00.000Z', status: 'waiting', graph });
        await insertRuns(tdb.db, [human, tool, done, bWaits]);
        const event = (r: SeedRun, seq: number, data: unknown) =>
          tdb.db.sql.query(
            `INSERT INTO run_events (run_id, seq, ts, type, node_id, span_id, data)
             VALUES ($1, $2, $3::timestamp(3), 'run.waiting', NULL, 's', $4::jsonb)`,
            [r.id, seq, naive(r.createdAt), JSON.stringify(data)],
          );
        await event(human, 1, { nodeId: 'ask', prompt: 'Approve the refund?' });
        await event(tool, 1, { nodeId: 'agent', prompt: { kind: 'tool_approval', name: 'send_email' } });
        const { rows, total } = await analytics.waitingRuns({ workspaceIds: [ws], workflowId: wf, limit: 10 });
        expect(total).toBe(2);
        expect(rows.map((r) => [r.id, r.kind, r.node, r.detail, r.waitingSince])).toEqual([
          [tool.id, 'tool_approval', { id: 'agent', label: 'Agent', type: 'agent' }, 'send_email', tool.createdAt],
          [
            human.id,
            'human_input',
            { id: 'ask', label: '请确认', type: 'human_input' },
            'Approve the refund?',
            human.createdAt,
          ],
        ]);
        expect(rows[0]).toMatchObject({ workflowId: wf, workflowName: 'Waiting', workspaceId: ws });
        const both = await analytics.waitingRuns({ workspaceIds: [ws, wsB], limit: 1 });
        expect(both.rows.map((r) => r.id)).toEqual([bWaits.id]);
        expect(both.total).toBeGreaterThanOrEqual(3);
        expect((await analytics.waitingRuns({ workspaceIds: [wsB], workflowId: wf, limit: 10 })).total).toBe(0);
        expect(await analytics.waitingRuns({ workspaceIds: [], limit: 10 })).toEqual({ rows: [], total: 0 });
      });
    });
  });
}
