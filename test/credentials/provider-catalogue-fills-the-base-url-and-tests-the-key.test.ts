// Guarantees: GET /api/providers lists the catalogue (OpenAI, DeepSeek, Qwen, Zhipu, Moonshot, Doubao, SiliconFlow,
// Ollama, any other OpenAI-compatible) with English and Chinese names and the prices cost reporting uses; a credential
// that names a provider gets its base URL (still overridable) and is bound to that host; "test" says whether the key
// works — the provider's model list, else one tiny completion — and when it does not, why (a refused key without the
// key in the message, an unreachable host, an address the SSRF guard refuses with its HTTP_ALLOWLIST entry); the
// models list is the provider's own, else the catalogue's. Real app and routes, the real openai SDK over real HTTP.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as modelsOf } from '@/app/api/credentials/[id]/models/route';
import { POST as testCred } from '@/app/api/credentials/[id]/test/route';
import { POST as createCred } from '@/app/api/credentials/route';
import { GET as providers } from '@/app/api/providers/route';
import { BUILT_IN_PRICES } from '@/engine/llm/price-table';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

useFreshDataDir('paiflow-providers-');
process.env.SEED_EXAMPLE = '0';

let fake: FakeOpenAi;
/** A loopback port nothing listens on, allowlisted: "unreachable". */
let closedPort: number;
/** A second fake provider, not allowlisted: the guard refuses it. */
let refused: FakeOpenAi;

async function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
  refused = await startFakeOpenAi();
  closedPort = await unusedPort();
  const g = globalThis as { __paiflowApp?: Promise<{ close(): Promise<void> }> };
  if (g.__paiflowApp) await (await g.__paiflowApp).close();
  g.__paiflowApp = undefined;
  process.env.HTTP_ALLOWLIST = [new URL(fake.baseURL).host, `127.0.0.1:${closedPort}`].join(',');
  await getApp();
});

afterAll(async () => {
  await fake?.close();
  await refused?.close();
  expectNoServerErrorsOrStacks();
});

let seq = 0;
async function credential(data: Record<string, unknown>) {
  const a = await call(createCred, 'POST', '/api/credentials', {
    body: { name: `Provider ${++seq}`, type: 'openai', data },
  });
  return a;
}

const test = (id: string, body?: unknown) =>
  call(testCred, 'POST', `/api/credentials/${id}/test`, { params: { id }, ...(body ? { body } : {}) });
const models = (id: string, kind = '') =>
  call(modelsOf, 'GET', `/api/credentials/${id}/models${kind ? `?kind=${kind}` : ''}`, { params: { id } });

describe('the model provider catalogue', () => {
  it('lists the providers users ask for, in English and Chinese, with the prices cost reporting uses', async () => {
    const a = await call(providers, 'GET', '/api/providers');
    expect(a.status).toBe(200);
    const ids = a.body.map((p: any) => p.id);
    for (const id of ['openai', 'deepseek', 'qwen', 'zhipu', 'moonshot', 'doubao', 'siliconflow', 'ollama'])
      expect(ids).toContain(id);
    expect(ids).toContain('openai_compatible');
    const deepseek = a.body.find((p: any) => p.id === 'deepseek');
    expect(deepseek).toMatchObject({ name: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', kinds: ['chat'] });
    expect(deepseek.names.zh).toMatch(/深度求索/);
    expect(deepseek.docsUrl).toMatch(/^https:\/\//);
    const chat = deepseek.models.find((m: any) => m.id === 'deepseek-chat');
    expect(chat).toMatchObject({
      kind: 'chat',
      contextWindow: 128_000,
      inputUsdPerM: BUILT_IN_PRICES['deepseek-chat'].input,
      outputUsdPerM: BUILT_IN_PRICES['deepseek-chat'].output,
    });
    const qwen = a.body.find((p: any) => p.id === 'qwen');
    expect(qwen.baseUrl).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1');
    expect(qwen.names.zh).toMatch(/通义千问/);
    expect(a.body.find((p: any) => p.id === 'openai').kinds).toEqual(['chat', 'embedding', 'tts', 'image']);
    for (const p of a.body)
      for (const m of p.models) expect(['chat', 'embedding', 'rerank', 'tts', 'image']).toContain(m.kind);
    // Rerank models are listed next to the embedding models of the providers that serve both.
    const siliconflow = a.body.find((p: any) => p.id === 'siliconflow');
    expect(siliconflow.models.filter((m: any) => m.kind === 'rerank').map((m: any) => m.id)).toContain(
      'BAAI/bge-reranker-v2-m3',
    );
    expect(qwen.models.find((m: any) => m.kind === 'rerank')?.id).toBe('gte-rerank-v2');
  });

  it('fills the base URL from the provider, binds the credential to its host, lets the URL be overridden', async () => {
    const kimi = await credential({ provider: 'moonshot', apiKey: 'sk-kimi-0123456789abcdef' });
    expect(kimi.status, kimi.text).toBe(201);
    expect(kimi.body).toMatchObject({ hosts: ['api.moonshot.cn'], provider: 'moonshot' });
    const intl = await credential({
      provider: 'qwen',
      baseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
      apiKey: 'sk-qwen-0123456789abcdef',
    });
    expect(intl.status, intl.text).toBe(201);
    expect(intl.body).toMatchObject({ hosts: ['dashscope-intl.aliyuncs.com'], provider: 'qwen' });
    const plain = await credential({ apiKey: 'sk-openai-0123456789abcdef' });
    expect(plain.body).toMatchObject({ hosts: ['api.openai.com'], provider: 'openai' });
    const own = await credential({ baseUrl: fake.baseURL, apiKey: 'sk-own-0123456789abcdef' });
    expect(own.body.provider).toBe('openai_compatible');
  });

  it('refuses an unknown provider, and "other" without a base URL, naming the field', async () => {
    expectError(
      await credential({ provider: 'nope', apiKey: 'sk-0123456789abcdef' }),
      400,
      'VALIDATION_ERROR',
      'data.provider',
    );
    expectError(
      await credential({ provider: 'openai_compatible', apiKey: 'sk-0123456789abcdef' }),
      400,
      'VALIDATION_ERROR',
      'data.baseUrl',
    );
  });
});

describe('testing a credential', () => {
  it('lists the provider models when the key works, with each model kind', async () => {
    const cred = await credential({ baseUrl: fake.baseURL, apiKey: 'sk-good-0123456789abcdef' });
    fake.setModels(['fake-chat', 'text-embedding-3-small', 'tts-1']);
    const a = await test(cred.body.id);
    expect(a.status, a.text).toBe(200);
    expect(a.body.ok).toBe(true);
    expect(a.body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(a.body.models).toEqual([
      { id: 'fake-chat', kind: 'chat' },
      { id: 'text-embedding-3-small', kind: 'embedding' },
      { id: 'tts-1', kind: 'tts' },
    ]);
    expect(fake.tokens.at(-1)).toBe('sk-good-0123456789abcdef');
  });

  it('says the key was refused, without the key, when the provider refuses it', async () => {
    const key = 'sk-wrong-0123456789abcdef';
    const cred = await credential({ baseUrl: fake.baseURL, apiKey: key });
    const a = await test(cred.body.id);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ ok: false, error: { code: 'LLM_AUTH' } });
    expect(a.body.error.message).toMatch(/rejected the API key \(HTTP 401\)/);
    expect(a.text).not.toContain(key);
  });

  it('sends one tiny completion when the provider lists no models', async () => {
    const cred = await credential({ baseUrl: fake.baseURL, apiKey: 'sk-nolist-0123456789abcdef' });
    fake.setModels(null);
    try {
      const none = await test(cred.body.id);
      expect(none.body).toMatchObject({ ok: false, error: { code: 'PROVIDER_MODEL_NEEDED' } });
      const before = fake.requests.length;
      const a = await test(cred.body.id, { model: 'my-local-model' });
      expect(a.body).toMatchObject({ ok: true, model: 'my-local-model' });
      const sent = fake.requests.slice(before).find((r) => r.messages);
      expect(sent).toMatchObject({ model: 'my-local-model', max_tokens: 1 });
      fake.script({ status: 401 });
      const refusedKey = await test(cred.body.id, { model: 'my-local-model' });
      expect(refusedKey.body).toMatchObject({ ok: false, error: { code: 'LLM_AUTH' } });
    } finally {
      fake.setModels(['fake-chat', 'fake-embed']);
    }
  });

  it('says an address the SSRF guard refuses, with the HTTP_ALLOWLIST entry, and an unreachable host', async () => {
    const local = await credential({ baseUrl: refused.baseURL, apiKey: 'sk-local-0123456789abcdef' });
    const a = await test(local.body.id);
    const host = new URL(refused.baseURL).host;
    expect(a.body).toMatchObject({ ok: false, error: { code: 'SSRF_BLOCKED' } });
    expect(a.body.error.message).toContain(`HTTP_ALLOWLIST=${host}`);
    const gone = await credential({ baseUrl: `http://127.0.0.1:${closedPort}/v1`, apiKey: 'sk-gone-0123456789abcdef' });
    const b = await test(gone.body.id);
    expect(b.body).toMatchObject({ ok: false, error: { code: 'LLM_UNAVAILABLE' } });
    expect(b.body.error.message).toMatch(/Could not connect/);
  });

  it('refuses credentials that are not model providers, and unknown ones', async () => {
    const header = await call(createCred, 'POST', '/api/credentials', {
      body: { name: 'Header', type: 'bearer', data: { token: 'tok-0123456789abcdef' }, hosts: ['example.com'] },
    });
    expectError(await test(header.body.id), 400, 'CREDENTIAL_NOT_TESTABLE');
    expectError(await models(header.body.id), 400, 'CREDENTIAL_NOT_TESTABLE');
    expectError(await test('cred_nope'), 404, 'CREDENTIAL_NOT_FOUND');
    expectError(await test(header.body.id, { model: 'x', extra: 1 }), 400, 'UNKNOWN_KEY', 'extra');
  });
});

describe('a credential models', () => {
  it('are the provider own list when it answers, filtered by kind', async () => {
    fake.setModels(['fake-chat', 'fake-embed', 'bge-m3']);
    const cred = await credential({ baseUrl: fake.baseURL, apiKey: 'sk-models-0123456789abcdef' });
    const all = await models(cred.body.id);
    expect(all.body).toMatchObject({ source: 'provider' });
    expect(all.body.models.map((m: any) => m.id)).toEqual(['bge-m3', 'fake-chat', 'fake-embed']);
    const embeddings = await models(cred.body.id, 'embedding');
    expect(embeddings.body.models).toEqual([
      { id: 'bge-m3', kind: 'embedding' },
      { id: 'fake-embed', kind: 'embedding' },
    ]);
  });

  it('are the catalogue list for that provider when the provider does not answer', async () => {
    const cred = await credential({ provider: 'doubao', apiKey: 'sk-ark-0123456789abcdef' });
    const a = await models(cred.body.id, 'chat');
    expect(a.status, a.text).toBe(200);
    expect(a.body.source).toBe('catalogue');
    expect(a.body.models.map((m: any) => m.id)).toContain('doubao-seed-1-6-250615');
    expect(a.body.models.every((m: any) => m.kind === 'chat')).toBe(true);
  });
});
