/**
 * Runs and node runs written straight into the tables, so that every number a run list or a stats query answers is
 * known beforehand. One seeding for the run-analytics conformance suite (describe-run-analytics.ts) and the API
 * suites above it (test/api/runs-list-suite.ts, test/api/workflow-stats-suite.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '@/engine/store/prisma/database';

export interface SeedRun {
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

export interface NodeSeed {
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

export async function insertRuns(db: Database, runs: SeedRun[]) {
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

export async function insertNodes(db: Database, nodes: NodeSeed[]) {
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

export const runId = () => `run_${randomBytes(16).toString('hex')}`;

/** Newest first, ties by id descending: the order the store and the endpoint promise. */
export const newestFirst = (a: SeedRun, b: SeedRun) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

export const BASE = Date.parse('2026-11-20T12:00:00.000Z');
export const MINUTE = 60_000;
const STATUSES = ['succeeded', 'failed', 'running', 'cancelled', 'waiting'];

/** A finished editor run of `workflowId` unless `over` says otherwise. */
export function seedRun(over: Partial<SeedRun> & Pick<SeedRun, 'workflowId' | 'createdAt'>): SeedRun {
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

export interface RunListSeed {
  /** The runs of workspace A, `count` of them over its workflows in turn. */
  a: SeedRun[];
  /** Copies of every `bEvery`th run of A in workspace B's workflow, with a B-only message. */
  b: SeedRun[];
}

/**
 * Runs for a run list to page, filter and search: three runs share each created_at (the id breaks the tie, so the
 * keyset must too); statuses, engines, versions 1–3 (or none), API keys and trigger kinds cycle; every
 * `needleEvery`th run's note says "Needle-In-Haystack" and run `percentAt`'s says "100% Done" (a literal `%`).
 * Versions are written as rows, so the list can name them.
 */
export async function seedRunList(
  db: Database,
  opts: {
    workflows: Array<{ id: string; name: string }>;
    workflowOfB: string;
    count: number;
    needleEvery: number;
    percentAt: number;
    bEvery: number;
    triggerKinds?: Array<string | null>;
  },
): Promise<RunListSeed> {
  const versionIds = new Map<string, string>();
  for (const wf of opts.workflows)
    for (let v = 1; v <= 3; v++) {
      const id = `ver_${wf.id}_${v}`;
      versionIds.set(`${wf.id}:${v}`, id);
      await db.sql.query(
        `INSERT INTO workflow_versions (id, workflow_id, version, graph, engine) VALUES ($1, $2, $3, '{}', 'auto')`,
        [id, wf.id, v],
      );
    }
  const kinds = opts.triggerKinds ?? [null];
  const a: SeedRun[] = [];
  for (let i = 0; i < opts.count; i++) {
    const wf = opts.workflows[i % opts.workflows.length];
    const version = i % 4 === 0 ? null : i % 4;
    const status = STATUSES[(i * 7) % 5];
    const created = BASE - Math.floor(i / 3) * 7 * MINUTE;
    const ended = status !== 'running' && status !== 'waiting';
    a.push(
      seedRun({
        workflowId: wf.id,
        workflowName: wf.name,
        versionId: version ? versionIds.get(`${wf.id}:${version}`)! : null,
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
          note: i === opts.percentAt ? '100% Done' : i % opts.needleEvery === 0 ? 'Needle-In-Haystack' : 'hay',
        },
        error: status === 'failed' ? { code: 'NODE_FAILED', message: `boom ${i}` } : null,
      }),
    );
  }
  const b = Array.from({ length: Math.ceil(opts.count / opts.bEvery) }, (_, i) => ({
    ...a[i * opts.bEvery],
    id: runId(),
    workflowId: opts.workflowOfB,
    workflowName: 'Other flow',
    versionId: null,
    version: null,
    inputs: { message: 'Needle-In-Haystack of B' },
  }));
  await insertRuns(db, a);
  await insertRuns(db, b);
  return { a, b };
}

/** A stats fixture's run: when it started, how long it took (null: still running), its node runs. */
export interface StatsRun {
  id: string;
  at: string;
  ms: number | null;
  status: string;
  nodes: Array<Omit<NodeSeed, 'runId' | 'at' | 'status'> & { status?: string }>;
}

const llm = (ms: number, extra: Partial<NodeSeed> = {}) => ({ node: 'n_llm', type: 'llm', ms, ...extra });
const tpl = (ms: number, extra: Partial<NodeSeed> = {}) => ({ node: 't1', type: 'template', ms, ...extra });
const usage = (inputTokens: number, outputTokens = 0, costUsd?: number) => ({
  inputTokens,
  outputTokens,
  ...(costUsd !== undefined ? { costUsd } : {}),
});

/**
 * Seven runs whose stats are known: r0 before the range 2026-11-10 – 2026-11-12; three runs on the 10th (one
 * failed), three on the 11th (one failed on two nodes, one still running at 23:59:59.999); tokens and cost on some
 * LLM nodes, a cost that is not a number on one template node.
 */
export const STATS_RUNS: StatsRun[] = [
  {
    id: 'r0',
    at: '2026-11-05T10:00:00.000Z',
    ms: 5000,
    status: 'succeeded',
    nodes: [llm(4000, { usage: usage(1000) })],
  },
  {
    id: 'r1',
    at: '2026-11-10T08:00:00.000Z',
    ms: 100,
    status: 'succeeded',
    nodes: [llm(80, { usage: usage(10, 5, 0.001) }), tpl(10)],
  },
  {
    id: 'r2',
    at: '2026-11-10T09:00:00.000Z',
    ms: 200,
    status: 'succeeded',
    nodes: [llm(150, { usage: usage(20, 10, 0.002) }), tpl(20)],
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
    nodes: [llm(350, { usage: usage(30, 15) }), tpl(40, { usage: { costUsd: 'n/a' } })],
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

/** The failing nodes STATS_RUNS give from 2026-11-10 to 2026-11-12, most failures first, each with its latest error. */
export const STATS_FAILING_NODES = [
  { nodeId: 'n_llm', type: 'llm', failures: 2, lastError: { code: 'TIMEOUT', message: 'timed out' } },
  { nodeId: 't1', type: 'template', failures: 1, lastError: { code: 'TEMPLATE', message: 'bad template' } },
];

/** Writes `runs` as runs of `workflowId` (ids prefixed with `prefix`) with their node runs. */
export async function seedStatsRuns(db: Database, workflowId: string, runs: StatsRun[], prefix: string) {
  await insertRuns(
    db,
    runs.map((r) =>
      seedRun({
        id: `${prefix}${r.id}`,
        workflowId,
        status: r.status,
        createdAt: r.at,
        finishedAt: r.ms === null ? null : new Date(Date.parse(r.at) + r.ms).toISOString(),
      }),
    ),
  );
  await insertNodes(
    db,
    runs.flatMap((r) => r.nodes.map((n) => ({ status: 'succeeded', ...n, runId: `${prefix}${r.id}`, at: r.at }))),
  );
}
