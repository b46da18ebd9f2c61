/**
 * Guarantee: the OpenAI-compatible embedder goes through the real `openai` SDK over HTTP (batched, in order, base64
 * decoding by the SDK), learns its dimension from the API, never leaks the key in errors; the resolver picks models
 * per KB and refuses what it cannot serve; the offline model is real and loads once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiEmbedder } from '@/engine/knowledge/embedders/openai-embedder';
import { createEmbedderResolver, defaultEmbeddingModel } from '@/engine/knowledge/embedders/resolve-embedder';
import { UseLiteEmbedder } from '@/engine/knowledge/embedders/use-lite-embedder';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

describe('OpenAI-compatible embedder', () => {
  it('embeds in batches, in input order, and learns the dimension from one probe', async () => {
    const e = new OpenAiEmbedder({
      apiKey: 'sk-test',
      baseURL: fake.baseURL,
      model: 'text-embedding-3-small',
      batchSize: 2,
    });
    expect(e.model).toBe('openai:text-embedding-3-small');
    fake.requests.length = 0;
    const vecs = await e.embed(['alpha', 'beta', 'gamma']);
    expect(vecs).toHaveLength(3);
    expect(vecs.every((v) => v instanceof Float32Array && v.length === 8)).toBe(true);
    expect(fake.requests.map((r) => r.input)).toEqual([['alpha', 'beta'], ['gamma']]);
    expect(fake.requests[0].model).toBe('text-embedding-3-small');
    // Deterministic per input: the same text gives the same vector whatever its batch position.
    const [again] = await e.embed(['gamma']);
    expect(Array.from(again)).toEqual(Array.from(vecs[2]));
    expect(Math.hypot(...vecs[0])).toBeCloseTo(1, 5);
    expect(await e.dimension()).toBe(8);
    expect(await e.dimension()).toBe(8);
    expect(fake.requests.filter((r) => r.input?.[0] === 'dimension probe')).toHaveLength(1);
  });

  it('maps API errors to EMBEDDING_FAILED without echoing the key', async () => {
    const e = new OpenAiEmbedder({
      apiKey: 'sk-secret-123',
      baseURL: fake.baseURL.replace('/v1', '/nope'),
      model: 'm',
      maxRetries: 0,
    });
    const err = await e.embed(['x']).catch((x) => x);
    expect(err).toMatchObject({ code: 'EMBEDDING_FAILED' });
    expect(err.message).not.toContain('sk-secret-123');
  });
});

describe('embedder resolver', () => {
  it('defaults to use-lite offline and to an OpenAI model with a key; EMBEDDING_MODEL overrides', () => {
    expect(defaultEmbeddingModel({})).toBe('use-lite');
    expect(defaultEmbeddingModel({ OPENAI_API_KEY: 'k' })).toBe('openai:text-embedding-3-small');
    expect(defaultEmbeddingModel({ OPENAI_API_KEY: 'k', EMBEDDING_MODEL: 'openai:text-embedding-3-large' })).toBe(
      'openai:text-embedding-3-large',
    );
  });

  it('serves each model once, and refuses an OpenAI model without a key or an unknown model', () => {
    const r = createEmbedderResolver({});
    expect(r('use-lite')).toBe(r('use-lite'));
    expect(() => r('openai:text-embedding-3-small')).toThrow(expect.objectContaining({ code: 'EMBEDDER_UNAVAILABLE' }));
    expect(() => r('word2vec')).toThrow(expect.objectContaining({ code: 'UNKNOWN_EMBEDDING_MODEL' }));
  });
});

describe('offline USE-lite', () => {
  it('is a real sentence encoder: similar sentences score higher than unrelated ones; 512-d', async () => {
    const e = new UseLiteEmbedder();
    expect(await e.dimension()).toBe(512);
    const [q, near, far, alsoFar] = await e.embed([
      'How do I reset my password?',
      'Steps to change a forgotten login password',
      'The weather in Lisbon is sunny today',
      'Our quarterly revenue grew by twelve percent',
    ]);
    const cos = (a: Float32Array, b: Float32Array) =>
      a.reduce((s, v, i) => s + v * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
    expect(q.length).toBe(512);
    expect(cos(q, near)).toBeGreaterThan(cos(q, far) + 0.2);
    expect(cos(q, near)).toBeGreaterThan(cos(q, alsoFar) + 0.2);
    // Deterministic.
    const [q2] = await e.embed(['How do I reset my password?']);
    expect(cos(q, q2)).toBeCloseTo(1, 5);
  });
});
