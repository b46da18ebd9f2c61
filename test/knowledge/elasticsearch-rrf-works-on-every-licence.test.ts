/**
 * Guarantee: KNOWLEDGE_FUSION=rrf works on a cluster whose licence lacks RRF (Basic, the self-managed default, or an
 * expired Enterprise one) — the store reads `GET /_license` once, then sends one `_msearch` (BM25 + kNN) and fuses
 * the two lists in the app with the retriever's formula (Σ 1 / (60 + rank)), never surfacing ES's 403; a licence that
 * lapses mid-run switches to the client path; /api/health's description names the path; licence and version errors
 * from ES have their own codes (KNOWLEDGE_LICENSE_REQUIRED, KNOWLEDGE_VERSION_UNSUPPORTED), not a generic one.
 */
import { createRequire } from 'node:module';
import { Client } from '@elastic/elasticsearch';
import { beforeEach, describe, expect, it } from 'vitest';
import { esError } from '@/engine/knowledge/elasticsearch-errors';
import { ElasticsearchKnowledgeStore } from '@/engine/knowledge/elasticsearch-store';
import { FakeElasticsearch, type FakeElasticsearchOptions } from './support/fake-elasticsearch';
import { chunk } from './support/knowledge-store-conformance';

const cjs = createRequire(import.meta.url)('@elastic/elasticsearch') as typeof import('@elastic/elasticsearch');
const KB = 'kb_rrf';
const INDEX = `paiflow-kb-${KB}`;
const FIN = [1, 0, 0, 0];
const PET = [0, 1, 0, 0];
const SOURCE = [
  'document_id',
  'title',
  'chunk_index',
  'start',
  'end',
  'page',
  'text',
  'heading_path',
  'covered',
  'context',
];
const filter = [{ term: { kb_id: KB } }];
/** kNN leaves out chunks the embedder does not read. */
const knnFilter = [...filter, { bool: { must_not: [{ term: { covered: false } }] } }];

let fake: FakeElasticsearch;
let store: ElasticsearchKnowledgeStore;

async function open(opts: FakeElasticsearchOptions) {
  fake = new FakeElasticsearch(opts);
  const client = new Client({ node: 'http://fake-es.test:9200', Connection: fake.connection() });
  store = new ElasticsearchKnowledgeStore({ client, fusion: { method: 'rrf' } });
  await store.ensureIndex({ kbId: KB, dimension: 4 });
  await store.upsertChunks(KB, [
    chunk('fin', 0, 'Invoices', 'invoice INV-7731 was paid', FIN),
    chunk('pet', 0, 'Pets', 'cats and dogs at home', PET),
    chunk('mix', 0, 'Pet invoices', 'the vet sent an invoice', [0.7, 0.7, 0, 0]),
  ]);
  fake.requests.length = 0;
}
const search = () => store.search({ kbId: KB, text: 'invoice', vector: PET, topK: 3, mode: 'hybrid' });
const paths = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe('Basic licence: client-side RRF', () => {
  beforeEach(() => open({ licence: 'basic' }));

  it('reads the licence once, then sends one exact _msearch per search and never the rrf retriever', async () => {
    expect(store.describe()).toBe('elasticsearch (kNN + BM25 rrf, licence not read yet)');
    await search();
    await search();
    expect(paths()).toEqual(['GET /_license', 'POST /_msearch', 'POST /_msearch']);
    expect(fake.requests[1].body).toEqual([
      { index: INDEX },
      {
        size: 90,
        _source: SOURCE,
        track_total_hits: false,
        query: {
          bool: {
            must: [
              {
                multi_match: {
                  query: 'invoice',
                  fields: ['search_text', 'search_text.unigram^0.5'],
                  type: 'most_fields',
                },
              },
            ],
            filter,
          },
        },
      },
      { index: INDEX },
      {
        size: 90,
        _source: SOURCE,
        track_total_hits: false,
        knn: { field: 'embedding', query_vector: PET, k: 90, num_candidates: 360, filter: knnFilter },
      },
    ]);
    expect(store.describe()).toBe('elasticsearch (kNN + BM25 rrf-client)');
    expect(store.fusionPath()).toBe('rrf-client');
  });

  it('fuses with Σ 1 / (60 + rank) over the BM25 and kNN ranks, keeping each hit’s bm25 and knn score', async () => {
    const hits = await search();
    const bm25 = await store.search({ kbId: KB, text: 'invoice', topK: 90, mode: 'bm25' });
    const knn = await store.search({ kbId: KB, text: '', vector: PET, topK: 90, mode: 'vector' });
    const part = (list: typeof hits, id: string) => {
      const i = list.findIndex((h) => h.id === id);
      return i < 0 ? 0 : 1 / (60 + i + 1);
    };
    expect(hits.map((h) => h.id).sort()).toEqual(['fin:0', 'mix:0', 'pet:0']);
    for (const h of hits) {
      expect(h.score).toBeCloseTo(part(bm25, h.id) + part(knn, h.id), 12);
      expect(h.bm25).toBe(bm25.find((b) => b.id === h.id)?.score ?? null);
      expect(h.knn).toBe(knn.find((k) => k.id === h.id)?.score ?? null);
    }
    expect(hits.find((h) => h.id === 'pet:0')?.bm25).toBeNull(); // no "invoice" in it: the kNN list alone
    expect(hits.every((h, i) => i === 0 || hits[i - 1].score >= h.score)).toBe(true);
  });

  it('ranks like the server-side retriever on an Enterprise cluster with the same data', async () => {
    const client = await search();
    await open({ licence: 'enterprise' });
    const server = await search();
    expect(paths()).toEqual(['GET /_license', `POST /${INDEX}/_search`]);
    expect(store.describe()).toBe('elasticsearch (kNN + BM25 rrf-server)');
    expect(server.map((h) => h.id)).toEqual(client.map((h) => h.id));
    server.forEach((h, i) => expect(h.score).toBeCloseTo(client[i].score, 12));
  });
});

describe('licences without RRF and licences that lapse', () => {
  it('an expired Enterprise licence is fused client-side', async () => {
    await open({ licence: 'enterprise', licenceStatus: 'expired' });
    await search();
    expect(paths()).toEqual(['GET /_license', 'POST /_msearch']);
  });

  it('a licence that lapses mid-run: the 403 from ES switches to client-side RRF, not an error', async () => {
    await open({ licence: 'trial' });
    await search();
    fake.licence.licenceStatus = 'expired';
    const hits = await search();
    await search();
    expect(hits.length).toBe(3);
    expect(paths()).toEqual([
      'GET /_license',
      `POST /${INDEX}/_search`,
      `POST /${INDEX}/_search`,
      'POST /_msearch',
      'POST /_msearch',
    ]);
    expect(store.fusionPath()).toBe('rrf-client');
  });

  it('a key without the monitor privilege (403 on GET / and /_license) still works, fused client-side', async () => {
    await open({ licence: 'enterprise', noMonitor: true });
    const hits = await search();
    expect(hits.length).toBe(3);
    expect(paths()).toEqual(['GET /_license', 'POST /_msearch']);
    expect(store.fusionPath()).toBe('rrf-client');
  });

  it('rescore never reads the licence', async () => {
    await open({ licence: 'basic' });
    await store.search({
      kbId: KB,
      text: 'invoice',
      vector: PET,
      topK: 3,
      mode: 'hybrid',
      fusion: { method: 'rescore' },
    });
    expect(paths()).toEqual([`POST /${INDEX}/_search`]);
    expect(store.fusionPath('rescore')).toBe('rescore');
  });

  it('a missing index on the client path is KNOWLEDGE_INDEX_NOT_FOUND', async () => {
    await open({ licence: 'basic' });
    await expect(
      store.search({ kbId: 'kb_none', text: 'x', vector: PET, topK: 1, mode: 'hybrid' }),
    ).rejects.toMatchObject({ code: 'KNOWLEDGE_INDEX_NOT_FOUND' });
  });
});

describe('licence and version errors have their own codes', () => {
  const responseError = (status: number, error: Record<string, unknown>) =>
    new cjs.errors.ResponseError({
      body: { error: { ...error, root_cause: [error] }, status },
      statusCode: status,
      headers: {},
      warnings: null,
      meta: {} as never,
    } as never);

  it('403 non-compliant licence → KNOWLEDGE_LICENSE_REQUIRED naming the feature and the fix', () => {
    const e = esError(
      responseError(403, {
        type: 'security_exception',
        reason: 'current license is non-compliant for [Reciprocal Rank Fusion (RRF)]',
        'license.expired.feature': 'Reciprocal Rank Fusion (RRF)',
      }),
      'searching x',
    );
    expect(e.code).toBe('KNOWLEDGE_LICENSE_REQUIRED');
    expect(e.message).toMatch(/Reciprocal Rank Fusion.*KNOWLEDGE_FUSION=rescore/);
  });

  it('a media-type rejection from an older server → KNOWLEDGE_VERSION_UNSUPPORTED', () => {
    const e = esError(
      responseError(400, {
        type: 'x_content_parse_exception',
        reason: '[1:12] [rrf] unknown field [retrievers]',
      }),
      'searching x',
    );
    expect(e.code).toBe('KNOWLEDGE_VERSION_UNSUPPORTED');
    expect(e.message).toMatch(/8\.15/);
  });

  it('an 8.x refusal of compatible-with=9 → KNOWLEDGE_VERSION_UNSUPPORTED naming the client factory', () => {
    const e = esError(
      responseError(400, {
        type: 'media_type_header_exception',
        reason: 'Invalid media-type value on headers [Accept, Content-Type]',
        caused_by: {
          type: 'status_exception',
          reason:
            'Accept version must be either version 8 or 7, but found 9. ' +
            'Accept=application/vnd.elasticsearch+json; compatible-with=9',
        },
      } as never),
      'searching x',
    );
    expect(e.code).toBe('KNOWLEDGE_VERSION_UNSUPPORTED');
    expect(e.message).toMatch(/found 9.*createElasticsearchClient/);
  });

  it('any other 403 (a key without privileges) is KNOWLEDGE_STORE_FORBIDDEN naming the privileges', () => {
    const e = esError(
      responseError(403, { type: 'security_exception', reason: 'action [indices:data/read/search] is unauthorized' }),
      'searching x',
    );
    expect(e.code).toBe('KNOWLEDGE_STORE_FORBIDDEN');
    expect(e.message).toMatch(/unauthorized.*monitor.*create_index, manage, read, write/);
  });
});
