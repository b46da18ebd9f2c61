// Guarantees: a request the SSRF guard refuses is SSRF_BLOCKED wherever it starts — an LLM, TTS or image node whose
// credential's base URL is a loopback port (a user's own Ollama or vLLM), an embedding knowledge base with an
// `openai:<model>` credential (400 at the API; later the document's and the knowledge node's error), the HTTP node and
// the agent's http_fetch tool (its tool result and trace) — and its message names the refused host:port and the
// HTTP_ALLOWLIST entry that lets it through (in Chinese the explanation names HTTP_ALLOWLIST and the detail keeps the
// entry); a DNS name that resolves inward (localhost, a LAN name) says the same. With that entry in HTTP_ALLOWLIST the
// same workflows, unchanged, succeed. Real app and routes, real guard, the real openai SDK over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createCred } from '@/app/api/credentials/route';
import { POST as searchKb } from '@/app/api/knowledge-bases/[id]/search/route';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { checkUrl } from '@/engine/net/ssrf-guard';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir, waitForRun } from '../api/api-helpers';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { uploadText, waitForDocument } from './support/knowledge-api';

useFreshDataDir('paiflow-ssrf-advice-');
process.env.SEED_EXAMPLE = '0';

/** The user's own OpenAI-compatible server on this machine (refused until allowlisted). */
let local: FakeOpenAi;
/** The agent's model (always allowlisted), so the agent can ask for http_fetch. */
let agentModel: FakeOpenAi;
let LOCAL: string;

/** Restarts the app (same data folder) with HTTP_ALLOWLIST set to `hosts`. */
async function restartWithAllowlist(hosts: string[]) {
  const g = globalThis as { __paiflowApp?: Promise<{ close(): Promise<void> }> };
  if (g.__paiflowApp) await (await g.__paiflowApp).close();
  g.__paiflowApp = undefined;
  process.env.HTTP_ALLOWLIST = hosts.join(',');
  await getApp();
}

const advice = (hostPort: string) => `add it to HTTP_ALLOWLIST on the server (HTTP_ALLOWLIST=${hostPort};`;

function node(id: string, type: string, config: Record<string, unknown>) {
  return { id, type, config };
}

function line(nodes: Array<{ id: string; type: string; config: Record<string, unknown> }>) {
  const all = [node('start', 'start', { inputs: [] }), ...nodes, node('end', 'end', { outputs: [] })];
  return {
    nodes: all.map((n, i) => ({ id: n.id, type: n.type, position: { x: i * 200, y: 0 }, data: { config: n.config } })),
    edges: all.slice(1).map((n, i) => ({ id: `e${i}`, source: all[i].id, target: n.id })),
  };
}

async function workflow(name: string, nodes: Parameters<typeof line>[0]): Promise<string> {
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name, graph: line(nodes) } });
  expect(wf.status, wf.text).toBe(201);
  return wf.body.id;
}

async function run(workflowId: string) {
  const started = await call(startRun, 'POST', `/api/workflows/${workflowId}/runs`, {
    params: { id: workflowId },
    body: { inputs: {} },
  });
  expect(started.status, started.text).toBe(202);
  const done = await waitForRun(getRun, started.body.runId);
  const events = await (await getApp()).store.getEvents(done.id);
  return { run: done, events, nodeOf: (id: string) => done.nodes.find((n: any) => n.nodeId === id) };
}

/** The node failed with SSRF_BLOCKED naming `hostPort` and its allowlist entry, in the run record and its events. */
function expectRefusedNode(r: Awaited<ReturnType<typeof run>>, nodeId: string, hostPort: string) {
  expect(r.run.status).toBe('failed');
  const error = r.nodeOf(nodeId)?.error;
  expect(error?.code, JSON.stringify(error)).toBe('SSRF_BLOCKED');
  expect(error.message).toContain(`Blocked request to ${hostPort}:`);
  expect(error.message).toContain(advice(hostPort));
  const failed = r.events.find((e) => e.type === 'node.failed' && e.nodeId === nodeId);
  expect((failed?.data as any)?.error).toMatchObject({ code: 'SSRF_BLOCKED', message: error.message });
  return error as { code: string; message: string };
}

async function credential(name: string, baseUrl: string): Promise<string> {
  const c = await call(createCred, 'POST', '/api/credentials', {
    body: { name, type: 'openai', data: { baseUrl, apiKey: `sk-${name}-0123456789` } },
  });
  expect(c.status, c.text).toBe(201);
  return c.body.id;
}

// Long-term memory off: its recall embeds the task on the offline model, whose first load (tens of seconds on a busy
// machine) is no part of what is checked here.
const NO_MEMORY = { enabled: false };

const ids = {} as Record<'llm' | 'tts' | 'image' | 'http' | 'agent' | 'agentOnBox' | 'localhost', string> & {
  localCred: string;
  kb?: string;
  knowledge?: string;
};

beforeAll(async () => {
  local = await startFakeOpenAi();
  agentModel = await startFakeOpenAi();
  LOCAL = new URL(local.baseURL).host;
  await restartWithAllowlist([new URL(agentModel.baseURL).host]);
  ids.localCred = await credential('own-box', local.baseURL);
  const byName = await credential('own-box-by-name', `http://localhost:${new URL(local.baseURL).port}/v1`);
  const agentCred = await credential('agent-model', agentModel.baseURL);
  ids.llm = await workflow('LLM on my box', [
    node('ask', 'llm', { model: 'llama3', userPrompt: 'Say hi', credentialId: ids.localCred }),
  ]);
  ids.tts = await workflow('Speech on my box', [
    node('say', 'tts', {
      text: 'Hello there.',
      model: 'tts-1',
      voice: 'nova',
      format: 'wav',
      credentialId: ids.localCred,
    }),
  ]);
  ids.image = await workflow('Images on my box', [
    node('draw', 'image', {
      prompt: 'a cat',
      model: 'dall-e-3',
      responseFormat: 'b64_json',
      credentialId: ids.localCred,
    }),
  ]);
  ids.http = await workflow('HTTP to my box', [node('get', 'http', { url: `http://${LOCAL}/files/a.png` })]);
  ids.agent = await workflow('Agent fetching from my box', [
    node('agent', 'agent', {
      model: 'fake',
      task: 'Fetch the file',
      tools: ['http_fetch'],
      credentialId: agentCred,
      maxRetries: 0,
      memory: NO_MEMORY,
    }),
  ]);
  ids.agentOnBox = await workflow('Agent on my box', [
    node('agent', 'agent', {
      model: 'llama3',
      fallbackModels: ['qwen2.5'],
      task: 'Say hi',
      credentialId: ids.localCred,
      memory: NO_MEMORY,
    }),
  ]);
  ids.localhost = await workflow('LLM on localhost', [
    node('ask', 'llm', { model: 'llama3', userPrompt: 'Say hi', credentialId: byName }),
  ]);
}, 120_000);

afterAll(async () => {
  const g = globalThis as { __paiflowApp?: Promise<{ close(): Promise<void> }> };
  await (await g.__paiflowApp)?.close();
  await local?.close();
  await agentModel?.close();
});

describe('without an allowlist entry, each refusal is SSRF_BLOCKED and names the entry that allows it', () => {
  it('LLM, TTS and image nodes whose credential points at a loopback port', async () => {
    const llm = expectRefusedNode(await run(ids.llm), 'ask', LOCAL);
    expect(llm.message).toMatch(/it is a loopback address/);
    expectRefusedNode(await run(ids.tts), 'say', LOCAL);
    expectRefusedNode(await run(ids.image), 'draw', LOCAL);
    expect(local.requests).toEqual([]);
  });

  it('an agent on that credential fails with it at once: its fallback models are on the same address', async () => {
    const r = await run(ids.agentOnBox);
    expectRefusedNode(r, 'agent', LOCAL);
    expect(r.events.filter((e) => e.type === 'node.progress' && (e.data as any)?.fallback)).toEqual([]);
  });

  it('a DNS name that resolves to a loopback address says the same', async () => {
    const hostPort = `localhost:${new URL(local.baseURL).port}`;
    const e = expectRefusedNode(await run(ids.localhost), 'ask', hostPort);
    expect(e.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });

  it('a LAN name says which address it resolved to and which entry allows it', async () => {
    const resolver = async () => ['192.168.1.20'];
    const refused = await checkUrl('http://nas.lan:8080/v1/models', { resolver }).catch((e) => e);
    expect(refused.code).toBe('SSRF_BLOCKED');
    expect(refused.message).toContain('Blocked request to nas.lan:8080: nas.lan resolves to 192.168.1.20, a private');
    expect(refused.message).toContain(advice('nas.lan:8080'));
    await expect(
      checkUrl('http://nas.lan:8080/v1/models', { resolver, allowlist: ['nas.lan:8080'] }),
    ).resolves.toBeTruthy();
  });

  it('the HTTP node', async () => {
    expectRefusedNode(await run(ids.http), 'get', LOCAL);
  });

  it("the agent's http_fetch tool: the model and the trace are told the code and the entry", async () => {
    agentModel.script(
      { toolCalls: [{ id: 'f1', name: 'http_fetch', arguments: { url: `http://${LOCAL}/files/a.png` } }] },
      { text: 'could not fetch it' },
    );
    const r = await run(ids.agent);
    expect(r.run.status).toBe('succeeded');
    const result = r.events.find((e) => e.type === 'tool.result')?.data as any;
    expect(result).toMatchObject({ name: 'http_fetch', status: 'denied', code: 'SSRF_BLOCKED' });
    expect(result.result).toContain(advice(LOCAL));
    const toModel = agentModel.requests.at(-1).messages.find((m: any) => m.role === 'tool');
    expect(toModel.content).toMatch(/^policy denied: Blocked request to /);
    expect(toModel.content).toContain(advice(LOCAL));
  });

  it('an embedding knowledge base on that credential: 400 SSRF_BLOCKED at the API, English and Chinese', async () => {
    const body = { name: 'Own embeddings', credentialId: ids.localCred, embeddingModel: 'openai:nomic-embed-text' };
    const en = await call(createKb, 'POST', '/api/knowledge-bases', { body });
    expect(en.status, en.text).toBe(400);
    expect(en.body.error.code).toBe('SSRF_BLOCKED');
    expect(en.body.error.message).toContain(advice(LOCAL));
    const zh = await call(createKb, 'POST', '/api/knowledge-bases?lang=zh-CN', { body });
    expect(zh.status, zh.text).toBe(400);
    expect(zh.body.error.code).toBe('SSRF_BLOCKED');
    expect(zh.body.error.message).toMatch(/[\u3400-\u9fff].*HTTP_ALLOWLIST/);
    expect(zh.body.error.detail).toContain(advice(LOCAL));
    expect(local.requests).toEqual([]);
  });
});

describe('with the named entry in HTTP_ALLOWLIST the same workflows succeed', () => {
  beforeAll(async () => {
    await restartWithAllowlist([new URL(agentModel.baseURL).host, LOCAL]);
  }, 120_000);

  it('LLM, TTS, image and HTTP nodes', async () => {
    for (const id of [ids.llm, ids.tts, ids.image, ids.http]) {
      const r = await run(id);
      expect(r.run.status, JSON.stringify(r.run.error)).toBe('succeeded');
    }
    expect(local.paths).toEqual(
      expect.arrayContaining(['/v1/chat/completions', '/v1/audio/speech', '/v1/images/generations']),
    );
  });

  it('the entry is the exact host:port: the name that resolves to it stays refused', async () => {
    expectRefusedNode(await run(ids.localhost), 'ask', `localhost:${new URL(local.baseURL).port}`);
  });

  it("the agent's http_fetch tool", async () => {
    agentModel.script(
      { toolCalls: [{ id: 'f1', name: 'http_fetch', arguments: { url: `http://${LOCAL}/files/a.png` } }] },
      { text: 'fetched' },
    );
    const r = await run(ids.agent);
    expect(r.run.status).toBe('succeeded');
    const result = r.events.find((e) => e.type === 'tool.result')?.data as any;
    expect(result).toMatchObject({ name: 'http_fetch', status: 'ok' });
    expect(result.result).toMatch(/^HTTP 200/);
  });

  // The first upload starts the documents' worker thread: minutes on a loaded machine, not the suite's 60 s.
  it(
    'an embedding knowledge base: created, a document indexed, searched, also by a knowledge node',
    { timeout: 180_000 },
    async () => {
      const kb = await call(createKb, 'POST', '/api/knowledge-bases', {
        body: { name: 'Own embeddings', credentialId: ids.localCred, embeddingModel: 'openai:nomic-embed-text' },
      });
      expect(kb.status, kb.text).toBe(201);
      ids.kb = kb.body.id as string;
      const doc = await waitForDocument(ids.kb, await uploadText(ids.kb, 'Cats', 'Cats sleep sixteen hours a day.'));
      expect(doc.status, JSON.stringify(doc.error)).toBe('indexed');
      const found = await call(searchKb, 'POST', `/api/knowledge-bases/${ids.kb}/search`, {
        params: { id: ids.kb },
        body: { query: 'how long do cats sleep' },
      });
      expect(found.status, found.text).toBe(200);
      expect(found.body.hits.length).toBeGreaterThan(0);
      ids.knowledge = await workflow('Search my box', [
        node('kb', 'knowledge', { knowledgeBaseId: ids.kb, query: 'cats' }),
      ]);
      const r = await run(ids.knowledge);
      expect(r.run.status, JSON.stringify(r.run.error)).toBe('succeeded');
    },
  );
});

describe('an existing embedding knowledge base whose entry is removed again', () => {
  beforeAll(async () => {
    await restartWithAllowlist([new URL(agentModel.baseURL).host]);
  }, 120_000);

  it('search is 400 SSRF_BLOCKED, an upload fails with it, a knowledge node fails with it', async () => {
    const kb = ids.kb!;
    const found = await call(searchKb, 'POST', `/api/knowledge-bases/${kb}/search`, {
      params: { id: kb },
      body: { query: 'cats' },
    });
    expect(found.status, found.text).toBe(400);
    expect(found.body.error.code).toBe('SSRF_BLOCKED');
    expect(found.body.error.message).toContain(advice(LOCAL));
    const doc = await waitForDocument(kb, await uploadText(kb, 'Dogs', 'Dogs sleep twelve hours a day.'));
    expect(doc.status).toBe('failed');
    expect(doc.error).toMatchObject({ code: 'SSRF_BLOCKED' });
    expect(doc.error.message).toContain(advice(LOCAL));
    expectRefusedNode(await run(ids.knowledge!), 'kb', LOCAL);
  });
});
