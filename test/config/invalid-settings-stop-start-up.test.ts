// Guarantees: a bad environment variable stops start-up — createApp() and the worker entry (scripts/worker.ts) —
// before anything is opened, with INVALID_CONFIG naming the variable, the value's problem and the form expected
// (several bad ones are all named at once; a value that may carry a secret is not repeated). The limits that always
// fell back to their default on a bad value still do, with a warning.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '@/engine/config/settings';
import { createApp } from '@/lib/server/app';

const saved = { ...process.env };
let dataDir = '';
beforeEach(() => {
  // A data folder that opening the embedded database would create: it must still be missing after a refused start.
  dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'paiflow-config-')), 'data');
  Object.assign(process.env, { DATA_DIR: dataDir, SEED_EXAMPLE: '0' });
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_MODE', 'WORKERS']) delete process.env[k];
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  loadSettings();
});

async function refusal(env: Record<string, string>) {
  Object.assign(process.env, env);
  const err = await createApp().then(
    async (app) => {
      await app.close();
      return undefined;
    },
    (e: unknown) => e as { code?: string; status?: number; message: string },
  );
  expect(err, 'createApp() refused to start').toBeDefined();
  expect(existsSync(dataDir), 'nothing was opened').toBe(false);
  return err!;
}

describe('createApp() refuses a bad value before opening anything', () => {
  it.each([
    ['a non-number', 'DAG_CONCURRENCY', 'eight', 'is not a number; expected a number'],
    ['a negative', 'SESSION_IDLE_S', '-5', 'is below 1; expected a whole number ≥ 1'],
    ['a fraction', 'EVENTS_RETENTION_S', '1.5', 'is not a whole number; expected a whole number from 1 to 2592000'],
    ['a timer that would fire at once', 'NODE_TIMEOUT_MS', '0', 'is below 1; expected a number from 1 to'],
    ['an unknown enum value', 'EMBEDDING_MODEL', 'openai', 'is not a known embedding model; expected use-lite or'],
    ['a bad URL', 'OPENAI_BASE_URL', 'ftp://llm.example/v1', 'is not an http(s) URL; expected an http:// or https://'],
    ['a bad origin list', 'PUBLIC_URL', 'https://ok.example, paiflow.example', 'entry "paiflow.example" is not a URL'],
    ['a short key', 'PAIFLOW_ENCRYPTION_KEY', 'too-short', 'is shorter than 16 characters'],
  ])('%s: %s=%j', async (_what, name, value, says) => {
    const err = await refusal({ [name]: value });
    expect(err).toMatchObject({ code: 'INVALID_CONFIG' });
    expect(err.message).toContain(name);
    expect(err.message).toContain(says);
  });

  it('names every bad variable at once, and never repeats a value that may hold a secret', async () => {
    const err = await refusal({
      WORKER_CONCURRENCY: '0',
      ELASTICSEARCH_URL: 'http//elastic:hunter2@es.internal:9200',
      PAIFLOW_ENCRYPTION_KEY: 'hunter2-short',
    });
    expect(err.code).toBe('INVALID_CONFIG');
    expect(err.message).toContain('WORKER_CONCURRENCY="0" is below 1');
    expect(err.message).toContain('ELASTICSEARCH_URL (value not shown) is not a URL');
    expect(err.message).toContain('PAIFLOW_ENCRYPTION_KEY (value not shown)');
    expect(err.message).not.toContain('hunter2');
  });

  it('checks DATABASE_SCHEMA against DATABASE_URL before connecting', async () => {
    const err = await refusal({ DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', DATABASE_SCHEMA: 'Run-1' });
    expect(err.code).toBe('INVALID_CONFIG');
    expect(err.message).toContain('DATABASE_SCHEMA="Run-1" is not a plain schema name');
  });
});

describe('lenient limits', () => {
  it('a bad value of a limit that always fell back to its default still does, with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const s = loadSettings({ REGEX_TIMEOUT_MS: 'soon', RATE_LIMIT_PER_MIN: '0', KNOWLEDGE_FUSION: 'best' });
      expect([s.REGEX_TIMEOUT_MS, s.RATE_LIMIT_PER_MIN, s.KNOWLEDGE_FUSION]).toEqual([1000, 600, 'weighted']);
      const said = warn.mock.calls.map((c) => String(c[0])).join('\n');
      expect(said).toContain('REGEX_TIMEOUT_MS="soon" is not a number');
      expect(said).toContain('RATE_LIMIT_PER_MIN="0" is not above 0');
      expect(said).toContain('KNOWLEDGE_FUSION="best" is not a fusion method');
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the worker entry', () => {
  it('refuses a bad value first, naming it (without REDIS_URL or DATABASE_URL it would fail on those)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
      env: { ...process.env, DAG_CONCURRENCY: 'eight' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('cannot start: invalid configuration: DAG_CONCURRENCY="eight" is not a number');
  });
});
