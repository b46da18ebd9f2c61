/**
 * Guarantee: the engine no longer reads the settings itself (test/architecture/the-engine-is-given-its-settings-and-
 * never-reads-them.test.ts), yet every variable it used to read still takes effect, because the composition root hands
 * it down. Shown on an app built by createApp() from the environment: NODE_TIMEOUT_MS times out a node without its own
 * timeout, DAG_CONCURRENCY=1 runs independent branches one at a time, NODE_OUTPUT_MAX_BYTES moves a larger output
 * into an artifact, LOOP_MAX_ITERATIONS stops a cycle, TEMPLATE_MAX_OUTPUT_CHARS fails a template, the CPU limits
 * (REGEX_MAX_REPEAT here) apply; KNOWLEDGE_ES_CJK_ANALYZER and KNOWLEDGE_EXACT_KNN_LIMIT reach the knowledge stores;
 * and the store-opening variables (DB_THREAD_SPIN_MS, DATABASE_POOL_SIZE, PG_WRITE_THREAD, PAIFLOW_MIGRATIONS_DIR,
 * SNAPSHOT_SYNC_COMMIT) are what the app opens its stores with. Built without them, each piece has the defaults.
 */
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '@/engine/config/settings';
import { cpuLimits } from '@/engine/cpu/limits';
import type { Graph } from '@/engine/graph/schema';
import { defineNode } from '@/engine/node-kit/define';
import { checkRegexForSave } from '@/engine/nodes/shared/regex';
import { defaultRunLimits } from '@/engine/runtime/run-limits';
import type { RunRecord } from '@/engine/store/types';
import { createApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import type { AppConfig } from '@/lib/server/config';
import { engineSettingsOf } from '@/lib/server/engine-settings';
import { createKnowledgeStore, type KnowledgeSettings } from '@/lib/server/knowledge/create-knowledge';
import { seedDataDir } from '../support/pglite-template';

const ENV = {
  NODE_TIMEOUT_MS: '300',
  DAG_CONCURRENCY: '1',
  NODE_OUTPUT_MAX_BYTES: '2000',
  LOOP_MAX_ITERATIONS: '3',
  TEMPLATE_MAX_OUTPUT_CHARS: '1000',
  REGEX_MAX_REPEAT: '5',
};
const saved = new Map<string, string | undefined>();
let app: App;

/** Counts how many of its executions overlap; sleeps `ms`, or waits to be aborted with `hang`. */
let inFlight = 0;
let mostInFlight = 0;
const busyNode = defineNode<{ ms?: number; hang?: boolean; bytes?: number }>({
  type: 'settings_probe',
  version: 1,
  label: 'Settings probe (test)',
  category: 'data',
  description: 'test node',
  configSchema: z.object({ ms: z.number().optional(), hang: z.boolean().optional(), bytes: z.number().optional() }),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute(ctx) {
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    try {
      await new Promise<void>((resolve, reject) => {
        if (!ctx.config.hang) setTimeout(resolve, ctx.config.ms ?? 0);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      });
    } finally {
      inFlight--;
    }
    return { output: { text: 'x'.repeat(ctx.config.bytes ?? 1) } };
  },
});

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paiflow-engine-settings-'));
  seedDataDir(dataDir);
  const env = { ...ENV, DATA_DIR: dataDir, SEED_EXAMPLE: '0', DATABASE_URL: undefined, REDIS_URL: undefined };
  for (const [k, v] of Object.entries(env)) {
    saved.set(k, process.env[k]);
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  app = await createApp();
  app.registry.register(busyNode);
});

afterAll(async () => {
  await app?.close();
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const node = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const edge = (source: string, target: string): Graph['edges'][number] => ({
  id: `${source}-${target}`,
  source,
  target,
});

let n = 0;
async function run(graph: Graph, engine: 'dag' | 'langgraph' = 'dag'): Promise<RunRecord> {
  const wf = await app.store.createWorkflow({
    id: `wf_settings_${n++}`,
    name: 'settings',
    description: '',
    graph,
    engine,
  });
  const { run } = await app.runs.start({ workflow: wf, inputs: {} });
  await app.runs.waitFor(run.id);
  return (await app.store.getRun(run.id))!;
}

describe('an app built from the environment', () => {
  it('NODE_TIMEOUT_MS: a node without its own timeout fails after it', async () => {
    const done = await run({
      nodes: [node('start', 'start'), node('slow', 'settings_probe', { hang: true }), node('end', 'end')],
      edges: [edge('start', 'slow'), edge('slow', 'end')],
    });
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'NODE_TIMEOUT', message: expect.stringContaining('after 300 ms') });
  });

  it('DAG_CONCURRENCY=1: independent branches run one at a time', async () => {
    mostInFlight = 0;
    const done = await run({
      nodes: [
        node('start', 'start'),
        ...['a', 'b', 'c'].map((id) => node(id, 'settings_probe', { ms: 30 })),
        node('end', 'end'),
      ],
      edges: ['a', 'b', 'c'].flatMap((id) => [edge('start', id), edge(id, 'end')]),
    });
    expect(done.status).toBe('succeeded');
    expect(mostInFlight).toBe(1);
  });

  it('NODE_OUTPUT_MAX_BYTES: a larger output is kept as an artifact in the run record', async () => {
    const done = await run({
      nodes: [node('start', 'start'), node('big', 'settings_probe', { bytes: 5000 }), node('end', 'end')],
      edges: [edge('start', 'big'), edge('big', 'end')],
    });
    expect(done.status).toBe('succeeded');
    const big = (await app.store.getNodeRuns(done.id)).find((r) => r.nodeId === 'big')!;
    expect(big.output).toMatchObject({ text: { offloaded: 'text', chars: 5000 } });
  });

  it('LOOP_MAX_ITERATIONS: a cycle without its own limit stops at it', async () => {
    const done = await run(
      {
        nodes: [node('start', 'start'), node('a', 'settings_probe'), node('b', 'settings_probe'), node('end', 'end')],
        edges: [edge('start', 'a'), edge('a', 'b'), edge('b', 'a'), edge('b', 'end')],
      },
      'langgraph',
    );
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'LOOP_LIMIT', message: expect.stringMatching(/limit is 3\b/) });
  });

  it('TEMPLATE_MAX_OUTPUT_CHARS: a template rendering past it fails', async () => {
    const done = await run({
      nodes: [
        node('start', 'start'),
        node('text', 'settings_probe', { bytes: 600 }),
        node('t', 'template', { template: '{{text.output.text}} {{text.output.text}}' }),
        node('end', 'end'),
      ],
      edges: [edge('start', 'text'), edge('text', 't'), edge('t', 'end')],
    });
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'TEMPLATE_OUTPUT_TOO_LARGE',
      message: expect.stringContaining('more than 1000 characters'),
    });
  });

  it('the CPU limits: REGEX_MAX_REPEAT refuses a pattern over it', () => {
    expect(() => checkRegexForSave('a{6}')).toThrow(/the limit is 5 \(REGEX_MAX_REPEAT\)/);
    expect(() => checkRegexForSave('a{5}')).not.toThrow();
  });
});

describe('what the app hands down', () => {
  it('opens its stores with the store variables, and runs under the run variables', () => {
    const s = parseSettings({
      DB_THREAD_SPIN_MS: '0',
      DB_EMBEDDED_BUFFERS_MB: '16',
      DATABASE_POOL_SIZE: '3',
      PG_WRITE_THREAD: '0',
      PAIFLOW_MIGRATIONS_DIR: '/srv/migrations',
      SNAPSHOT_SYNC_COMMIT: '1',
      ...ENV,
    });
    const given = engineSettingsOf(s);
    expect(given.stores).toEqual({
      threadSpinMs: 0,
      embeddedBuffersMb: 16,
      poolSize: 3,
      writeThread: false,
      migrationsDir: '/srv/migrations',
      syncSnapshotCommits: true,
    });
    expect(given.runs).toEqual({
      dagConcurrency: 1,
      nodeTimeoutMs: 300,
      nodeOutputMaxBytes: 2000,
      templateMaxOutputChars: 1000,
    });
    expect(given.loopMaxIterations).toBe(3);
    expect(given.cpuLimits()).toEqual(cpuLimits(s));
    // Unset, each is the variable's default: what a piece built without them uses.
    expect(engineSettingsOf(parseSettings({})).runs).toEqual(defaultRunLimits());
  });

  it('gives the knowledge stores KNOWLEDGE_EXACT_KNN_LIMIT and KNOWLEDGE_ES_CJK_ANALYZER', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'paiflow-engine-settings-kb-'));
    const s = parseSettings({ KNOWLEDGE_EXACT_KNN_LIMIT: '7', KNOWLEDGE_ES_CJK_ANALYZER: 'smartcn' });
    const embedded = await createKnowledgeStore({ dataDir } as AppConfig, s);
    expect(embedded).toMatchObject({ exactKnnLimit: 7 });
    await embedded.close?.();

    // An Elasticsearch whose one node lacks the smartcn plugin: the store given the setting refuses to start.
    const server = http.createServer((req, res) => {
      res.setHeader('x-elastic-product', 'Elasticsearch');
      res.setHeader('content-type', 'application/json');
      const url = (req.url ?? '/').split('?')[0];
      if (url === '/') res.end(JSON.stringify({ name: 'n1', version: { number: '9.1.5' } }));
      else if (url.startsWith('/_nodes')) res.end(JSON.stringify({ nodes: { n1: { name: 'es-1', plugins: [] } } }));
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const elasticsearchUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await expect(
        createKnowledgeStore({ dataDir, elasticsearchUrl } as AppConfig, s as KnowledgeSettings),
      ).rejects.toMatchObject({
        code: 'KNOWLEDGE_ANALYZER_UNAVAILABLE',
        message: expect.stringContaining('KNOWLEDGE_ES_CJK_ANALYZER=smartcn needs the analysis-smartcn plugin'),
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
