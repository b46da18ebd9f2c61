// Guarantees: upgrading a data dir from before accounts keeps everything: its workflows (with runs, versions and API
// keys), knowledge bases and agent memories move into one workspace, which the owner gets at setup, and the
// workspace-wide memories stay recallable there (embedded store).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '@/engine/store/prisma/database';
import { createApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { readConfig } from '@/lib/server/config';
import { databaseOf } from '../support/database-of';

const dataDir = mkdtempSync(path.join(tmpdir(), 'paiflow-upgrade-'));
let app: App | undefined;

afterAll(async () => {
  await app?.close();
});

it('an old data dir is migrated and its data belongs to the owner after setup', async () => {
  // The schema as it was before accounts: migrations 0001–0004 only.
  const old = mkdtempSync(path.join(tmpdir(), 'paiflow-old-migrations-'));
  for (const m of ['0001_init', '0002_knowledge', '0003_memories', '0004_workflow_cors'])
    cpSync(path.resolve('prisma/migrations', m), path.join(old, m), { recursive: true });
  const before = await openDatabase({ dataDir, migrationsDir: old });
  await before.prisma.$executeRawUnsafe(
    `INSERT INTO workflows (id, name, graph, engine, updated_at)
     VALUES ('wf_old', 'Old flow', '{"nodes":[],"edges":[]}', 'auto', now())`,
  );
  await before.prisma.$executeRawUnsafe(
    `INSERT INTO runs (id, workflow_id, engine, status, inputs, graph)
     VALUES ('run_old', 'wf_old', 'dag', 'succeeded', '{}', '{"nodes":[],"edges":[]}')`,
  );
  await before.prisma.$executeRawUnsafe(
    `INSERT INTO api_keys (id, workflow_id, prefix, hash) VALUES ('key_old', 'wf_old', 'pf_old', 'h-old')`,
  );
  await before.prisma.$executeRawUnsafe(
    `INSERT INTO knowledge_bases (id, name, embedding_model, dimension, updated_at)
     VALUES ('kb_old', 'Old KB', 'use-lite', 512, now())`,
  );
  await before.prisma.$executeRawUnsafe(
    `INSERT INTO agent_memories (id, scope, scope_key, content, content_hash, embedder_id, embedding, updated_at)
     VALUES ('mem_old', 'global', 'global', 'Old fact', 'hash-old', 'e', '[1]', now())`,
  );
  await before.close();

  app = await createApp(readConfig({ ...process.env, DATA_DIR: dataDir, SEED_EXAMPLE: '0', DATABASE_URL: '' }));
  expect(await app.accounts.hasUsers()).toBe(false);
  const owner = await app.accounts.setup({ email: 'owner@example.test', password: 'owner-password-1', name: 'O' });
  const [ws] = await app.accounts.workspacesOf(owner.id);
  expect(ws.role).toBe('owner');
  expect((await app.store.listWorkflows(ws.id)).map((w) => w.id)).toEqual(['wf_old']);
  expect((await app.store.getRun('run_old', ws.id))?.status).toBe('succeeded');
  expect((await app.store.listApiKeys('wf_old')).map((k) => k.id)).toEqual(['key_old']);
  expect((await app.knowledge.inWorkspace(ws.id).listKnowledgeBases()).map((k) => k.id)).toEqual(['kb_old']);
  const mem = await databaseOf(app).prisma.agentMemory.findUniqueOrThrow({ where: { id: 'mem_old' } });
  expect({ workspaceId: mem.workspaceId, scopeKey: mem.scopeKey }).toEqual({
    workspaceId: ws.id,
    scopeKey: `workspace:${ws.id}`,
  });
});
