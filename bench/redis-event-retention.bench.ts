/**
 * Redis memory of the event bus per 10,000 runs, while their streams are retained and after the retention window
 * (EVENTS_RETENTION_S). Two parts, both on Redis (BENCH_REDIS_URL / TEST_REDIS_URL, default 127.0.0.1:6379) under a
 * private key prefix that is deleted afterwards:
 * 1. a sample of real runs (the app on a temporary embedded database, a 3-node start → template → end workflow):
 *    events and Redis bytes per run, extrapolated to 10,000, and whether every stream carries a TTL;
 * 2. 10,000 runs through RedisEventBus itself, each publishing the events one real run published (same payloads,
 *    new run ids) and released, with a short retention: memory right after, and once the retention has passed.
 * Bytes are `MEMORY USAGE <key> SAMPLES 0` summed over the prefix's keys; `used_memory` deltas are instance-wide
 * (other clients of a shared Redis add noise). Returns rows for bench/run-all.ts; `npx tsx
 * bench/redis-event-retention.bench.ts` runs it alone. BENCH_RETENTION_SAMPLE (1000) and BENCH_RETENTION_RUNS
 * (10000) scale it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { RedisEventBus } from '../engine/events/redis-bus';
import type { TraceEvent } from '../engine/events/types';
import type { Graph } from '../engine/graph/schema';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SAMPLE = Number(process.env.BENCH_RETENTION_SAMPLE ?? 1000);
const RUNS = Number(process.env.BENCH_RETENTION_RUNS ?? 10_000);
/** Short, so the bench sees the window pass; long enough that publishing all runs fits well inside it. */
const BENCH_RETENTION_S = 15;
const PER = 10_000;

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(2);

const graph: Graph = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [{ name: 'message' }] } } },
    {
      id: 't1',
      type: 'template',
      position: { x: 200, y: 0 },
      data: { label: 'Greeting', config: { template: 'Hello {{inputs.message}}', format: 'text' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 400, y: 0 },
      data: { config: { outputs: [{ name: 'text', value: '{{t1.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 't1' },
    { id: 'e2', source: 't1', target: 'end' },
  ],
} as Graph;

async function prefixKeys(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Keys, summed MEMORY USAGE and keys without a TTL under the prefix. */
async function footprint(redis: Redis, prefix: string) {
  const keys = await prefixKeys(redis, prefix);
  let bytes = 0;
  let noTtl = 0;
  for (let i = 0; i < keys.length; i += 500) {
    const p = redis.pipeline();
    for (const k of keys.slice(i, i + 500)) p.memory('USAGE', k, 'SAMPLES', 0).pttl(k);
    const res = (await p.exec()) ?? [];
    for (let j = 0; j < res.length; j += 2) {
      bytes += Number(res[j][1] ?? 0);
      if (Number(res[j + 1][1]) === -1) noTtl++;
    }
  }
  return { keys: keys.length, bytes, noTtl };
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

/** Part 1: real runs through the app; returns their stored events (the template for part 2) and a row. */
async function realRuns(redis: Redis) {
  const prefix = `paiflow-bench-retention-${randomUUID().slice(0, 8)}:`;
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-bench-retention-'));
  Object.assign(process.env, {
    DATA_DIR: dir,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    EVENTS_RETENTION_S: '600', // the sample is measured while retained; part 2 shows the window passing
    SEED_EXAMPLE: '0',
  });
  delete process.env.DATABASE_URL;
  delete process.env.QUEUE_MODE;
  delete process.env.WORKERS;
  const { createApp } = await import('../lib/server/app');
  const { readConfig } = await import('../lib/server/config');
  const app = await createApp(readConfig());
  try {
    const wf = await app.store.createWorkflow({
      id: `wf_bench_${randomUUID().slice(0, 8)}`,
      name: 'retention bench',
      description: '',
      graph,
      engine: 'auto',
    });
    const t0 = Date.now();
    let template: TraceEvent[] = [];
    let succeeded = 0;
    for (let i = 0; i < SAMPLE; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, SAMPLE - i) }, () =>
          app.runs.start({ workflow: wf, inputs: { message: `bench ${i}` } }),
        ),
      );
      for (const { run } of batch) {
        await app.runs.waitFor(run.id);
        if ((await app.store.getRun(run.id))?.status === 'succeeded') succeeded++;
      }
      if (!template.length) template = await app.store.getEvents(batch[0].run.id);
    }
    const seconds = (Date.now() - t0) / 1000;
    const f = await footprint(redis, prefix);
    const perRun = f.bytes / Math.max(1, f.keys);
    return {
      template,
      perRun,
      row: {
        part: `real runs (sample of ${SAMPLE}, ${succeeded} succeeded, 3-node workflow, ${seconds.toFixed(1)} s)`,
        'events per run': template.length,
        'event JSON bytes per run': template.reduce((n, e) => n + JSON.stringify(e).length, 0),
        'streams in Redis': f.keys,
        'streams without TTL': f.noTtl,
        'bytes per run': Math.round(perRun),
        'MB per 10,000 runs': `${mb(perRun * PER)} (extrapolated)`,
      },
    };
  } finally {
    await app.close();
    const keys = await prefixKeys(redis, prefix);
    if (keys.length) await redis.del(...keys);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Part 2: RUNS runs' worth of real events through the bus, released, then the retention window passing. */
async function busRuns(redis: Redis, template: TraceEvent[]) {
  const prefix = `paiflow-bench-retention-${randomUUID().slice(0, 8)}:`;
  const bus = new RedisEventBus(REDIS_URL, { prefix, ttlSeconds: BENCH_RETENTION_S });
  const rows: Record<string, unknown>[] = [];
  try {
    const before = await usedMemory(redis);
    const t0 = Date.now();
    for (let i = 0; i < RUNS; i++) {
      const runId = `run_${randomUUID().replace(/-/g, '')}`;
      for (const e of template) bus.publish({ ...e, runId });
      bus.release(runId);
      if (i % 500 === 499) await redis.ping(); // let the auto-pipeline drain now and then
    }
    // Everything published is on the server once a command sent after it on the publisher's connection answers.
    await until(async () => (await prefixKeys(redis, prefix)).length >= RUNS, 30_000);
    const published = (Date.now() - t0) / 1000;
    const retained = await footprint(redis, prefix);
    const retainedUsed = (await usedMemory(redis)) - before;
    const scale = PER / RUNS;
    rows.push({
      part: `${RUNS} runs via RedisEventBus, retained (published in ${published.toFixed(1)} s)`,
      'events per run': template.length,
      'streams in Redis': retained.keys,
      'streams without TTL': retained.noTtl,
      'bytes per run': Math.round(retained.bytes / Math.max(1, retained.keys)),
      'MB per 10,000 runs': mb(retained.bytes * scale),
      'used_memory delta MB (instance)': mb(retainedUsed * scale),
    });
    const t1 = Date.now();
    await until(async () => (await prefixKeys(redis, prefix)).length === 0, (BENCH_RETENTION_S + 60) * 1000);
    const after = await footprint(redis, prefix);
    rows.push({
      part:
        `same, after the retention window (${BENCH_RETENTION_S} s; ` +
        `all gone ${((Date.now() - t1) / 1000).toFixed(1)} s after the check above)`,
      'events per run': template.length,
      'streams in Redis': after.keys,
      'streams without TTL': after.noTtl,
      'bytes per run': 0,
      'MB per 10,000 runs': mb(after.bytes * scale),
      'used_memory delta MB (instance)': mb(((await usedMemory(redis)) - before) * scale),
    });
    return { rows, perRun: retained.bytes / Math.max(1, retained.keys) };
  } finally {
    await bus.close();
    const keys = await prefixKeys(redis, prefix);
    if (keys.length) await redis.del(...keys);
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench: condition not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function runRedisEventRetentionBench(): Promise<unknown[]> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const real = await realRuns(redis);
    const bus = await busRuns(redis, real.template);
    // What sustained load holds in Redis: runs/s × retention × bytes per run.
    const steady = (retention: number) => `${mb(100 * retention * bus.perRun)} MB`;
    return [
      real.row,
      ...bus.rows,
      {
        part: 'steady state at 100 runs/s (computed: rate × retention × bytes per run)',
        'MB per 10,000 runs': `old 3600 s TTL: ${steady(3600)}; EVENTS_RETENTION_S=300: ${steady(300)}`,
      },
    ];
  } finally {
    redis.disconnect();
  }
}

if (process.argv[1] && /redis-event-retention\.bench\.ts$/.test(process.argv[1])) {
  console.log('== Redis memory of the event bus per 10,000 runs, retained and after EVENTS_RETENTION_S ==');
  runRedisEventRetentionBench().then(
    (rows) => {
      console.table(rows);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
