// Guarantees: a model server given without a key — a node's own base URL, an OpenAI-compatible credential with no
// key, or OPENAI_BASE_URL alone (the way Ollama, vLLM and LM Studio run) — is the server that answers, for chat and
// for embeddings; it is sent a placeholder key, never the server's OPENAI_API_KEY; a keyless server that refuses says
// it needs a key. The offline demo model answers only when nothing at all is configured. The real openai SDK over
// real HTTP, against the scripted server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedCredential } from '@/engine/credentials/types';
import { createEmbedderResolver } from '@/engine/knowledge/embedders/resolve-embedder';
import { createLlmResolver, describeLlm } from '@/engine/llm/resolve-provider';
import type { ChatRequest } from '@/engine/llm/types';
import { providerSettings } from '@/engine/nodes/shared/provider-settings';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

const ask: ChatRequest = { model: 'llama3.1', messages: [{ role: 'user', content: 'who answers?' }] };
const noSecrets = { get: () => undefined };

let local: FakeOpenAi;
beforeAll(async () => {
  local = await startFakeOpenAi();
});
afterAll(() => local?.close());

describe('a base URL without a key', () => {
  it("of a node's own is called, with a placeholder key, and answers — not the demo model", async () => {
    const before = local.requests.length;
    const settings = await providerSettings(
      { runId: 'r', secrets: noSecrets },
      { provider: { baseUrl: local.baseURL } },
    );
    const provider = createLlmResolver({})(settings);
    expect(provider.demo).toBeFalsy();
    const res = await provider.chat(ask);
    expect(res).toMatchObject({ text: 'echo: who answers?', provider: 'openai-compatible' });
    expect(local.requests.length).toBe(before + 1);
    expect(local.tokens.at(-1)).toBe('no-key');
  });

  it('of a credential without a key is called the same way', async () => {
    const keyless: ResolvedCredential = {
      id: 'cred_local',
      name: 'Ollama here',
      type: 'openai',
      hosts: [new URL(local.baseURL).host],
      data: { provider: 'ollama', baseUrl: local.baseURL },
    };
    const credentials = { resolve: async () => keyless };
    const settings = await providerSettings(
      { runId: 'r', secrets: noSecrets, credentials },
      { credentialId: keyless.id },
    );
    const res = await createLlmResolver({})(settings).chat(ask);
    expect(res.text).toBe('echo: who answers?');
    expect(local.tokens.at(-1)).toBe('no-key');
  });

  it("never gets the server's OPENAI_API_KEY, which stays with OPENAI_BASE_URL", async () => {
    const resolve = createLlmResolver({
      OPENAI_API_KEY: 'sk-the-servers-own',
      OPENAI_BASE_URL: 'https://llm.example/v1',
    });
    await resolve({ baseURL: local.baseURL }).chat(ask);
    expect(local.tokens.at(-1)).toBe('no-key');
    expect(local.tokens).not.toContain('sk-the-servers-own');
  });

  it('that the server refuses is an LLM_AUTH error saying a key is needed', async () => {
    local.script({ status: 401 });
    const err = await createLlmResolver({})({ baseURL: local.baseURL })
      .chat({ ...ask, maxRetries: 0 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'LLM_AUTH' });
    expect(err.message).toMatch(/without an API key/);
  });
});

describe('OPENAI_BASE_URL alone (no OPENAI_API_KEY)', () => {
  it('is where every node without settings of its own is sent, and /api/health names it', async () => {
    const env = { OPENAI_BASE_URL: local.baseURL };
    const res = await createLlmResolver(env)({}).chat(ask);
    expect(res).toMatchObject({ text: 'echo: who answers?', provider: 'openai-compatible' });
    expect(local.tokens.at(-1)).toBe('no-key');
    expect(describeLlm(env)).toBe('openai-compatible');
  });

  it('embeds with that server for an "openai:<model>" knowledge base', async () => {
    const before = local.paths.filter((p) => p === '/v1/embeddings').length;
    const embedder = createEmbedderResolver({ OPENAI_BASE_URL: local.baseURL })('openai:nomic-embed-text');
    const [v] = await embedder.embed(['a local embedding']);
    expect(v).toHaveLength(8);
    expect(local.paths.filter((p) => p === '/v1/embeddings').length).toBe(before + 1);
    expect(local.tokens.at(-1)).toBe('no-key');
  });
});

describe('nothing configured at all', () => {
  it('is the only case the offline demo model answers, and it says it is the demo', async () => {
    const provider = createLlmResolver({})({});
    expect(provider.demo).toBe(true);
    expect((await provider.chat(ask)).provider).toBe('demo');
    expect(describeLlm({})).toBe('demo (offline)');
  });
});
