/**
 * Guarantee: a knowledge search can be reranked by a rerank model through a credential of the workspace — over the
 * search API and in a workflow's knowledge node — on the built server: the candidates go to the provider's `/rerank`
 * API with the credential's key, the hits come back in the model's order with its scores (the citations renumbered,
 * the retrieval score kept), the threshold applies to the rerank score, and the answer says it was reranked. A key the
 * provider refuses is 502 RERANK_FAILED without the key in the message; a rerank setting with an unknown field is
 * 400 with its path; the catalogue lists rerank models next to embedding models.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../test/support/fake-openai-server';
import { waitPortFree } from './support/c-services';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, runToEnd, until } from './support/runs';
import { readSse } from './support/sse';

const { api, ports, is, baseURL, token } = acceptance();
const stamp = Date.now();

/** The scripted model scores by the share of the query's words a passage has: late fee book → A, C, B. */
const DOCS = [
  { title: 'Fees for late books', text: 'A late fee applies to each book returned after its due date.' },
  { title: 'Book a room', text: 'Book a room, book a desk, or book a seat for the book club. Book early.' },
  { title: 'Arriving late', text: 'Late arrivals pay no fee for the reading room.' },
];
const QUERY = 'late fee book';

describe.skipIf(is('queue'))('reranking a knowledge search through a credential', () => {
  let local: FakeOpenAi;
  let kbId: string;
  let credentialId: string;

  beforeAll(async () => {
    await waitPortFree(ports.openai);
    local = await startFakeOpenAi(ports.openai);
    const cred = await api.expectStatus(
      api.post('/api/credentials', {
        name: `Rerank provider ${stamp}`,
        type: 'openai',
        data: { provider: 'openai_compatible', baseUrl: local.baseURL, apiKey: 'sk-rerank-acceptance' },
      }),
      201,
    );
    credentialId = cred.id;
    const kb = await api.expectStatus(api.post('/api/knowledge-bases', { name: `Rerank ${stamp}` }), 201);
    kbId = kb.id;
    for (const d of DOCS) await api.expectStatus(api.post(`/api/knowledge-bases/${kbId}/documents`, d), 202);
    await until(
      'the documents to be indexed',
      async () => {
        const docs: any[] = await api.expectStatus(api.get(`/api/knowledge-bases/${kbId}/documents`), 200);
        return docs.length === DOCS.length && docs.every((d) => d.status === 'indexed');
      },
      120_000,
      250,
    );
  });
  afterAll(() => local?.close());

  it('lists rerank models in the catalogue next to embedding models', async () => {
    const providers: any[] = await api.expectStatus(api.get('/api/providers'), 200);
    const siliconflow = providers.find((p) => p.id === 'siliconflow');
    expect(siliconflow.kinds).toEqual(expect.arrayContaining(['embedding', 'rerank']));
    expect(siliconflow.models).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'BAAI/bge-m3', kind: 'embedding' }),
        expect.objectContaining({ id: 'BAAI/bge-reranker-v2-m3', kind: 'rerank' }),
      ]),
    );
  });

  it('reranks the search API’s candidates with the model’s scores, and applies the threshold to them', async () => {
    const search = (body: object) => api.post(`/api/knowledge-bases/${kbId}/search`, { query: QUERY, ...body });
    const rerank = { credentialId, model: 'BAAI/bge-reranker-v2-m3', topN: 10 };
    const sent = local.requests.length;
    const res = await api.expectStatus(search({ topK: 3, rerank }), 200);
    expect(res.reranked).toEqual({ model: 'BAAI/bge-reranker-v2-m3', candidates: 3 });
    expect(res.hits.map((h: any) => [h.citation, h.title])).toEqual([
      ['[1]', 'Fees for late books'],
      ['[2]', 'Arriving late'],
      ['[3]', 'Book a room'],
    ]);
    for (const h of res.hits) {
      expect(h.score).toBe(h.rerank);
      expect(typeof h.retrievalScore).toBe('number');
    }
    expect(res.hits[0].rerank).toBeGreaterThan(0.99);
    // One call with every candidate, the credential's key, the model asked for.
    const calls = local.requests.slice(sent);
    expect(calls).toHaveLength(1);
    expect(local.paths.at(-1)).toBe('/v1/rerank');
    expect(local.tokens.at(-1)).toBe('sk-rerank-acceptance');
    expect(calls[0]).toMatchObject({ model: 'BAAI/bge-reranker-v2-m3', query: QUERY });
    expect([...calls[0].documents].sort()).toEqual(DOCS.map((d) => d.text).sort());

    const kept = await api.expectStatus(search({ topK: 3, threshold: 0.5, rerank }), 200);
    expect(kept.hits.map((h: any) => [h.citation, h.title])).toEqual([
      ['[1]', 'Fees for late books'],
      ['[2]', 'Arriving late'],
    ]);
  });

  it('reranks in a workflow’s knowledge node, and its trace carries the rerank scores', async () => {
    const graph = {
      nodes: [
        node('start', 'start'),
        node(
          'k',
          'knowledge',
          { knowledgeBaseId: kbId, query: QUERY, topK: 2, rerank: { credentialId, model: 'BAAI/bge-reranker-v2-m3' } },
          200,
        ),
        node('end', 'end', { outputs: [{ name: 'top', value: '{{k.output.hits}}' }] }, 400),
      ],
      edges: chain('start', 'k', 'end'),
    };
    const wf = await createWorkflow(api, `Rerank node ${stamp}`, graph);
    const run = await runToEnd(api, wf);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const hits = nodeOf(run, 'k').output.hits;
    expect(hits.map((h: any) => h.title)).toEqual(['Fees for late books', 'Arriving late']);
    expect(hits[0].rerank).toBeGreaterThan(hits[1].rerank);
    const stream = await readSse(`${baseURL}/api/runs/${run.id}/events`, {
      headers: { authorization: `Bearer ${token}` },
      timeoutMs: 60_000,
    });
    const retrieval = stream.events.map((e) => e.json).find((e) => e.type === 'retrieval.hits');
    expect(retrieval.data.reranked).toEqual({ model: 'BAAI/bge-reranker-v2-m3', candidates: 3 });
    expect(retrieval.data.hits.map((h: any) => h.rerank)).toEqual(hits.map((h: any) => h.rerank));
  });

  it('answers 502 RERANK_FAILED for a refused key, without it, and 400 with an unknown field’s path', async () => {
    const wrong = await api.expectStatus(
      api.post('/api/credentials', {
        name: `Rerank wrong key ${stamp}`,
        type: 'openai',
        data: { provider: 'openai_compatible', baseUrl: local.baseURL, apiKey: 'sk-wrong-rerank' },
      }),
      201,
    );
    const refused = await api.post(`/api/knowledge-bases/${kbId}/search`, {
      query: QUERY,
      rerank: { credentialId: wrong.id, model: 'BAAI/bge-reranker-v2-m3' },
    });
    expect(refused.status, refused.text).toBe(502);
    expect(refused.body.error.code).toBe('RERANK_FAILED');
    expect(refused.text).not.toContain('sk-wrong-rerank');

    const unknown = await api.post(`/api/knowledge-bases/${kbId}/search`, {
      query: QUERY,
      rerank: { credentialId, model: 'm', top_n: 3 },
    });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.error.path).toBe('rerank.top_n');
  });
});
