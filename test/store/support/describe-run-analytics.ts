/**
 * The RunAnalyticsStore conformance suite (engine/store/analytics.ts), written once and run on every database kind
 * (test/store/run-analytics-are-computed-alike-on-both-databases.conformance.test.ts). It holds what the API suites
 * used to check on PostgreSQL through a second app: the run list's keyset pages, filters, literal search and
 * workspace scope; the workflow stats' SQL numbers (percentile_cont, per-day buckets, usage sums); the spend of a
 * range and of single runs; each workflow's latest run (a single-node run never is); the runs waiting for a person.
 * Rows are written straight into the tables so that every number is known beforehand.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunAnalyticsStore, RunListQuery } from '@/engine/store/analytics';
import { storesOn } from '@/engine/store/app/prisma-stores';
import type { Stores } from '@/engine/store/app/stores';
import type { Database } from '@/engine/store/prisma/database';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { openTestDb, type TestDb } from '../../support/databases';
import { newWorkflow, newWorkspace } from './stores-under-test';

interface SeedRun {
  id: string;
  workflowId: string;
  workflowName: string;
  versionId: string | null;
  version: number | null;
  engine: 'dag' | 'langgraph';
  status: string;
  apiKeyId: string | null;
  triggerKind: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  inputs: Record<string, unknown>;
  error: { code: string; message: string } | null;
  debug?: Record<string, unknown> | null;
  graph?: unknown;
}

interface NodeSeed {
  runId: string;
  node: string;
  type: string;
  status: string;
  ms: number;
  at: string;
  usage?: unknown;
  error?: { code: string; message: string };
  input?: unknown;
}

const naive = (iso: string | null) => iso?.replace('Z', '') ?? null;

async function insertRuns(db: Database, runs: SeedRun[]) {
  const rows = runs.map((r) => ({
    id: r.id,
    workflow_id: r.workflowId,
    version_id: r.versionId,
    engine: r.engine,
    status: r.status,
    inputs: r.inputs,
    error: r.error,
    api_key_id: r.apiKeyId,
    trigger_kind: r.triggerKind,
    debug: r.debug ?? null,
    graph: r.graph ?? { nodes: [], edges: [] },
    created_at: naive(r.createdAt),
    started_at: naive(r.startedAt),
    finished_at: naive(r.finishedAt),
  }));
  await db.sql.query(
    `INSERT INTO runs (id, workflow_id, version_id, engine, status, inputs, error, graph, api_key_id, trigger_kind,
                       debug, created_at, started_at, finished_at)
     SELECT x.id, x.workflow_id, x.version_id, x.engine, x.status, x.inputs, x.error, x.graph, x.api_key_id,
            x.trigger_kind, x.debug, x.created_at, x.started_at, x.finished_at
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, workflow_id text, version_id text, engine text, status text,
            inputs jsonb, error jsonb, graph jsonb, api_key_id text, trigger_kind text, debug jsonb,
            created_at timestamp(3), started_at timestamp(3), finished_at timestamp(3))`,
    [JSON.stringify(rows)],
  );
}

async function insertNodes(db: Database, nodes: NodeSeed[]) {
  const rows = nodes.map((n) => ({
    run_id: n.runId,
    node_id: n.node,
    type: n.type,
    status: n.status,
    usage: n.usage ?? null,
    error: n.error ?? null,
    input: n.input ?? null,
    duration_ms: n.ms,
    finished_at: naive(new Date(Date.parse(n.at) + n.ms).toISOString()),
  }));
  await db.sql.query(
    `INSERT INTO node_runs (run_id, node_id, type, status, usage, error, input, duration_ms, finished_at)
     SELECT x.run_id, x.node_id, x.type, x.status, x.usage, x.error, x.input, x.duration_ms, x.finished_at
       FROM jsonb_to_recordset($1::jsonb) AS x(run_id text, node_id text, type text, status text, usage jsonb,
            error jsonb, input jsonb, duration_ms int, finished_at timestamp(3))`,
    [JSON.stringify(rows)],
  );
}

const runId = () => `run_${randomBytes(16).toString('hex')}`;
/** Newest first, ties by id descending: the order the store promises. */
const newestFirst = (a: SeedRun, b: SeedRun) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

const STATUSES = ['succeeded', 'failed', 'running', 'cancelled', 'waiting'];
const BASE = Date.parse('2026-11-20T12:00:00.000Z');
const MINUTE = 60_000;
const RUNS_IN_A = 240;

function run(over: Partial<SeedRun> & Pick<SeedRun, 'workflowId' | 'createdAt'>): SeedRun {
  return {
    id: runId(),
    workflowName: '',
    versionId: null,
    version: null,
    engine: 'dag',
    status: 'succeeded',
    apiKeyId: null,
    triggerKind: null,
    startedAt: over.createdAt,
    finishedAt: null,
    inputs: {},
    error: null,
    ...over,
  };
}

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
      const versionIds = new Map<string, string>();
      for (const wf of wfIds)
        for (let v = 1; v <= 3; v++) {
          const id = `ver_${wf}_${v}`;
          versionIds.set(`${wf}:${v}`, id);
          await tdb.db.sql.query(
            `INSERT INTO workflow_versions (id, workflow_id, version, graph, engine) VALUES ($1, $2, $3, '{}', 'auto')`,
            [id, wf, v],
          );
        }
      const names = ['Alpha', 'Beta', 'Gamma'];
      const kinds = [null, null, null, 'webhook', 'schedule', 'mcp', 'evaluation', 'chat'];
      for (let i = 0; i < RUNS_IN_A; i++) {
        const w = i % 3;
        const version = i % 4 === 0 ? null : i % 4;
        const status = STATUSES[(i * 7) % 5];
        // Three runs share each created_at: the id breaks the tie, so the keyset must too.
        const created = BASE - Math.floor(i / 3) * 7 * MINUTE;
        const ended = status !== 'running' && status !== 'waiting';
        seeded.push(
          run({
            workflowId: wfIds[w],
            workflowName: names[w],
            versionId: version ? versionIds.get(`${wfIds[w]}:${version}`)! : null,
            version,
            engine: (i >> 1) % 2 ? 'dag' : 'langgraph',
            status,
            apiKeyId: i % 3 === 1 ? 'key_seeded' : null,
            triggerKind: kinds[i % kinds.length],
            createdAt: new Date(created).toISOString(),
            startedAt: new Date(created + 1000).toISOString(),
            finishedAt: ended ? new Date(created + 1000 + (i % 10) * 100).toISOString() : null,
            inputs: {
              message: `order ${i}`,
              note: i === 100 ? '100% Done' : i % 25 === 0 ? 'Needle-In-Haystack' : 'hay',
            },
            error: status === 'failed' ? { code: 'NODE_FAILED', message: `boom ${i}` } : null,
          }),
        );
      }
      for (let i = 0; i < 20; i++)
        seededB.push({
          ...seeded[i * 12],
          id: runId(),
          workflowId: wfB,
          workflowName: 'Other flow',
          versionId: null,
          version: null,
          inputs: { message: 'Needle-In-Haystack of B' },
        });
      await insertRuns(tdb.db, seeded);
      await insertRuns(tdb.db, seededB);
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
      const llm = (ms: number, extra: Partial<NodeSeed> = {}) => ({ node: 'n_llm', type: 'llm', ms, ...extra });
      const tpl = (ms: number, extra: Partial<NodeSeed> = {}) => ({ node: 't1', type: 'template', ms, ...extra });
      const u = (inputTokens: number, outputTokens = 0, costUsd?: number) => ({
        inputTokens,
        outputTokens,
        ...(costUsd !== undefined ? { costUsd } : {}),
      });
      type N = Partial<NodeSeed> & { node: string; type: string; ms: number };
      const RUNS: Array<{ id: string; at: string; ms: number | null; status: string; nodes: N[] }> = [
        {
          id: 'r0',
          at: '2026-11-05T10:00:00.000Z',
          ms: 5000,
          status: 'succeeded',
          nodes: [llm(4000, { usage: u(1000) })],
        },
        {
          id: 'r1',
          at: '2026-11-10T08:00:00.000Z',
          ms: 100,
          status: 'succeeded',
          nodes: [llm(80, { usage: u(10, 5, 0.001) }), tpl(10)],
        },
        {
          id: 'r2',
          at: '2026-11-10T09:00:00.000Z',
          ms: 200,
          status: 'succeeded',
          nodes: [llm(150, { usage: u(20, 10, 0.002) }), tpl(20)],
        },
        {
          id: 'r3',
          at: '2026-11-10T10:00:00.000Z',
          ms: 300,
          status: 'failed',
          nodes: [llm(250, { status: 'failed', error: { code: 'LLM_ERROR', message: 'rate limited' } }), tpl(30)],
        },
        {
          id: 'r4',
          at: '2026-11-11T08:00:00.000Z',
          ms: 400,
          status: 'succeeded',
          nodes: [llm(350, { usage: u(30, 15) }), tpl(40, { usage: { costUsd: 'n/a' } })],
        },
        {
          id: 'r5',
          at: '2026-11-11T09:00:00.000Z',
          ms: 1000,
          status: 'failed',
          nodes: [
            llm(900, { status: 'failed', error: { code: 'TIMEOUT', message: 'timed out' } }),
            tpl(5, { status: 'failed', error: { code: 'TEMPLATE', message: 'bad template' } }),
          ],
        },
        {
          id: 'r6',
          at: '2026-11-11T23:59:59.999Z',
          ms: null,
          status: 'running',
          nodes: [llm(1, { status: 'running' })],
        },
      ];
      const FROM = new Date('2026-11-10T00:00:00Z');
      const TO = new Date('2026-11-12T00:00:00Z');
      let wf = '';
      let noCost = '';
      let wfOfB = '';

      async function seed(workflowId: string, runs: typeof RUNS, prefix: string) {
        await insertRuns(
          tdb.db,
          runs.map((r) =>
            run({
              id: `${prefix}${r.id}`,
              workflowId,
              status: r.status,
              createdAt: r.at,
              finishedAt: r.ms === null ? null : new Date(Date.parse(r.at) + r.ms).toISOString(),
            }),
          ),
        );
        await insertNodes(
          tdb.db,
          runs.flatMap((r) =>
            r.nodes.map((n) => ({ status: 'succeeded', ...n, runId: `${prefix}${r.id}`, at: r.at }) as NodeSeed),
          ),
        );
      }

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
        expect(s.failingNodes).toEqual([
          { nodeId: 'n_llm', type: 'llm', failures: 2, lastError: { code: 'TIMEOUT', message: 'timed out' } },
          { nodeId: 't1', type: 'template', failures: 1, lastError: { code: 'TEMPLATE', message: 'bad template' } },
        ]);
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
