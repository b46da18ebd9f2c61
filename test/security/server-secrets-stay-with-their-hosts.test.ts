// Guarantees: the server's own secrets cannot be sent where a workflow chooses: OPENAI_API_KEY goes only to
// OPENAI_BASE_URL (a node naming its own base URL is sent its own key, or none), and a SECRET_<NAME> named by
// an LLM node with its own base URL goes only to the hosts SECRET_<NAME>_HOSTS lists; host lists mean https on the
// default port unless a port is given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostsAllow } from '@/engine/credentials/types';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { providerSettings, scrubbedError } from '@/engine/nodes/shared/provider-settings';
import { envSecrets } from '@/lib/server/credentials/env-secrets';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

describe("the server's OPENAI_API_KEY", () => {
  let elsewhere: FakeOpenAi;
  beforeAll(async () => {
    elsewhere = await startFakeOpenAi();
  });
  afterAll(() => elsewhere?.close());
  const resolve = createLlmResolver({ OPENAI_API_KEY: 'sk-server-key', OPENAI_BASE_URL: 'https://llm.example.com/v1' });

  it('is used for the server provider, and never sent to a base URL a node chose', async () => {
    expect(resolve({}).label).toMatch(/llm\.example\.com/);
    const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
    // A node's own base URL without a key of its own is called without one (a local server needs none).
    await resolve({ baseURL: elsewhere.baseURL }).chat(chat);
    // A node that brings its own key sends that one.
    await resolve({ baseURL: elsewhere.baseURL, apiKey: 'its-own-key' }).chat(chat);
    expect(elsewhere.tokens).toEqual(['no-key', 'its-own-key']);
  });
});

describe('SECRET_<NAME> in an LLM node with its own base URL', () => {
  const secrets = envSecrets({
    SECRET_DEEPSEEK: 'sk-deepseek-value',
    SECRET_DEEPSEEK_HOSTS: 'api.deepseek.com',
    SECRET_DB_PASSWORD: 'hunter2-hunter2',
  } as unknown as NodeJS.ProcessEnv);
  const ctx = { runId: 'r', secrets };

  it('goes to the hosts SECRET_<NAME>_HOSTS lists', async () => {
    const s = await providerSettings(ctx, {
      provider: { baseUrl: 'https://api.deepseek.com/v1', apiKeySecret: 'DEEPSEEK' },
    });
    expect(s.apiKey).toBe('sk-deepseek-value');
  });

  it('is refused anywhere else, and a secret without a host list goes to no base URL a node names', async () => {
    await expect(
      providerSettings(ctx, { provider: { baseUrl: 'https://attacker.example/v1', apiKeySecret: 'DEEPSEEK' } }),
    ).rejects.toMatchObject({ code: 'SECRET_HOST_NOT_ALLOWED' });
    await expect(
      providerSettings(ctx, { provider: { baseUrl: 'https://api.deepseek.com/v1', apiKeySecret: 'DB_PASSWORD' } }),
    ).rejects.toMatchObject({ code: 'SECRET_HOST_NOT_ALLOWED' });
  });
});

describe("a provider's error", () => {
  it('has the key it quotes replaced before it is stored', () => {
    const e = scrubbedError(new Error('Incorrect API key provided: sk-live-123456789.'), ['sk-live-123456789']);
    expect((e as Error).message).toBe('Incorrect API key provided: [redacted].');
  });
});

describe('host lists', () => {
  it('a bare host means https on the default port; host:port that port; *.domain its subdomains over https', () => {
    expect(hostsAllow(['api.example.com'], new URL('https://api.example.com/x'))).toBe(true);
    expect(hostsAllow(['api.example.com'], new URL('http://api.example.com/x'))).toBe(false);
    expect(hostsAllow(['api.example.com'], new URL('https://api.example.com:8443/x'))).toBe(false);
    expect(hostsAllow(['api.example.com:8080'], new URL('http://api.example.com:8080/x'))).toBe(true);
    expect(hostsAllow(['api.example.com:8080'], new URL('http://api.example.com:8081/x'))).toBe(false);
    expect(hostsAllow(['*.example.com'], new URL('https://a.example.com/'))).toBe(true);
    expect(hostsAllow(['*.example.com'], new URL('https://example.com.attacker.net/'))).toBe(false);
    expect(hostsAllow(['*.example.com'], new URL('https://badexample.com/'))).toBe(false);
  });
});
