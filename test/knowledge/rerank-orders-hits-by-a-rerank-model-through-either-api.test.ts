// Guarantees of reranking (engine/knowledge/rerank.ts), against a scripted server that speaks the APIs: the `/rerank`
// API (Jina, SiliconFlow, Xinference, vLLM) and DashScope's text-rerank service are each called in their own shape
// with the credential's key, and the hits come back in the model's order with its scores, citations renumbered and
// the retrieval's score kept; an answer that leaves a document out, a refused key (never repeated) and an address
// the SSRF guard refuses each fail with their code. (Search, the knowledge node and the playground reranking through
// a credential on the built server: acceptance/knowledge-bases-rerank-hits-through-a-credential.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiReranker, candidatesFor, rerankHits } from '@/engine/knowledge/rerank';
import type { KnowledgeHit } from '@/engine/knowledge/types';
import { createGuardedFetch, type GuardedFetch } from '@/engine/net/ssrf-guard';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

let server: FakeOpenAi;
let guarded: GuardedFetch;
beforeAll(async () => {
  server = await startFakeOpenAi();
  guarded = createGuardedFetch({ allowlist: [new URL(server.baseURL).host] });
});
afterAll(() => server?.close());

const hit = (n: number, text: string): KnowledgeHit => ({
  citation: `[${n}]`,
  documentId: `doc_${n}`,
  title: `Doc ${n}`,
  chunkIndex: 0,
  page: null,
  start: 0,
  end: text.length,
  text,
  score: 1 - n / 10,
  bm25: 5 - n,
  knn: null,
});
const HITS = [
  hit(1, 'Opening hours of the library'),
  hit(2, 'How to return a borrowed book late'),
  hit(3, 'Late fees for a borrowed book returned after the due date'),
];

describe('reranking', () => {
  it('orders hits by the /rerank API’s scores, sending its key, renumbering citations', async () => {
    const reranker = new ApiReranker({
      baseURL: server.baseURL,
      apiKey: 'sk-rerank',
      model: 'bge-reranker',
      fetch: guarded,
    });
    const before = server.requests.length;
    const hits = await rerankHits(reranker, 'late fee for a borrowed book', HITS, 2);
    expect(hits.map((h) => [h.citation, h.documentId])).toEqual([
      ['[1]', 'doc_3'],
      ['[2]', 'doc_2'],
    ]);
    expect(hits[0].score).toBe(hits[0].rerank);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(hits[0].retrievalScore).toBe(HITS[2].score);
    expect(server.paths.at(-1)).toBe('/v1/rerank');
    expect(server.tokens.at(-1)).toBe('sk-rerank');
    expect(server.requests.slice(before)).toEqual([
      {
        model: 'bge-reranker',
        query: 'late fee for a borrowed book',
        documents: HITS.map((h) => h.text),
        top_n: 3,
        return_documents: false,
      },
    ]);
  });

  it('speaks DashScope’s text-rerank shape on a DashScope host', async () => {
    // The credential's base URL is DashScope's; the guard's fetch is pointed at the scripted server instead.
    const toServer: GuardedFetch = (url, init) =>
      guarded(String(url).replace('https://dashscope.aliyuncs.com', server.baseURL.replace(/\/v1$/, '')), init);
    const reranker = new ApiReranker({
      baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      apiKey: 'sk-ds',
      model: 'gte-rerank-v2',
      fetch: toServer,
    });
    const scores = await reranker.score('营业时间', ['图书馆的营业时间', '逾期罚款']);
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(server.paths.at(-1)).toBe('/api/v1/services/rerank/text-rerank/text-rerank');
    expect(server.requests.at(-1)).toEqual({
      model: 'gte-rerank-v2',
      input: { query: '营业时间', documents: ['图书馆的营业时间', '逾期罚款'] },
      parameters: { return_documents: false, top_n: 2 },
    });
  });

  it('refuses an answer leaving a document out, a rejected key (not repeated), and a refused address', async () => {
    const partial: GuardedFetch = async () =>
      new Response(JSON.stringify({ results: [{ index: 0, relevance_score: 0.9 }] }), { status: 200 });
    await expect(
      new ApiReranker({ baseURL: 'https://rerank.example/v1', model: 'm', fetch: partial }).score('q', ['a', 'b']),
    ).rejects.toMatchObject({ code: 'RERANK_FAILED', message: expect.stringContaining('no score for document 1') });

    const wrongKey = new ApiReranker({ baseURL: server.baseURL, apiKey: 'sk-wrong-key', model: 'm', fetch: guarded });
    const refused = await wrongKey.score('q', ['a']).catch((e) => e);
    expect(refused).toMatchObject({
      code: 'RERANK_FAILED',
      message: expect.stringContaining('401: the API key was rejected'),
    });
    expect(refused.message).not.toContain('sk-wrong-key');

    const metadata = new ApiReranker({ baseURL: 'http://169.254.169.254/v1', model: 'm', fetch: createGuardedFetch() });
    await expect(metadata.score('q', ['a'])).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
  });

  it('looks at four times topK candidates (at least 20) unless topN says', () => {
    expect([candidatesFor(3), candidatesFor(10), candidatesFor(5, 8), candidatesFor(10, 4)]).toEqual([20, 40, 8, 10]);
  });
});
