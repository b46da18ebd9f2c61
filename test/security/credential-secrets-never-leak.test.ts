// Guarantees: a credential's secret value is sent only where it is bound (the LLM provider's origin, the HTTP
// credential's hosts), never follows a cross-origin redirect (custom headers included), and never appears in the
// run record, its events, the workflow export, the server's log output or any file under DATA_DIR.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as createCred, GET as listCreds } from '@/app/api/credentials/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir, waitForRun } from '../api/api-helpers';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { databaseOf } from '../support/database-of';

const dataDir = useFreshDataDir('paiflow-secrets-');
process.env.SEED_EXAMPLE = '0';

const LLM_KEY = 'sk-llm-secret-7c1f0a9e2b4d';
const BEARER = 'bearer-secret-5e8a1c3f9d07';
const HEADER_KEY = 'header-secret-2b6d9e4a1f38';

interface Target {
  server: Server;
  host: string;
  seen: IncomingHttpHeaders[];
}

async function target(handler?: (url: string) => { status: number; location?: string } | undefined): Promise<Target> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const r = handler?.(req.url ?? '/');
    if (r?.location) {
      res.writeHead(r.status, { location: r.location });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let fake: FakeOpenAi;
let api: Target;
let elsewhere: Target;
let redirector: Target;
const logged: string[] = [];

function graph(nodes: Array<{ id: string; type: string; config: Record<string, unknown> }>) {
  const all = [
    { id: 'start', type: 'start', config: { inputs: [] } },
    ...nodes,
    { id: 'end', type: 'end', config: { outputs: [] } },
  ];
  return {
    nodes: all.map((n, i) => ({ id: n.id, type: n.type, position: { x: i * 200, y: 0 }, data: { config: n.config } })),
    edges: all.slice(1).map((n, i) => ({ id: `e${i}`, source: all[i].id, target: n.id })),
  };
}

async function runGraph(g: unknown) {
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Secrets', graph: g } });
  expect(wf.status, wf.text).toBe(201);
  const run = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
    params: { id: wf.body.id },
    body: { inputs: {} },
  });
  expect(run.status, run.text).toBe(202);
  const done = await waitForRun(getRun, run.body.runId);
  return { wf: wf.body, run: done, byNode: Object.fromEntries(done.nodes.map((n: any) => [n.nodeId, n])) };
}

async function credential(body: unknown): Promise<string> {
  const c = await call(createCred, 'POST', '/api/credentials', { body });
  expect(c.status, c.text).toBe(201);
  return c.body.id;
}

beforeAll(async () => {
  for (const m of ['log', 'info', 'warn', 'error'] as const) {
    const orig = console[m].bind(console);
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
      orig(...args);
    });
  }
  fake = await startFakeOpenAi();
  api = await target();
  elsewhere = await target();
  redirector = await target(() => ({ status: 302, location: `http://${elsewhere.host}/landing` }));
  process.env.HTTP_ALLOWLIST = [new URL(fake.baseURL).host, api.host, elsewhere.host, redirector.host].join(',');
  await getApp();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await (await getApp()).close();
  await fake.close();
  for (const t of [api, elsewhere, redirector]) await new Promise((r) => t.server.close(r));
});

describe('credentials in LLM and HTTP nodes', () => {
  let used: Awaited<ReturnType<typeof runGraph>>;

  it('are sent where they are bound: the LLM key to its provider, the bearer token to its host', async () => {
    const llm = await credential({
      name: 'Provider',
      type: 'openai',
      data: { baseUrl: fake.baseURL, apiKey: LLM_KEY },
    });
    const bearer = await credential({ name: 'API', type: 'bearer', data: { token: BEARER }, hosts: [api.host] });
    used = await runGraph(
      graph([
        { id: 'ask', type: 'llm', config: { model: 'fake', userPrompt: 'Say hi', credentialId: llm } },
        { id: 'post', type: 'http', config: { method: 'POST', url: `http://${api.host}/hook`, credentialId: bearer } },
      ]),
    );
    expect(used.run.status, JSON.stringify(used.run.error)).toBe('succeeded');
    expect(fake.tokens).toContain(LLM_KEY);
    expect(api.seen.at(-1)?.authorization).toBe(`Bearer ${BEARER}`);
    const listed = await call(listCreds, 'GET', '/api/credentials');
    expect(listed.text).not.toContain(LLM_KEY);
    expect(listed.body.find((c: any) => c.id === llm).masked).toBe('sk-…2b4d');
  });

  it('never appear in the run record, its events, the export, the log or the data directory', async () => {
    const app = await getApp();
    const record = JSON.stringify(used.run);
    const events = JSON.stringify(await app.store.getEvents(used.run.id));
    const exported = await call(exportWf, 'GET', `/api/workflows/${used.wf.id}/export`, { params: { id: used.wf.id } });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain('credentialId');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d)) {
        const f = path.join(d, e);
        if (statSync(f).isDirectory()) walk(f);
        else files.push(f);
      }
    };
    walk(dataDir);
    expect(files.length).toBeGreaterThan(10);
    for (const secret of [LLM_KEY, BEARER]) {
      expect(record).not.toContain(secret);
      expect(events).not.toContain(secret);
      expect(exported.text).not.toContain(secret);
      expect(logged.join('\n')).not.toContain(secret);
      const inFiles = files.filter((f) => readFileSync(f).includes(Buffer.from(secret)));
      expect(inFiles, `files holding ${secret}`).toEqual([]);
    }
  });

  it("stay out of the run record when the provider's error quotes the key", async () => {
    const llm = await credential({
      name: 'Provider 3',
      type: 'openai',
      data: { baseUrl: fake.baseURL, apiKey: LLM_KEY },
    });
    fake.script({ status: 401 }); // the fake answers "Incorrect API key provided: <key>." like some providers do
    const r = await runGraph(graph([{ id: 'ask', type: 'llm', config: { userPrompt: 'hi', credentialId: llm } }]));
    expect(r.byNode.ask.status).toBe('failed');
    expect(r.byNode.ask.error.message).toMatch(/rejected the API key/);
    expect(JSON.stringify(r.run)).not.toContain(LLM_KEY);
    expect(JSON.stringify(await (await getApp()).store.getEvents(r.run.id))).not.toContain(LLM_KEY);
  });

  it('are not sent to any other host: the node fails with SECRET_HOST_NOT_ALLOWED before sending', async () => {
    const bound = await credential({
      name: 'Bound',
      type: 'bearer',
      data: { token: BEARER },
      hosts: ['api.example.com'],
    });
    const before = elsewhere.seen.length;
    const r = await runGraph(
      graph([{ id: 'x', type: 'http', config: { url: `http://${elsewhere.host}/`, credentialId: bound } }]),
    );
    expect(r.byNode.x.status).toBe('failed');
    expect(r.byNode.x.error.code).toBe('SECRET_HOST_NOT_ALLOWED');
    expect(r.byNode.x.error.message).toContain(elsewhere.host);
    expect(elsewhere.seen.length).toBe(before);

    const llm = await credential({
      name: 'Provider 2',
      type: 'openai',
      data: { baseUrl: fake.baseURL, apiKey: LLM_KEY },
    });
    const asked = fake.tokens.length;
    const moved = await runGraph(
      graph([
        {
          id: 'ask',
          type: 'llm',
          config: { userPrompt: 'hi', credentialId: llm, provider: { baseUrl: `http://${elsewhere.host}/v1` } },
        },
      ]),
    );
    expect(moved.byNode.ask.error.code).toBe('SECRET_HOST_NOT_ALLOWED');
    expect(fake.tokens.length).toBe(asked);
    expect(elsewhere.seen.length).toBe(before);
  });

  it('do not follow a redirect to another origin, custom header credentials included', async () => {
    const header = await credential({
      name: 'Header',
      type: 'http_header',
      data: { name: 'X-Api-Key', value: HEADER_KEY },
      hosts: [redirector.host],
    });
    const before = elsewhere.seen.length;
    const r = await runGraph(
      graph([{ id: 'x', type: 'http', config: { url: `http://${redirector.host}/start`, credentialId: header } }]),
    );
    expect(r.run.status, JSON.stringify(r.run.error)).toBe('succeeded');
    expect(redirector.seen.at(-1)?.['x-api-key']).toBe(HEADER_KEY);
    expect(elsewhere.seen.length).toBe(before + 1);
    expect(elsewhere.seen.at(-1)?.['x-api-key']).toBeUndefined();
  });
});

describe('a knowledge base that embeds with a credential', () => {
  it('embeds through the credential of its own workspace, and its key stays out of the catalogue', async () => {
    const { POST: createKb } = await import('@/app/api/knowledge-bases/route');
    const { POST: addDoc, GET: listDocs } = await import('@/app/api/knowledge-bases/[id]/documents/route');
    const { POST: search } = await import('@/app/api/knowledge-bases/[id]/search/route');
    const cred = await credential({
      name: 'Embeddings',
      type: 'openai',
      data: { baseUrl: fake.baseURL, apiKey: LLM_KEY },
    });
    const before = fake.tokens.length;
    const kb = await call(createKb, 'POST', '/api/knowledge-bases', {
      body: { name: 'Via credential', credentialId: cred },
    });
    expect(kb.status, kb.text).toBe(201);
    expect(kb.body).toMatchObject({ credentialId: cred, embeddingModel: 'openai:text-embedding-3-small' });
    const p = { id: kb.body.id };
    const doc = await call(addDoc, 'POST', `/api/knowledge-bases/${kb.body.id}/documents`, {
      params: p,
      body: { title: 'Refunds', text: 'Refunds are paid within 14 days of the request.' },
    });
    expect(doc.status).toBe(202);
    let status = '';
    for (let i = 0; i < 200 && status !== 'indexed' && status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call(listDocs, 'GET', `/api/knowledge-bases/${kb.body.id}/documents`, { params: p })).body[0]
        .status;
    }
    expect(status).toBe('indexed');
    const hits = await call(search, 'POST', `/api/knowledge-bases/${kb.body.id}/search`, {
      params: p,
      body: { query: 'refunds', mode: 'vector' },
    });
    expect(hits.status, hits.text).toBe(200);
    expect(fake.tokens.slice(before).every((t) => t === LLM_KEY)).toBe(true);
    expect(fake.tokens.length).toBeGreaterThan(before);
    const rows = await databaseOf(await getApp()).prisma.knowledgeBase.findMany();
    expect(JSON.stringify(rows)).not.toContain(LLM_KEY);

    const unknown = await call(createKb, 'POST', '/api/knowledge-bases', {
      body: { name: 'Bad', credentialId: 'cred_of_someone_else' },
    });
    expect({ status: unknown.status, code: unknown.body.error.code }).toEqual({
      status: 404,
      code: 'CREDENTIAL_NOT_FOUND',
    });
  });
});
