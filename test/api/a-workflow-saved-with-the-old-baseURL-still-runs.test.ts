// Guarantees: a workflow stored before node configs said `provider.baseUrl` — its LLM node still spelling it
// `baseURL` — keeps working after the upgrade: the start-up migration rewrites it, the draft has no problem, and a
// run sends its model call to that base URL (not the credential's default) and succeeds.
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { validateGraph } from '@/engine/graph/validate';
import type { Graph } from '@/engine/graph/schema';
import { createApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { readConfig } from '@/lib/server/config';
import { databaseOf } from '../support/database-of';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

const dataDir = mkdtempSync(path.join(tmpdir(), 'paiflow-old-baseURL-'));
const beforeRename = mkdtempSync(path.join(tmpdir(), 'paiflow-migrations-before-0014-'));
for (const m of readdirSync(path.resolve('prisma/migrations')))
  if (m < '0014') cpSync(path.resolve('prisma/migrations', m), path.join(beforeRename, m), { recursive: true });

let fake: FakeOpenAi;
let app: App | undefined;
const saved = { ...process.env };
const open = () => createApp(readConfig({ ...process.env, DATA_DIR: dataDir, SEED_EXAMPLE: '0', DATABASE_URL: '' }));

beforeAll(async () => {
  fake = await startFakeOpenAi();
  // The node's own base URL is a user URL: the SSRF guard lets the local fake through only when it is listed.
  process.env.HTTP_ALLOWLIST = new URL(fake.baseURL).host;
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});
afterAll(async () => {
  await app?.close();
  await fake.close();
  process.env = saved;
});

it('runs a workflow whose LLM node says provider.baseURL, calling that base URL', async () => {
  // The store as the previous release left it: every migration before 0014, and the old spelling in a graph.
  process.env.PAIFLOW_MIGRATIONS_DIR = beforeRename;
  app = await open();
  const owner = await app.accounts.setup({ email: 'owner@example.test', password: 'owner-password-1', name: 'O' });
  const [ws] = await app.accounts.workspacesOf(owner.id);
  const origin = new URL(fake.baseURL).origin;
  // The credential's own base URL leads nowhere (the fake answers only /v1): only the node's gets an answer.
  const cred = await app.credentials.create(
    ws.id,
    { name: 'Local', type: 'openai', data: { baseUrl: `${origin}/not-here/v1`, apiKey: 'sk-local-0123456789' } },
    { id: owner.id },
  );
  const graph = {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'ask',
        type: 'llm',
        position: { x: 200, y: 0 },
        data: {
          config: { userPrompt: 'Say hi', stream: false, credentialId: cred.id, provider: { baseURL: fake.baseURL } },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{ask.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'ask' },
      { id: 'e2', source: 'ask', target: 'end' },
    ],
  } as Graph;
  // Written in SQL, as the previous release wrote it: today's client would also write columns (chat, 0017) that
  // this older database does not have yet.
  await databaseOf(app).sql.query(
    'INSERT INTO "workflows" ("id", "workspace_id", "name", "graph", "updated_at") VALUES ($1, $2, $3, $4, now())',
    ['wf_old_spelling', ws.id, 'Old spelling', JSON.stringify(graph)],
  );
  await app.close();

  // The upgrade: the new release starts on the same data.
  delete process.env.PAIFLOW_MIGRATIONS_DIR;
  app = await open();
  const wf = (await app.store.getWorkflow('wf_old_spelling', ws.id))!;
  expect(wf.graph.nodes[1].data.config.provider).toEqual({ baseUrl: fake.baseURL });
  expect(validateGraph(wf.graph, app.registry, wf.engine).errors).toEqual([]);

  const { run } = await app.runs.start({ workflow: wf, inputs: {} });
  const done = await app.runs.outcome(run.id);
  expect(done?.status, JSON.stringify(done?.error)).toBe('succeeded');
  expect(done?.outputs).toEqual({ text: 'echo: Say hi' });
  expect(fake.paths).toEqual(['/v1/chat/completions']);
  expect(fake.tokens).toEqual(['sk-local-0123456789']);
});
