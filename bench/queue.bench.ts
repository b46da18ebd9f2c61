/**
 * Runs at scale: (1) time to first trace event — from RunManager.start() to the first event received through a bus
 * subscription — p50/p99 over BENCH_QUEUE_RUNS (default 200) sequential runs; (2) memory per concurrent open run —
 * 1/100/1000 runs held open on a node that waits on a promise the bench releases; heap (after GC) and RSS delta
 * divided by the number of runs. Both in-process mode (RunManager executes here, in-process bus) and queue mode
 * (RunManager dispatch → BullMQ → a worker → Redis Streams bus). In queue mode the API side and the worker run in
 * one process here, so the memory figure covers both sides of a run. PostgreSQL and Redis are required (skipped
 * otherwise). Each memory measurement runs in a fresh child process started with --expose-gc.
 *
 *   Targets: first event p99 < 50 ms locally; memory per open run < 200 KB.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TraceEvent } from '../engine/events/types';
import { TERMINAL_EVENT_TYPES } from '../engine/events/types';
import { gate, graphOf, servicesUp, setup, withDatabase, type Mode } from './queue-bench-setup';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Sequential runs: start → first event via the bus; each run is awaited to its end before the next starts. */
async function firstEventLatency(mode: Mode, runs: number) {
  return withDatabase(async (db, prefix) => {
    const s = await setup(mode, db, prefix, 20);
    try {
      const wf = await s.store.createWorkflow({
        id: `wf_bench_${Date.now()}`,
        name: 'bench',
        description: '',
        graph: graphOf('bench_noop'),
        engine: 'dag',
      });
      const startTimes: number[] = [];
      const one = async () => {
        const t0 = performance.now();
        let first = 0;
        let unsub = () => {};
        const ended = new Promise<void>((resolve) => {
          void s.api.start({ workflow: wf, inputs: {} }).then(({ run }) => {
            startTimes.push(performance.now() - t0);
            unsub = s.bus.subscribe(run.id, 0, (e: TraceEvent) => {
              if (!first) first = performance.now() - t0;
              if (TERMINAL_EVENT_TYPES.has(e.type)) resolve();
            });
          });
        });
        await ended;
        unsub();
        return first;
      };
      for (let i = 0; i < 10; i++) await one(); // warm-up
      startTimes.length = 0;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await one());
      times.sort((a, b) => a - b);
      startTimes.sort((a, b) => a - b);
      return {
        p50: +pct(times, 50).toFixed(2),
        p99: +pct(times, 99).toFixed(2),
        max: +times.at(-1)!.toFixed(2),
        startP50: +pct(startTimes, 50).toFixed(2),
      };
    } finally {
      await s.close();
    }
  });
}

/** In a child started with --expose-gc: holds `n` runs open on the gate and measures heap/RSS per open run. */
async function memoryChild(mode: Mode, n: number) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return withDatabase(async (db, prefix) => {
    const s = await setup(mode, db, prefix, Math.max(20, n));
    try {
      const wf = await s.store.createWorkflow({
        id: `wf_bench_mem_${Date.now()}`,
        name: 'bench',
        description: '',
        graph: graphOf('bench_gate'),
        engine: 'dag',
      });
      const runToEnd = async (ids: string[]) => {
        for (;;) {
          const rs = await Promise.all(ids.map((id) => s.store.getRun(id)));
          if (rs.every((r) => r && ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(r.status))) return rs;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      // Warm-up: the same path a few times, so first-use allocations are not counted.
      gate.open();
      const warm = await Promise.all(Array.from({ length: 20 }, () => s.api.start({ workflow: wf, inputs: {} })));
      await runToEnd(warm.map((w) => w.run.id));
      await new Promise((r) => setTimeout(r, 300));
      await settle();
      const base = process.memoryUsage();

      gate.close();
      gate.waiting = 0;
      const t0 = performance.now();
      const started: string[] = [];
      for (let i = 0; i < n; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(50, n - i) }, () => s.api.start({ workflow: wf, inputs: {} })),
        );
        started.push(...batch.map((b) => b.run.id));
      }
      while (gate.waiting < n) await new Promise((r) => setTimeout(r, 20));
      const openMs = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 600)); // journals flush the node.started events
      await settle();
      const held = process.memoryUsage();
      gate.open();
      const done = await runToEnd(started);
      const failed = done.filter((r) => r!.status !== 'succeeded').length;
      return {
        heapKBPerRun: +((held.heapUsed - base.heapUsed) / n / 1024).toFixed(1),
        rssKBPerRun: +((held.rss - base.rss) / n / 1024).toFixed(1),
        openMs: Math.round(openMs),
        failed,
      };
    } finally {
      await s.close();
    }
  });
}

function spawnMemoryChild(mode: Mode, n: number): Promise<Awaited<ReturnType<typeof memoryChild>>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--memory-child', mode, String(n)],
      {
        env: process.env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)));
      else reject(new Error(`memory child (${mode}, ${n}) exited ${code}: ${out.slice(-500)}`));
    });
  });
}

export interface QueueBenchRow {
  mode: Mode;
  metric: string;
  runs: number;
  p50Ms?: number;
  p99Ms?: number;
  maxMs?: number;
  /** p50 of RunManager.start() itself (record + claim, or record + enqueue): the API-side share of the latency. */
  startP50Ms?: number;
  heapKBPerRun?: number;
  rssKBPerRun?: number;
  openMs?: number;
  target: string;
  ok: boolean;
}

export async function runQueueBench(): Promise<QueueBenchRow[]> {
  const down = await servicesUp();
  if (down) {
    console.warn(`queue bench skipped: ${down}`);
    return [];
  }
  const rows: QueueBenchRow[] = [];
  const latencyRuns = Number(process.env.BENCH_QUEUE_RUNS ?? 200);
  const sizes = (process.env.BENCH_QUEUE_OPEN ?? '1,100,1000').split(',').map(Number);
  for (const mode of ['in-process', 'queue'] as const) {
    const l = await firstEventLatency(mode, latencyRuns);
    rows.push({
      mode,
      metric: 'time to first trace event',
      runs: latencyRuns,
      p50Ms: l.p50,
      p99Ms: l.p99,
      maxMs: l.max,
      startP50Ms: l.startP50,
      target: 'p99 < 50 ms',
      ok: l.p99 < 50,
    });
  }
  for (const mode of ['in-process', 'queue'] as const) {
    for (const n of sizes) {
      const m = await spawnMemoryChild(mode, n);
      if (m.failed) throw new Error(`${m.failed} of ${n} held-open runs did not succeed (${mode})`);
      // With one run the figure is dominated by noise; the target applies to 100+.
      rows.push({
        mode,
        metric: 'memory per open run',
        runs: n,
        heapKBPerRun: m.heapKBPerRun,
        rssKBPerRun: m.rssKBPerRun,
        openMs: m.openMs,
        target: '< 200 KB (heap)',
        ok: n < 100 || m.heapKBPerRun < 200,
      });
    }
  }
  return rows;
}

if (process.argv[2] === '--memory-child') {
  memoryChild(process.argv[3] as Mode, Number(process.argv[4])).then(
    (r) => {
      console.log(`RESULT ${JSON.stringify(r)}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runQueueBench().then(
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
