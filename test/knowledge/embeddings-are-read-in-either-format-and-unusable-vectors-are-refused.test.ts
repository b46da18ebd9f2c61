// Guarantees: the OpenAI-compatible embedder reads what the server answers whether it honours
// `encoding_format: "base64"` or ignores it and sends float arrays (which once became all-zero vectors, indexed
// without an error), and refuses a vector no search can use — empty, all zeros, holding a number that is not finite,
// or of another dimension than the rest — with EMBEDDING_INVALID naming the input and the problem, so nothing is
// indexed from it. The real openai SDK over real HTTP, against the scripted server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiEmbedder } from '@/engine/knowledge/embedders/openai-embedder';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

let server: FakeOpenAi;
let embedder: OpenAiEmbedder;
beforeAll(async () => {
  server = await startFakeOpenAi();
  embedder = new OpenAiEmbedder({ apiKey: 'sk-test', baseURL: server.baseURL, model: 'fake-embed', maxRetries: 0 });
});
afterEach(() => server.setEmbeddings());
afterAll(() => server?.close());

const texts = ['退货政策是什么？', 'What is the refund policy?', 'ERR-4521'];

describe('the answer format', () => {
  it('base64 as asked and float arrays from a server that ignores it give the same vectors', async () => {
    const asked = await embedder.embed(texts);
    expect(server.requests.at(-1)).toMatchObject({ encoding_format: 'base64' });
    server.setEmbeddings({ format: 'float' });
    const floats = await embedder.embed(texts);
    expect(floats.map((v) => Array.from(v))).toEqual(asked.map((v) => Array.from(v)));
    for (const v of floats) {
      expect(v).toHaveLength(8);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5); // the server's unit vectors, not zeros
    }
    expect(await embedder.dimension()).toBe(8);
  });
});

describe('a vector no search can use', () => {
  const refused = async (vector: (input: string, index: number) => number[], format: 'float' | 'as-asked') => {
    server.setEmbeddings({ format, vector });
    return embedder.embed(texts).then(
      () => null,
      (e) => e,
    );
  };

  it.each([
    ['empty', () => []],
    ['all_zeros', () => [0, 0, 0, 0, 0, 0, 0, 0]],
    ['not_finite', (_: string, i: number) => (i === 1 ? [0.5, Infinity, 0, 0] : [0.5, 0.5, 0, 0])],
    ['not_finite', (_: string, i: number) => (i === 1 ? [0.5, NaN, 0, 0] : [0.5, 0.5, 0, 0])],
    ['dimension', (_: string, i: number) => (i === 2 ? [1, 0, 0] : [1, 0, 0, 0])],
  ] as const)('%s is EMBEDDING_INVALID, as floats and as base64', async (problem, vector) => {
    for (const format of ['float', 'as-asked'] as const) {
      // NaN cannot travel as JSON (it is sent as null); in base64 it is a real NaN float.
      const err = await refused(vector as (input: string, index: number) => number[], format);
      expect(err, `${problem} (${format})`).toMatchObject({ code: 'EMBEDDING_INVALID', details: { problem } });
      expect(err.message).toMatch(/unusable vector for input \d/);
    }
  });

  it('names the input by its place among all inputs, across batches', async () => {
    const small = new OpenAiEmbedder({
      apiKey: 'sk-test',
      baseURL: server.baseURL,
      model: 'fake-embed',
      batchSize: 2,
      maxRetries: 0,
    });
    server.setEmbeddings({ format: 'float', vector: (input) => (input === 'third' ? [0, 0] : [1, 0]) });
    const err = await small.embed(['first', 'second', 'third']).catch((e) => e);
    expect(err).toMatchObject({ code: 'EMBEDDING_INVALID', details: { problem: 'all_zeros', index: 2 } });
  });
});
