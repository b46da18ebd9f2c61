// Guarantees: queue mode without ELASTICSEARCH_URL refuses, at start-up, a database that holds knowledge bases on the
// embedded index (workers in other processes could never search it), with a message that names Elasticsearch; and it
// refuses to create one (409 KNOWLEDGE_NEEDS_ELASTICSEARCH) instead of failing at run time.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { createApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { readConfig } from '@/lib/server/config';
import { TEST_DATABASE_URL, uniqueSchema } from '../support/databases';
import { call } from '../api/api-helpers';
import { queueServicesAvailable, TEST_REDIS_URL } from './support/queue-app';

const available = await queueServicesAvailable('embedded knowledge refused in queue mode');

describe.runIf(available)('queue mode and the embedded knowledge index', () => {
  const opened: App[] = [];
  const open = async (queue: boolean, schema: string) => {
    const config = readConfig({
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL: TEST_REDIS_URL,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'paiflow-qkb-')),
      SEED_EXAMPLE: '0',
    });
    // Queue mode and the key prefix are read from the environment (engine/queue/config.ts).
    process.env.QUEUE_MODE = queue ? '1' : '';
    process.env.REDIS_PREFIX = `paiflow-qkb-${schema}:`;
    try {
      const app = await createApp(config);
      opened.push(app);
      return app;
    } finally {
      delete process.env.QUEUE_MODE;
    }
  };

  afterAll(async () => {
    for (const app of opened) await app.close().catch(() => {});
    delete process.env.REDIS_PREFIX;
  });

  it('a database with knowledge bases on the embedded index does not start in queue mode', async () => {
    const schema = uniqueSchema('qkb');
    const plain = await open(false, schema);
    await plain.knowledge.createKnowledgeBase({ name: 'Handbook' });
    await plain.close();
    opened.pop();
    await expect(open(true, schema)).rejects.toMatchObject({
      code: 'KNOWLEDGE_NEEDS_ELASTICSEARCH',
      message: expect.stringContaining('ELASTICSEARCH_URL'),
    });
  });

  it('in queue mode a new knowledge base on the embedded index is refused with 409', async () => {
    const app = await open(true, uniqueSchema('qkb'));
    (globalThis as { __paiflowApp?: unknown }).__paiflowApp = Promise.resolve(app);
    const r = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: 'Handbook' } });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error.code).toBe('KNOWLEDGE_NEEDS_ELASTICSEARCH');
    expect(r.body.error.message).toContain('ELASTICSEARCH_URL');
    (globalThis as { __paiflowApp?: unknown }).__paiflowApp = undefined;
  });
});
