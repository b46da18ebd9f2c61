// Guarantees: migration 0014 rewrites the old node-config spelling `provider.baseURL` to `provider.baseUrl` in every
// stored graph — drafts, published versions and runs — for an LLM node's provider and for each multi-agent role's,
// on the embedded database and on PostgreSQL; an old `baseURL` wins over a `baseUrl` beside it (the old schema
// dropped `baseUrl`, so `baseURL` was in effect); a `baseURL` that is data (pinned output, code text) is left alone,
// and a graph of another shape passes through unchanged.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/engine/store/prisma/database';
import { dropSchema, storeKinds, TEST_DATABASE_URL, uniqueSchema } from '../support/databases';

const MIGRATION = '0014_provider_base_url';
const before = mkdtempSync(path.join(tmpdir(), 'paiflow-before-0014-'));
for (const m of readdirSync(path.resolve('prisma/migrations')))
  if (m < MIGRATION) cpSync(path.resolve('prisma/migrations', m), path.join(before, m), { recursive: true });

const oldGraph = {
  nodes: [
    { id: 'start', type: 'start', data: { config: { inputs: [] } } },
    {
      id: 'llm',
      type: 'llm',
      data: {
        config: { userPrompt: 'hi', provider: { baseURL: 'https://llm.example/v1', apiKeySecret: 'K' } },
        pinned: { output: { baseURL: 'data, not a setting' } },
      },
    },
    {
      id: 'team',
      type: 'multi_agent',
      data: {
        config: {
          task: 't',
          planner: { provider: { baseURL: 'https://planner.example/v1', baseUrl: 'https://ignored.example/v1' } },
          worker: { provider: {} },
          reviewer: { model: 'm', provider: { baseURL: 'https://reviewer.example/v1' } },
        },
      },
    },
    { id: 'code', type: 'code', data: { config: { code: 'return {"baseURL": 1}' } } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'llm' }],
};

const newGraph = structuredClone(oldGraph);
newGraph.nodes[1].data.config.provider = { apiKeySecret: 'K', baseUrl: 'https://llm.example/v1' } as never;
Object.assign(newGraph.nodes[2].data.config, {
  planner: { provider: { baseUrl: 'https://planner.example/v1' } },
  reviewer: { model: 'm', provider: { baseUrl: 'https://reviewer.example/v1' } },
});

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  rmSync(before, { recursive: true, force: true });
});

async function open(kind: 'pglite' | 'postgres', migrationsDir?: string) {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-0014-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return { location: { dataDir: dir }, db: await openDatabase({ dataDir: dir, migrationsDir }) };
  }
  const schema = uniqueSchema('m14');
  cleanups.push(() => dropSchema(schema));
  const location = { databaseUrl: TEST_DATABASE_URL, schema };
  return { location, db: await openDatabase({ ...location, migrationsDir }) };
}

const graphOf = async (db: Database, table: string, id: string) =>
  ((await db.prisma.$queryRawUnsafe(`SELECT graph FROM ${table} WHERE id = $1`, id)) as Array<{ graph: unknown }>)[0]
    .graph;

describe.each(await storeKinds())('stored graphs on %s', (kind) => {
  it('say provider.baseUrl after the migration, in drafts, versions and runs', async () => {
    const { location, db: old } = await open(kind, before);
    const sql = (q: string, ...p: unknown[]) => old.prisma.$executeRawUnsafe(q, ...p);
    const g = JSON.stringify(oldGraph);
    await sql(`INSERT INTO workspaces (id, name) VALUES ('ws1', 'W')`);
    await sql(
      `INSERT INTO workflows (id, workspace_id, name, graph, engine, updated_at)
       VALUES ('wf1', 'ws1', 'Old', $1::jsonb, 'auto', now()),
              ('wf2', 'ws1', 'Odd', '{"nodes": "not a list", "baseURL": 1}'::jsonb, 'auto', now())`,
      g,
    );
    await sql(
      `INSERT INTO workflow_versions (id, workflow_id, version, graph, engine)
       VALUES ('v1', 'wf1', 1, $1::jsonb, 'auto')`,
      g,
    );
    await sql(
      `INSERT INTO runs (id, workflow_id, engine, status, inputs, graph)
       VALUES ('r1', 'wf1', 'dag', 'failed', '{}', $1::jsonb)`,
      g,
    );
    await old.close();

    const db = await openDatabase(location);
    try {
      expect(await graphOf(db, 'workflows', 'wf1')).toEqual(newGraph);
      expect(await graphOf(db, 'workflow_versions', 'v1')).toEqual(newGraph);
      expect(await graphOf(db, 'runs', 'r1')).toEqual(newGraph);
      expect(await graphOf(db, 'workflows', 'wf2')).toEqual({ nodes: 'not a list', baseURL: 1 });
    } finally {
      await db.close();
    }
  });
});
