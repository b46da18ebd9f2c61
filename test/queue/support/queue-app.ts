/**
 * Queue-mode test rig: the real app (lib/server/app.ts createApp) in queue mode on its own PostgreSQL schema and
 * Redis key prefix, with WORKERS=n real worker processes (scripts/worker.ts forked by the app) that load the test
 * node types through PAIFLOW_EXTRA_NODES. PostgreSQL and Redis are required under CI=true; otherwise a suite
 * without them is skipped with a message.
 */
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pg from 'pg';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import type { RunRecord } from '@/engine/store/types';
import type { App } from '@/lib/server/app-types';
import {
  postgresAvailable,
  redisAvailable,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  uniqueSchema,
} from '../../support/databases';
import { until } from '../../support/until';
import { nodes } from './test-nodes';

export { redisAvailable, TEST_REDIS_URL };

/** Whether the queue suites can run here; prints why not. Under CI=true a missing server throws instead. */
export async function queueServicesAvailable(suite: string): Promise<boolean> {
  const [pgOk, redisOk] = [await postgresAvailable(), await redisAvailable()];
  if (!pgOk || !redisOk)
    console.warn(
      `[tests] ${suite} SKIPPED: queue mode needs ` +
        `PostgreSQL (${pgOk ? 'ok' : `unreachable at ${TEST_DATABASE_URL}`}) ` +
        `and Redis (${redisOk ? 'ok' : `unreachable at ${TEST_REDIS_URL}`})`,
    );
  return pgOk && redisOk;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

export interface QueueRig {
  app: App;
  schema: string;
  prefix: string;
  redisUrl: string;
  scratch: string;
  counterFile: string;
  createWorkflow(graph: Graph, name?: string): Promise<string>;
  start(workflowId: string): Promise<RunRecord>;
  run(runId: string): Promise<RunRecord>;
  events(runId: string): Promise<TraceEvent[]>;
  waitForStatus(runId: string, statuses: string[] | 'terminal', timeoutMs?: number): Promise<RunRecord>;
  nodeStatus(runId: string, nodeId: string): Promise<string | undefined>;
  /** Lines of the probe counter file. */
  counts(): Record<string, number>;
  workerPids(): number[];
  close(): Promise<void>;
}

/** Starts the app in queue mode with `env` on top of the rig's defaults. */
export async function startQueueRig(env: Record<string, string>): Promise<QueueRig> {
  const schema = uniqueSchema('q');
  const prefix = `paiflow-qtest-${randomUUID().slice(0, 8)}:`;
  const scratch = mkdtempSync(path.join(tmpdir(), 'paiflow-queue-'));
  const counterFile = path.join(scratch, 'probe-calls.txt');
  const redisUrl = env.REDIS_URL ?? TEST_REDIS_URL;
  Object.assign(process.env, {
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    SEED_EXAMPLE: '0',
    DATA_DIR: path.join(scratch, 'data'),
    PROBE_COUNTER_FILE: counterFile,
    PAIFLOW_EXTRA_NODES: path.resolve('test/queue/support/test-nodes.ts'),
    // Fast enough for tests; production defaults are in engine/queue/config.ts.
    WORKER_HEARTBEAT_MS: '200',
    RUN_STALE_MS: '3000',
    QUEUE_REAPER_MS: '1000',
    QUEUE_LOCK_MS: '3000',
    WORKER_SHUTDOWN_GRACE_MS: '1000',
    ...env,
  });
  const { createApp } = await import('@/lib/server/app');
  const { readConfig } = await import('@/lib/server/config');
  const app = await createApp(readConfig());
  for (const n of nodes) app.registry.register(n);
  await app.queue?.processes?.ready();
  let n = 0;
  const rig: QueueRig = {
    app,
    schema,
    prefix,
    redisUrl,
    scratch,
    counterFile,
    async createWorkflow(graph, name = 'queue-test') {
      return (
        await app.store.createWorkflow({
          id: `wf_q_${Date.now()}_${n++}`,
          name,
          description: '',
          graph,
          engine: 'auto',
        })
      ).id;
    },
    async start(workflowId) {
      const wf = (await app.store.getWorkflow(workflowId))!;
      return (await app.runs.start({ workflow: wf, inputs: {} })).run;
    },
    run: async (runId) => (await app.store.getRun(runId))!,
    events: (runId) => app.store.getEvents(runId),
    waitForStatus: (runId, statuses, timeoutMs = 60_000) =>
      until(
        async () => {
          const r = await app.store.getRun(runId);
          return r && (statuses === 'terminal' ? TERMINAL.has(r.status) : statuses.includes(r.status)) ? r : undefined;
        },
        `run ${runId} to be ${statuses}`,
        timeoutMs,
        50,
      ),
    nodeStatus: async (runId, nodeId) => (await app.store.getNodeRuns(runId)).find((x) => x.nodeId === nodeId)?.status,
    counts() {
      if (!existsSync(counterFile)) return {};
      const out: Record<string, number> = {};
      for (const l of readFileSync(counterFile, 'utf8').split('\n').filter(Boolean)) out[l] = (out[l] ?? 0) + 1;
      return out;
    },
    workerPids: () => app.queue?.processes?.pids() ?? [],
    async close() {
      await app.close().catch((e) => console.warn(`close: ${(e as Error).message}`));
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await c.end();
      await deleteKeys(redisUrl, prefix).catch(() => {});
      rmSync(scratch, { recursive: true, force: true });
    },
  };
  return rig;
}

export async function deleteKeys(url: string, prefix: string) {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  r.on('error', () => {});
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

/** start → given nodes in a chain → end (outputs the last node's output). */
export function chain(nodesCfg: Array<{ id: string; config?: Record<string, unknown> }>): Graph {
  const nodes: Graph['nodes'] = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
  ];
  const edges: Graph['edges'] = [];
  let prev = 'start';
  nodesCfg.forEach((n, i) => {
    nodes.push({ id: n.id, type: 'qprobe', position: { x: (i + 1) * 200, y: 0 }, data: { config: n.config ?? {} } });
    edges.push({ id: `e_${n.id}`, source: prev, target: n.id });
    prev = n.id;
  });
  nodes.push({
    id: 'end',
    type: 'end',
    position: { x: (nodesCfg.length + 1) * 200, y: 0 },
    data: { config: { outputs: [{ name: 'last', value: `{{${prev}.output.value}}` }] } },
  });
  edges.push({ id: 'e_end', source: prev, target: 'end' });
  return { nodes, edges };
}

/** The pid part of a RunManager owner id (`<pid>-<random>`). */
export function ownerPid(ownerId: string | null): number {
  return Number((ownerId ?? '').split('-')[0]);
}

export function expectContiguous(events: TraceEvent[]): boolean {
  return events.every((e, i) => e.seq === i + 1);
}
