/**
 * /api/health latency while CPU-heavy work runs: p50/p99/max of GET /api/health over HTTP, one request at a time
 * every 10 ms, measured from this process against a server in a child process (`node --import tsx` on this file with
 * PAIFLOW_HEALTH_BENCH_SERVE=1: the app from getApp() on a fresh embedded database, served by the real route
 * handlers through lib/http/node-bridge.mjs). Scenarios:
 *   idle — nothing else runs;
 *   regex bomb — four runs of a condition `(.*a){100}` on 400 kB (within the pattern limits, about 2 s to match:
 *     each ends with REGEX_TIMEOUT after REGEX_TIMEOUT_MS, 1 s);
 *   PDF bomb — ten 1 MB PDFs that inflate to 1 GB each (each fails with DOCUMENT_INFLATED_TOO_LARGE);
 *   10,000 chunks — one text upload that makes 10,000 chunks, parsed, chunked and embedded (offline model) until it
 *     is indexed;
 *   big template — three runs of a template that renders 9.5 M characters from a 1.9 MB input (inside the body
 *     limit): what the run record keeps of it must stay small (NODE_OUTPUT_MAX_BYTES), the rest goes to artifacts.
 * A warm-up run, PDF and text go first (module loading and thread starts are not what is measured).
 * Goal: p99 < 50 ms in every scenario (for the big template the issue asked < 100 ms). Also reported: how each
 * scenario ended, how long it took, the server's peak RSS (VmHWM). Env: BENCH_HEALTH_CHUNKS (default 10000),
 * BENCH_HEALTH_ONLY (only the scenarios whose names contain one of its comma-separated parts, e.g. "idle,big").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makePdfBomb } from '../test/security/support/make-pdf-bomb';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export interface HealthRow {
  scenario: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  scenarioS: number;
  outcome: string;
  serverPeakRssMb: number;
}

// ── the server (child process) ─────────────────────────────────────────────────────────────────────────────────

async function serve() {
  const { getApp } = await import('../lib/server/app');
  const { ownerToken } = await import('../test/support/owner');
  const { matchPath, serveWithHandler } = await import('../lib/http/node-bridge.mjs');
  const routes: Array<[string, Record<string, unknown>]> = [
    ['/api/health', await import('../app/api/health/route')],
    ['/api/workflows', await import('../app/api/workflows/route')],
    ['/api/workflows/:id/runs', await import('../app/api/workflows/[id]/runs/route')],
    ['/api/runs/:runId', await import('../app/api/runs/[runId]/route')],
    ['/api/runs/:runId/events', await import('../app/api/runs/[runId]/events/route')],
    ['/api/knowledge-bases', await import('../app/api/knowledge-bases/route')],
    ['/api/knowledge-bases/:id/documents', await import('../app/api/knowledge-bases/[id]/documents/route')],
    [
      '/api/knowledge-bases/:id/documents/:docId',
      await import('../app/api/knowledge-bases/[id]/documents/[docId]/route'),
    ],
  ];
  const app = await getApp();
  const token = await ownerToken(app);
  const server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    for (const [pattern, mod] of routes) {
      const params = matchPath(pattern, pathname);
      const handler = params && mod[req.method ?? 'GET'];
      if (handler) return void serveWithHandler(handler as never, params, req, res);
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    console.log(`READY ${port} ${token}`);
  });
  process.on('SIGTERM', () => {
    server.close();
    void app.close().finally(() => process.exit(0));
  });
}

if (process.env.PAIFLOW_HEALTH_BENCH_SERVE === '1') void serve();

// ── the measuring side ─────────────────────────────────────────────────────────────────────────────────────────

async function startServer(dataDir: string): Promise<{ base: string; token: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir>: the server writes a CPU profile there when it stops (to see what held the event loop).
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--import',
      'tsx',
      path.join(ROOT, 'bench', 'health-under-cpu-load.bench.ts'),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PAIFLOW_HEALTH_BENCH_SERVE: '1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        ELASTICSEARCH_URL: '',
        OPENAI_API_KEY: '',
        SEED_EXAMPLE: '0',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\d+) (\S+)/.exec(out);
      if (m) resolve({ base: `http://127.0.0.1:${m[1]}`, token: m[2], child });
    });
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code}): ${out}`)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** GET /api/health one at a time until `done` resolves; latencies in ms. */
async function sampleHealth(base: string, done: Promise<unknown>) {
  let finished = false;
  void done.finally(() => (finished = true));
  const lat: number[] = [];
  let errors = 0;
  while (!finished) {
    const t0 = performance.now();
    const r = await fetch(`${base}/api/health`).catch(() => null);
    await r?.arrayBuffer();
    lat.push(performance.now() - t0);
    if (!r?.ok) errors++;
    await sleep(10);
  }
  lat.sort((a, b) => a - b);
  const at = (q: number) => Math.round(lat[Math.min(lat.length - 1, Math.ceil(q * lat.length) - 1)] * 10) / 10;
  return { samples: lat.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), errors };
}

function client(base: string, token: string) {
  const auth = { authorization: `Bearer ${token}` };
  const json = async (method: string, url: string, body?: unknown) => {
    const r = await fetch(`${base}${url}`, {
      method,
      headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const b = (await r.json().catch(() => ({}))) as any;
    if (r.status >= 400) throw new Error(`${method} ${url} → ${r.status} ${JSON.stringify(b).slice(0, 300)}`);
    return b;
  };
  return {
    json,
    async upload(kbId: string, name: string, bytes: Uint8Array) {
      const form = new FormData();
      form.set('file', new File([bytes as BlobPart], name, { type: 'application/pdf' }));
      const r = await fetch(`${base}/api/knowledge-bases/${kbId}/documents`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      if (r.status !== 202) throw new Error(`upload → ${r.status} ${await r.text()}`);
      return ((await r.json()) as { id: string }).id;
    },
    /**
     * Waits for the run's end on its event stream (closed after the terminal event), as the editor does, then reads
     * it once: polling GET /api/runs/:id would measure the cost of serialising its 1.5 MB input over and over.
     */
    async runEnd(runId: string) {
      await (await fetch(`${base}/api/runs/${runId}/events`, { headers: auth })).text();
      return json('GET', `/api/runs/${runId}`);
    },
    async docEnd(kbId: string, docId: string) {
      for (;;) {
        const d = await json('GET', `/api/knowledge-bases/${kbId}/documents/${docId}`);
        if (d.status === 'indexed' || d.status === 'failed') return d;
        await sleep(200);
      }
    },
  };
}

const BOMB_GRAPH = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'text', type: 'string', required: true }] } },
    },
    {
      id: 'c',
      type: 'condition',
      position: { x: 200, y: 0 },
      data: {
        config: {
          branches: [{ id: 'hit', conditions: [{ left: '{{inputs.text}}', op: 'regex', right: '(.*a){100}' }] }],
        },
      },
    },
    { id: 'yes', type: 'template', position: { x: 400, y: 0 }, data: { config: { template: 'matched' } } },
    { id: 'no', type: 'template', position: { x: 400, y: 100 }, data: { config: { template: 'no match' } } },
    { id: 'end', type: 'end', position: { x: 600, y: 0 }, data: { config: { outputs: [] } } },
  ],
  edges: [
    { id: 'e0', source: 'start', target: 'c' },
    { id: 'e1', source: 'c', sourceHandle: 'hit', target: 'yes' },
    { id: 'e2', source: 'c', sourceHandle: 'else', target: 'no' },
    { id: 'e3', source: 'yes', target: 'end' },
    { id: 'e4', source: 'no', target: 'end' },
  ],
};

/** Start (`big`) → a template that repeats it five times → End (the text). */
const BIG_TEMPLATE_GRAPH = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'big', type: 'string', required: true }] } },
    },
    {
      id: 't',
      type: 'template',
      position: { x: 200, y: 0 },
      data: { config: { template: '{{inputs.big}}{{inputs.big}}{{inputs.big}}{{inputs.big}}{{inputs.big}}' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 400, y: 0 },
      data: { config: { outputs: [{ name: 'text', value: '{{t.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e0', source: 'start', target: 't' },
    { id: 'e1', source: 't', target: 'end' },
  ],
};

const tally = (codes: string[]) =>
  Object.entries(codes.reduce<Record<string, number>>((m, c) => ((m[c] = (m[c] ?? 0) + 1), m), {}))
    .map(([c, n]) => `${n}× ${c}`)
    .join(', ');

export async function runHealthUnderCpuLoadBench(): Promise<HealthRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paiflow-health-bench-'));
  const { base, token, child } = await startServer(dataDir);
  const api = client(base, token);
  const rows: HealthRow[] = [];
  const measure = async (scenario: string, work: () => Promise<string>) => {
    const only = process.env.BENCH_HEALTH_ONLY?.split(',').filter(Boolean);
    if (only?.length && !only.some((part) => scenario.includes(part))) return;
    const t0 = performance.now();
    const done = work();
    const health = await sampleHealth(base, done);
    const outcome = await done;
    const scenarioS = Math.round((performance.now() - t0) / 100) / 10;
    rows.push({ scenario, ...health, scenarioS, outcome, serverPeakRssMb: peakRssMb(child.pid!) });
    console.log(`[bench] ${scenario}: p50 ${health.p50Ms} ms, p99 ${health.p99Ms} ms, max ${health.maxMs} ms`);
  };
  try {
    const wf = await api.json('POST', '/api/workflows', { name: 'regex bomb', graph: BOMB_GRAPH });
    const kb = await api.json('POST', '/api/knowledge-bases', { name: 'Bombs' });
    // Warm-up, not measured: the server loads its modules on first use (tsx compiles them then), and each pool starts
    // its thread (and the embed thread its model) on its first task.
    await api.runEnd(
      (await api.json('POST', `/api/workflows/${wf.id}/runs`, { inputs: { text: 'ab'.repeat(30_000) } })).runId,
    );
    await api.docEnd(kb.id, await api.upload(kb.id, 'small.pdf', makePdfBomb({ inflatedBytes: 1024 * 1024 })));
    const warm = await api.json('POST', `/api/knowledge-bases/${kb.id}/documents`, { title: 'Warm', text: 'Warm up.' });
    await api.docEnd(kb.id, warm.id);

    await measure('idle (3 s)', () => sleep(3000).then(() => '-'));

    await measure('regex bomb: 4 runs of (.*a){100} on 400 kB', async () => {
      const text = 'ab'.repeat(200_000);
      const ids = await Promise.all(
        [1, 2, 3, 4].map(
          async () => (await api.json('POST', `/api/workflows/${wf.id}/runs`, { inputs: { text } })).runId,
        ),
      );
      const runs = await Promise.all(ids.map((id) => api.runEnd(id)));
      return tally(runs.map((r) => r.nodes.find((n: any) => n.nodeId === 'c')?.error?.code ?? r.status));
    });

    const bomb = makePdfBomb({ inflatedBytes: 1024 * 1024 * 1024 });
    await measure('PDF bomb: 10 uploads, 1 MB → 1 GB each', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await api.upload(kb.id, `bomb-${i}.pdf`, bomb));
      const docs = await Promise.all(ids.map((id) => api.docEnd(kb.id, id)));
      return tally(docs.map((d) => d.error?.code ?? d.status));
    });

    const n = Number(process.env.BENCH_HEALTH_CHUNKS || 10_000);
    const big = await api.json('POST', '/api/knowledge-bases', { name: 'Big', chunkSize: 100, chunkOverlap: 0 });
    // Paragraphs of 60–100 characters with blank lines between them: one chunk each at chunk size 100.
    const text = Array.from(
      { length: n },
      (_, i) => `Item ${i}: the warehouse in zone ${i % 40} ships order ${i * 7} on day ${i % 28}.`,
    ).join('\n\n');
    await measure(`${n} chunks: one upload parsed, chunked, embedded, indexed`, async () => {
      const doc = await api.json('POST', `/api/knowledge-bases/${big.id}/documents`, { title: 'Shipping log', text });
      const d = await api.docEnd(big.id, doc.id);
      return d.status === 'indexed' ? `indexed, ${d.chunkCount} chunks` : `${d.status} ${d.error?.code}`;
    });

    const render = await api.json('POST', '/api/workflows', { name: 'big template', graph: BIG_TEMPLATE_GRAPH });
    // Warm-up: the first big output loads the artifact code and grows the heap; that is not what is measured.
    const first = await api.json('POST', `/api/workflows/${render.id}/runs`, {
      inputs: { big: 'w'.repeat(1_900_000) },
    });
    await api.runEnd(first.runId);
    await measure('big template: 3 runs rendering 9.5 M characters each', async () => {
      const outcomes: string[] = [];
      for (let i = 0; i < 3; i++) {
        const input = { big: String(i).repeat(1_900_000) };
        const { runId } = await api.json('POST', `/api/workflows/${render.id}/runs`, { inputs: input });
        const run = await api.runEnd(runId);
        outcomes.push(`${run.status}, record ${Math.round(JSON.stringify(run).length / 1024)} kB`);
      }
      return outcomes.join('; ');
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
