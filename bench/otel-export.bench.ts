/**
 * OpenTelemetry export's cost per run: a 12-node run (start → 10 no-op nodes → end, durable snapshots on the
 * embedded store) executed with no export, with export (OTLP/HTTP JSON to a local receiver that answers at once) and
 * with export plus content (OTEL_EXPORT_CONTENT=1). The three share the store and differ only in their event bus
 * (one RunManager per bus; two buses are tapped by an exporter each).
 *
 * Method: each configuration is warmed up, then they run in blocks of BENCH_BLOCK runs (default 20) one after the
 * other, for BENCH_REPS rounds (default 15), the order rotating each round. `overhead` is the median over rounds of
 * (export block ÷ no-export block − 1) of the same round in wall time, until the block's last run ended and its
 * spans were built (what runs see). `cpuOverhead` is the same ratio in this process's CPU time, which also counts
 * a flush at the end of the block (serialising and sending the block's spans: the work a run never waits for, done
 * later on the processor's timer) — the fuller figure, and less disturbed by other load on the machine.
 * `selfOverhead` times the exporter's own work directly: the synchronous time inside its onEvent/onRunEnd (what runs
 * pay) plus this process's CPU time while the block's spans are flushed (serialising and sending), divided by the
 * no-export per-run time of the same round. Unlike the ratios of two noisy wall times, it does not swing with the
 * machine's load, so it is the figure the goal (< 5 %) is judged by.
 * Prints a table and returns rows for bench/run-all.ts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseSettings } from '../engine/config/settings';
import { InProcessEventBus } from '../engine/events/in-process-bus';
import type { Graph } from '../engine/graph/schema';
import { createLlmResolver } from '../engine/llm/resolve-provider';
import { createGuardedFetch } from '../engine/net/ssrf-guard';
import { defineNode } from '../engine/node-kit/define';
import { createDefaultRegistry } from '../engine/nodes/registry';
import { RunManager } from '../engine/runtime/run-manager';
import { openDatabase } from '../engine/store/prisma/database';
import { PrismaStore } from '../engine/store/prisma/prisma-store';
import { startTelemetry, type Telemetry } from '../lib/server/runs/telemetry';

const noop = defineNode<Record<string, never>>({
  type: 'noop',
  version: 1,
  label: 'No-op',
  category: 'data',
  description: 'bench',
  configSchema: z.object({}),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute() {
    return { output: { ok: true } };
  },
});

/** start → n1 … n10 → end: 12 nodes. */
function twelveNodes(): Graph {
  const nodes: Graph['nodes'] = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
  ];
  const edges: Graph['edges'] = [];
  let prev = 'start';
  for (let i = 1; i <= 10; i++) {
    nodes.push({ id: `n${i}`, type: 'noop', position: { x: i, y: 0 }, data: { config: {} } });
    edges.push({ id: `e${i}`, source: prev, target: `n${i}` });
    prev = `n${i}`;
  }
  nodes.push({ id: 'end', type: 'end', position: { x: 11, y: 0 }, data: { config: { outputs: [] } } });
  edges.push({ id: 'eend', source: prev, target: 'end' });
  return { nodes, edges };
}

export interface Row {
  config: string;
  nodes: number;
  msPerRun: number;
  bestMsPerRun: number;
  overhead: string;
  cpuMsPerRun: number;
  cpuOverhead: string;
  /** The exporter's own time per run (sync hooks + flush CPU), ms, and as a share of a no-export run. */
  selfMsPerRun: number | null;
  selfOverhead: string;
  spansPerRun: number;
}

/** Accumulates the time spent inside the exporter's synchronous hooks (onEvent, onRunEnd). */
function timeHooks(telemetry: Telemetry): { ms: number } {
  const acc = { ms: 0 };
  const ex = telemetry.exporter;
  for (const name of ['onEvent', 'onRunEnd'] as const) {
    const original = ex[name].bind(ex) as (arg: never) => void;
    ex[name] = ((arg: never) => {
      const t0 = performance.now();
      try {
        original(arg);
      } finally {
        acc.ms += performance.now() - t0;
      }
    }) as never;
  }
  return acc;
}

/**
 * The collector: a child process (its CPU is not this process's), answering each export at once and counting the
 * spans it received (GET /count).
 */
const RECEIVER = `
const http = require('node:http');
let spans = 0;
const server = http.createServer((req, res) => {
  if (req.method === 'GET') return res.end(String(spans));
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    for (const rs of JSON.parse(Buffer.concat(chunks).toString()).resourceSpans ?? [])
      for (const ss of rs.scopeSpans ?? []) spans += (ss.spans ?? []).length;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startReceiver() {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const url = `http://127.0.0.1:${Number(chunk.toString().trim())}`;
  return {
    url,
    spans: async () => Number(await (await fetch(`${url}/count`)).text()),
    close: () => child.kill(),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function runOtelExportBench(): Promise<Row[]> {
  const block = Number(process.env.BENCH_BLOCK ?? 20);
  const reps = Number(process.env.BENCH_REPS ?? 15);
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-otel-bench-'));
  const db = await openDatabase({ dataDir: dir });
  const receiver = await startReceiver();
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const registry = createDefaultRegistry().register(noop);
  const services = {
    llm: createLlmResolver({}),
    fetch: createGuardedFetch(),
    secrets: { get: () => undefined },
  };
  const wf = await store.createWorkflow({
    id: 'wf_otel_bench',
    name: 'otel',
    description: '',
    graph: twelveNodes(),
    engine: 'auto',
  });
  const telemetries: Telemetry[] = [];
  const configs: {
    name: string;
    runs: RunManager;
    telemetry?: Telemetry;
    hooks?: { ms: number };
    blocks: number[];
    cpu: number[];
    self: number[];
  }[] = [];
  for (const [name, env] of [
    ['no export', null],
    ['export', {}],
    ['export + content', { OTEL_EXPORT_CONTENT: '1' }],
  ] as const) {
    const bus = new InProcessEventBus(1000);
    const telemetry = env
      ? ((await startTelemetry(parseSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env }), bus)) ?? undefined)
      : undefined;
    if (telemetry) telemetries.push(telemetry);
    const runs = new RunManager({ store, workflows: store, bus, registry, services });
    configs.push({ name, runs, telemetry, hooks: telemetry && timeHooks(telemetry), blocks: [], cpu: [], self: [] });
  }
  const runBlock = async (c: (typeof configs)[number], n: number) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const hooks0 = c.hooks?.ms ?? 0;
    for (let i = 0; i < n; i++) {
      const { run } = await c.runs.start({ workflow: wf, inputs: {} });
      await c.runs.waitFor(run.id);
    }
    await new Promise((r) => setImmediate(r)); // the spans of the last run are built on this turn
    const wall = performance.now() - t0;
    const flushCpu0 = process.cpuUsage();
    await c.telemetry?.exporter.flush();
    const flushCpu = process.cpuUsage(flushCpu0);
    const cpu = process.cpuUsage(cpu0);
    const self = (c.hooks?.ms ?? 0) - hooks0 + (flushCpu.user + flushCpu.system) / 1000;
    return { wall, cpu: (cpu.user + cpu.system) / 1000, self };
  };
  try {
    for (const c of configs) await runBlock(c, 30); // warm-up: JIT, prepared statements, the SDK's first export
    const spansBefore = await receiver.spans();
    for (let r = 0; r < reps; r++) {
      for (let k = 0; k < configs.length; k++) {
        const c = configs[(r + k) % configs.length];
        const t = await runBlock(c, block);
        c.blocks.push(t.wall / block);
        c.cpu.push(t.cpu / block);
        c.self.push(t.self / block);
      }
    }
    const exportedRuns = 2 * reps * block;
    const spansPerRun = ((await receiver.spans()) - spansBefore) / exportedRuns;
    const over = (xs: number[], base: number[]) => `${(median(xs.map((x, i) => x / base[i] - 1)) * 100).toFixed(1)} %`;
    const rows = configs.map((c) => ({
      config: c.name,
      nodes: 12,
      msPerRun: Number(median(c.blocks).toFixed(2)),
      bestMsPerRun: Number(Math.min(...c.blocks).toFixed(2)),
      overhead: c.telemetry ? over(c.blocks, configs[0].blocks) : '—',
      cpuMsPerRun: Number(median(c.cpu).toFixed(2)),
      cpuOverhead: c.telemetry ? over(c.cpu, configs[0].cpu) : '—',
      selfMsPerRun: c.telemetry ? Number(median(c.self).toFixed(3)) : null,
      selfOverhead: c.telemetry
        ? `${(median(c.self.map((x, i) => x / configs[0].blocks[i])) * 100).toFixed(1)} %`
        : '—',
      spansPerRun: c.telemetry ? spansPerRun : 0,
    }));
    console.table(rows);
    return rows;
  } finally {
    for (const c of configs) await c.runs.close();
    for (const t of telemetries) await t.close();
    receiver.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('otel-export.bench.ts'))
  runOtelExportBench().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
