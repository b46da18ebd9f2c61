// Guarantees: unset (or empty) variables give the defaults the code had before the settings were gathered in one
// module, written out here independently of engine/config/variables.ts; the spellings it accepted still mean what
// they meant; and settings() follows the environment of the process (tests change it between cases).
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings, parseSettings, settings, VARIABLES } from '@/engine/config/settings';
import { cpuLimits } from '@/engine/cpu/limits';
import { readQueueConfig } from '@/engine/queue/config';
import { readConfig } from '@/lib/server/config';

const TODAY = {
  DATA_DIR: './data',
  DB_THREAD_SPIN_MS: 1,
  PG_WRITE_THREAD: true,
  DATABASE_URL: undefined,
  DATABASE_SCHEMA: undefined,
  DATABASE_POOL_SIZE: 10,
  SNAPSHOT_SYNC_COMMIT: false,
  OPENAI_API_KEY: undefined,
  OPENAI_BASE_URL: undefined,
  REDIS_PREFIX: 'paiflow:',
  EVENTS_RETENTION_S: 300,
  EMBEDDING_MODEL: undefined,
  KNOWLEDGE_FUSION: 'weighted',
  KNOWLEDGE_EXACT_KNN_LIMIT: 20_000,
  KNOWLEDGE_MAX_UPLOAD_BYTES: 20 * 1024 * 1024,
  MCP_SERVERS: undefined,
  MEMORY_EMBEDDING_MODEL: 'use-lite',
  RATE_LIMIT_PER_MIN: 600,
  API_KEY_MAX_FAILURES: 20,
  API_KEY_FAILURE_WINDOW_S: 900,
  MAX_CONCURRENT_RUNS_PER_WORKFLOW: 50,
  SYNC_TIMEOUT_MS: 30_000,
  CORS_ORIGINS: '*',
  LOOP_MAX_ITERATIONS: 25,
  NODE_TIMEOUT_MS: 600_000,
  DAG_CONCURRENCY: 8,
  PAIFLOW_CLIENT_IP_TAG: undefined,
  TRUST_PROXY: false,
  COOKIE_SECURE: false,
  PUBLIC_URL: [],
  PAIFLOW_EXTRA_NODES: [],
  PORT: 3000,
  HOSTNAME: 'localhost',
};

const APP_CONFIG = {
  dataDir: './data',
  seedExample: true,
  autoResumeInterrupted: false,
  maxBodyBytes: 2 * 1024 * 1024,
  sessionIdleSeconds: 86_400,
  sessionMaxAgeSeconds: 14 * 86_400,
  owner: undefined,
};

const QUEUE = {
  enabled: false,
  workers: 0,
  prefix: 'paiflow:',
  queueName: 'runs',
  workerConcurrency: 20,
  globalConcurrency: 0,
  workflowConcurrency: 0,
  lockMs: 30_000,
  maxStalled: 2,
  heartbeatMs: 1_000,
  staleMs: 20_000,
  reaperMs: 15_000,
  enqueueTimeoutMs: 5_000,
  shutdownGraceMs: 10_000,
};

const CPU = {
  regexMaxPatternLength: 1000,
  regexMaxRepeat: 100,
  regexMaxProgramSize: 2000,
  regexTimeoutMs: 1000,
  templateMaxOutputChars: 10_000_000,
  documentMaxChars: 5_000_000,
  documentMaxInflatedBytes: 128 * 1024 * 1024,
  documentMaxPages: 2000,
  documentMaxChunks: 20_000,
  documentParseTimeoutMs: 120_000,
  documentWorkerMemoryMb: 512,
  embedBatchTimeoutMs: 60_000,
  uploadParseTimeoutMs: 20_000,
  datasetMaxColumns: 200,
  datasetMaxCellChars: 100_000,
  datasetMaxBytes: 4 * 1024 * 1024,
  importMaxYamlNodes: 100_000,
  threads: Math.max(1, availableParallelism() - 1),
  embedThreads: Math.max(1, Math.min(2, availableParallelism())),
};

const empty = Object.fromEntries(Object.keys(VARIABLES).map((k) => [k, '']));

describe('unset variables', () => {
  it.each([
    ['unset', {}],
    ['empty', empty],
  ])('%s: the defaults of before', (_what, env) => {
    const s = parseSettings(env);
    expect(s).toMatchObject(TODAY);
    expect(readConfig(env)).toEqual(APP_CONFIG);
    expect(readQueueConfig(s)).toEqual(QUEUE);
    expect(cpuLimits(s)).toEqual(CPU);
  });

  it('RUN_STALE_MS follows WORKER_HEARTBEAT_MS when unset', () => {
    expect(readQueueConfig(parseSettings({ WORKER_HEARTBEAT_MS: '8000' })).staleMs).toBe(32_000);
  });
});

describe('the spellings accepted before', () => {
  it.each([
    ['SEED_EXAMPLE', { '0': false, false: true, no: true }],
    ['AUTO_RESUME_INTERRUPTED', { '1': true, true: false, yes: false }],
    ['SNAPSHOT_SYNC_COMMIT', { '1': true, TRUE: true, on: true, yes: false }],
    ['PG_WRITE_THREAD', { '0': false, off: true }],
    ['TRUST_PROXY', { '1': true, true: false }],
    ['QUEUE_MODE', { '1': true, on: false }],
  ] as const)('%s', (name, meanings) => {
    for (const [raw, value] of Object.entries(meanings))
      expect(parseSettings({ [name]: raw })[name], `${name}=${raw}`).toBe(value);
  });

  it('numbers as Number() reads them; the other shapes as before', () => {
    expect(parseSettings({ NODE_TIMEOUT_MS: ' 1e3 ', WORKERS: '0x2', DAG_CONCURRENCY: '0' })).toMatchObject({
      NODE_TIMEOUT_MS: 1000,
      WORKERS: 2,
      DAG_CONCURRENCY: 0, // the DAG engine counts it as 1, as it did
    });
    expect(parseSettings({ KNOWLEDGE_FUSION: ' RRF ' }).KNOWLEDGE_FUSION).toBe('rrf');
    expect(parseSettings({ CORS_ORIGINS: 'https://a.example/, https://b.example' }).CORS_ORIGINS).toEqual(
      new Set(['https://a.example', 'https://b.example']),
    );
    expect(parseSettings({ PUBLIC_URL: 'https://PaiFlow.example.com:443' }).PUBLIC_URL).toEqual([
      'https://paiflow.example.com',
    ]);
    expect(parseSettings({ OPENAI_API_KEY: ' sk-1 ', MEMORY_EMBEDDING_MODEL: ' ' })).toMatchObject({
      OPENAI_API_KEY: 'sk-1',
      MEMORY_EMBEDDING_MODEL: 'use-lite',
    });
    expect(parseSettings({ DATABASE_SCHEMA: 'Not-Used' }).DATABASE_SCHEMA, 'only checked with DATABASE_URL').toBe(
      'Not-Used',
    );
  });
});

describe('settings()', () => {
  afterEach(() => {
    delete process.env.DAG_CONCURRENCY;
    loadSettings();
  });

  it("is the current environment's: a changed variable is read again, a bad one refused where it is read", () => {
    process.env.DAG_CONCURRENCY = '3';
    expect(settings().DAG_CONCURRENCY).toBe(3);
    process.env.DAG_CONCURRENCY = '5';
    expect(settings().DAG_CONCURRENCY).toBe(5);
    process.env.DAG_CONCURRENCY = 'many';
    expect(() => settings().DAG_CONCURRENCY).toThrow(/DAG_CONCURRENCY="many" is not a number/);
    delete process.env.DAG_CONCURRENCY;
    expect(settings().DAG_CONCURRENCY).toBe(8);
  });
});
