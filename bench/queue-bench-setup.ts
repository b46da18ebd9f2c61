/**
 * What the queue bench (queue.bench.ts) runs on: PostgreSQL and Redis from the environment, a RunManager in
 * in-process or queue mode (API side and worker in this process), a fresh schema and key prefix per measurement,
 * and two bench nodes: a no-op, and a gate that holds runs open until the bench opens it.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pg from 'pg';
import { z } from 'zod';
import { InProcessEventBus } from '../engine/events/in-process-bus';
import { RedisEventBus } from '../engine/events/redis-bus';
import type { EventBus } from '../engine/events/types';
import type { Graph } from '../engine/graph/schema';
import { createLlmResolver } from '../engine/llm/resolve-provider';
import { createGuardedFetch } from '../engine/net/ssrf-guard';
import { defineNode } from '../engine/node-kit/define';
import { createDefaultRegistry } from '../engine/nodes/registry';
import { BullRunQueue, startBullWorker } from '../engine/queue/bullmq-queue';
import type { RunWorker } from '../engine/queue/types';
import { RunManager } from '../engine/runtime/run-manager';
import { openDatabase, type Database } from '../engine/store/prisma/database';
import { PrismaStore } from '../engine/store/prisma/prisma-store';

export type Mode = 'in-process' | 'queue';

export const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Holds runs open: a gate node waits until the bench opens the gate (or the run is aborted). */
class Gate {
  /** Gate nodes that started waiting since the bench last reset the count. */
  waiting = 0;
  private opened: Promise<void> = Promise.resolve();
  private release = () => {};

  close() {
    this.opened = new Promise<void>((r) => {
      this.release = r;
    });
  }

  open() {
    this.release();
  }

  pass(signal: AbortSignal): Promise<unknown> {
    this.waiting++;
    return Promise.race([
      this.opened,
      new Promise((_, rej) => signal.addEventListener('abort', () => rej(new Error('aborted')), { once: true })),
    ]);
  }
}

export const gate = new Gate();

const gateNode = defineNode<Record<string, never>>({
  type: 'bench_gate',
  version: 1,
  label: 'Gate (bench)',
  category: 'data',
  description: 'waits for the bench',
  configSchema: z.object({}),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute(ctx) {
    await gate.pass(ctx.signal);
    return { output: { ok: true } };
  },
});
const noopNode = defineNode<Record<string, never>>({
  type: 'bench_noop',
  version: 1,
  label: 'No-op (bench)',
  category: 'data',
  description: 'bench',
  configSchema: z.object({}),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute() {
    return { output: { ok: true } };
  },
});

export function graphOf(type: string): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      { id: 'n1', type, position: { x: 200, y: 0 }, data: { config: {} } },
      { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { config: { outputs: [] } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
  };
}

export interface Setup {
  api: RunManager;
  store: PrismaStore;
  bus: EventBus;
  close(): Promise<void>;
}

export async function setup(mode: Mode, db: Database, prefix: string, workerConcurrency: number): Promise<Setup> {
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const registry = createDefaultRegistry().register(gateNode).register(noopNode);
  const services = { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined } };
  if (mode === 'in-process') {
    const bus = new InProcessEventBus(5_000);
    const api = new RunManager({ store, workflows: store, bus, registry, services });
    return {
      api,
      store,
      bus,
      close: async () => {
        await api.close();
        await bus.close();
      },
    };
  }
  const queue = new BullRunQueue({ redisUrl: REDIS_URL, prefix });
  const apiBus = new RedisEventBus(REDIS_URL, { prefix, ttlSeconds: 120 });
  const workerBus = new RedisEventBus(REDIS_URL, { prefix, ttlSeconds: 120 });
  const api = new RunManager({
    store,
    workflows: store,
    bus: apiBus,
    registry,
    services,
    dispatch: (run) => queue.enqueue({ runId: run.id, workflowId: run.workflowId }),
  });
  const workerRuns = new RunManager({
    store,
    workflows: store,
    bus: workerBus,
    registry,
    services,
    heartbeatMs: 1_000,
  });
  const worker: RunWorker = startBullWorker({
    redisUrl: REDIS_URL,
    prefix,
    executor: workerRuns,
    getRun: (id) => store.getRun(id),
    concurrency: workerConcurrency,
    lockMs: 30_000,
  });
  return {
    api,
    store,
    bus: apiBus,
    async close() {
      await worker.close(true);
      await workerRuns.close();
      await api.close();
      await queue.close();
      await apiBus.close();
      await workerBus.close();
    },
  };
}

export async function withDatabase<T>(fn: (db: Database, prefix: string) => Promise<T>): Promise<T> {
  const schema = `bench_q_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const prefix = `paiflow-bench-${randomUUID().slice(0, 8)}:`;
  const db = await openDatabase({ databaseUrl: DATABASE_URL, schema });
  try {
    return await fn(db, prefix);
  } finally {
    await db.close();
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await c.end();
    const r = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
    r.disconnect();
  }
}

export async function servicesUp(): Promise<string | null> {
  const c = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
  } catch {
    return `PostgreSQL unreachable at ${DATABASE_URL}`;
  } finally {
    await c.end().catch(() => {});
  }
  const r = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    await r.ping();
  } catch {
    return `Redis unreachable at ${REDIS_URL}`;
  } finally {
    r.disconnect();
  }
  return null;
}
