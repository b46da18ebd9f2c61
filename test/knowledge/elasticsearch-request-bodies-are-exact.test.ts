/**
 * Guarantee: the Elasticsearch store sends exactly the documented requests — the index mapping (strict, analyzer,
 * cosine dense_vector with the KB's dims), idempotent creation, a clear KNOWLEDGE_INDEX_MISMATCH for a foreign or
 * differently-sized index, the pinned int8_hnsw vector index, the write alias, bulk indexing through it with
 * require_alias, the default weighted hybrid as one _msearch (BM25 window + kNN window), kNN (k = topK × 30,
 * num_candidates 4 × k, unnamed, uncovered chunks left out) + named BM25 rescore (0.2 / 1.0; BM25 over search_text and
 * its CJK unigram sub-field), RRF, BM25 and vector queries with the KB filter inside the query,
 * every window clamped to 10,000, and delete-by-query — asserted body by body through @elastic/elasticsearch-mock with
 * the real client.
 */
import { Client } from '@elastic/elasticsearch';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENGLISH_STOP_LIST } from '@/engine/knowledge/analyzer';
import { createElasticsearchClient } from '@/engine/knowledge/elasticsearch-client';
import { ElasticsearchKnowledgeStore, indexDefinition } from '@/engine/knowledge/elasticsearch-store';
import { FakeElasticsearch } from './support/fake-elasticsearch';
import { chunk } from './support/knowledge-store-conformance';

const KB = 'kb_0123abcd';
const INDEX = `paiflow-kb-${KB}`;
const ALIAS = `${INDEX}.write`;
const BM25 = (query: string) => ({
  multi_match: { query, fields: ['search_text', 'search_text.unigram^0.5'], type: 'most_fields', _name: 'bm25' },
});
/** The unnamed BM25 clause of the client-side fusions. */
const BM25Plain = (query: string) => ({
  multi_match: { query, fields: ['search_text', 'search_text.unigram^0.5'], type: 'most_fields' },
});
const V = [0.1, 0.2, 0.3, 0.4];
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
/** Every kNN clause leaves out chunks the embedder does not read. */
const COVERED_ONLY = { bool: { must_not: [{ term: { covered: false } }] } };

let fake: FakeElasticsearch;
let client: Client;
const newStore = (opts: Partial<ConstructorParameters<typeof ElasticsearchKnowledgeStore>[0]> = {}) =>
  new ElasticsearchKnowledgeStore({ client, ...opts });
const req = () =>
  fake.requests.map((r) => ({ method: r.method, path: r.path, querystring: r.querystring, body: r.body }));

beforeEach(() => {
  fake = new FakeElasticsearch();
  client = new Client({ node: 'http://fake-es.test:9200', Connection: fake.connection() });
});

describe('index creation', () => {
  it('reads the server version, checks, then creates the index with the exact settings and mapping', async () => {
    await newStore().ensureIndex({ kbId: KB, dimension: 4 });
    expect(req()).toEqual([
      { method: 'GET', path: '/', querystring: {}, body: null },
      { method: 'HEAD', path: `/${INDEX}`, querystring: {}, body: null },
      {
        method: 'PUT',
        path: `/${INDEX}`,
        querystring: {},
        body: {
          aliases: { [ALIAS]: { is_write_index: true } },
          settings: {
            analysis: {
              filter: {
                paiflow_possessive: { type: 'stemmer', language: 'possessive_english' },
                paiflow_stop: { type: 'stop', stopwords: [...ENGLISH_STOP_LIST] },
                paiflow_cjk_only: {
                  type: 'keep_types',
                  types: ['<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>', '<HANGUL>'],
                },
              },
              analyzer: {
                paiflow_text: {
                  type: 'custom',
                  tokenizer: 'standard',
                  filter: ['cjk_width', 'paiflow_possessive', 'lowercase', 'cjk_bigram', 'paiflow_stop', 'porter_stem'],
                },
                paiflow_cjk_unigram: {
                  type: 'custom',
                  tokenizer: 'standard',
                  filter: ['cjk_width', 'lowercase', 'paiflow_cjk_only'],
                },
              },
            },
          },
          mappings: {
            dynamic: 'strict',
            _meta: { paiflow: { format: 1, kbId: KB, dimension: 4, cjkAnalyzer: 'cjk' } },
            properties: {
              kb_id: { type: 'keyword' },
              document_id: { type: 'keyword' },
              title: {
                type: 'text',
                analyzer: 'paiflow_text',
                copy_to: ['search_text'],
                fields: { keyword: { type: 'keyword', ignore_above: 1024 } },
              },
              text: { type: 'text', analyzer: 'paiflow_text', copy_to: ['search_text'] },
              search_text: {
                type: 'text',
                analyzer: 'paiflow_text',
                fields: { unigram: { type: 'text', analyzer: 'paiflow_cjk_unigram' } },
              },
              chunk_index: { type: 'integer' },
              start: { type: 'integer' },
              end: { type: 'integer' },
              page: { type: 'integer' },
              covered: { type: 'boolean' },
              headings: { type: 'text', analyzer: 'paiflow_text' },
              heading_path: { type: 'keyword', index: false, doc_values: false },
              context: { type: 'object', enabled: false },
              embedding: {
                type: 'dense_vector',
                dims: 4,
                index: true,
                similarity: 'cosine',
                index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 },
              },
            },
          },
        },
      },
    ]);
  });

  it('is idempotent: an existing matching index is verified through its mapping, never re-created', async () => {
    await newStore().ensureIndex({ kbId: KB, dimension: 4 });
    fake.requests.length = 0;
    const again = newStore(); // a new process: nothing cached
    await again.ensureIndex({ kbId: KB, dimension: 4 });
    await again.ensureIndex({ kbId: KB, dimension: 4 });
    expect(req().map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /',
      `HEAD /${INDEX}`,
      `GET /${INDEX}/_mapping`,
      `PUT /${INDEX}/_alias/${ALIAS}`,
    ]);
    expect(fake.requests.at(-1)!.body).toEqual({ is_write_index: true });
  });

  it('treats "already exists" from a concurrent creator as success after verifying the mapping', async () => {
    const a = newStore();
    const b = newStore();
    await Promise.all([a.ensureIndex({ kbId: KB, dimension: 4 }), b.ensureIndex({ kbId: KB, dimension: 4 })]);
    expect(fake.indices.size).toBe(1);
  });

  it('refuses an index with another dimension, naming both', async () => {
    await newStore().ensureIndex({ kbId: KB, dimension: 8 });
    const err = await newStore()
      .ensureIndex({ kbId: KB, dimension: 4 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_INDEX_MISMATCH' });
    expect(err.message).toMatch(/8 dimensions, the knowledge base 4/);
  });

  it('refuses an index whose vectors another quantization indexes (9.1+ default bbq_hnsw), naming it', async () => {
    const def = indexDefinition({ kbId: KB, dimension: 4 });
    const embedding = { ...def.mappings.properties.embedding, index_options: { type: 'bbq_hnsw' } };
    await client.indices.create({
      index: INDEX,
      ...def,
      mappings: { ...def.mappings, properties: { ...def.mappings.properties, embedding } },
    } as never);
    const err = await newStore()
      .ensureIndex({ kbId: KB, dimension: 4 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_INDEX_MISMATCH' });
    expect(err.message).toMatch(/indexed as bbq_hnsw, not int8_hnsw/);
  });

  it('refuses an index PaiFlow did not create', async () => {
    await client.indices.create({ index: INDEX, mappings: { properties: { body: { type: 'text' } } } });
    const err = await newStore()
      .ensureIndex({ kbId: KB, dimension: 4 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_INDEX_MISMATCH' });
    expect(err.message).toMatch(/not created by PaiFlow/);
  });

  it('refuses a server older than 8.15 or of major 10+, naming its version; accepts 8.15 to 9.x', async () => {
    for (const [version, ok] of [
      ['8.14.3', false],
      ['7.17.0', false],
      ['10.0.0', false],
      ['8.15.0', true],
      ['8.19.2', true],
      ['9.2.0', true],
    ] as const) {
      fake = new FakeElasticsearch({ version });
      // The client built for both majors (8.x refuses the 9.x client's own headers: see the media-type tests).
      client = createElasticsearchClient({ node: 'http://fake-es.test:9200', Connection: fake.connection() });
      const res = newStore()
        .ensureIndex({ kbId: KB, dimension: 4 })
        .then(
          () => 'ok',
          (e) => e,
        );
      if (ok) await expect(res).resolves.toBe('ok');
      else {
        const err = await res;
        expect(err).toMatchObject({ code: 'KNOWLEDGE_VERSION_UNSUPPORTED' });
        expect(err.message).toContain(`Elasticsearch ${version} at fake-es.test:9200 is not supported`);
        expect(fake.indices.size).toBe(0);
      }
    }
  });

  it('refuses an index prefix Elasticsearch cannot name indexes with, naming the variable', () => {
    for (const [prefix, why] of [
      ['PaiFlow-', /upper-case/],
      ['kb/', /contains "\/"/],
      ['kb:', /contains ":"/],
      ['_kb-', /starts with "_"/],
      ['', /is empty/],
    ] as const) {
      expect(() => newStore({ indexPrefix: prefix })).toThrow(why);
      expect(() => newStore({ indexPrefix: prefix })).toThrow(/ELASTICSEARCH_INDEX_PREFIX/);
    }
    expect(() => newStore({ indexPrefix: 'team-a.kb-' })).not.toThrow();
  });

  it('drops with ignore_unavailable', async () => {
    await newStore().dropIndex(KB);
    expect(req()).toEqual([
      { method: 'DELETE', path: `/${INDEX}`, querystring: { ignore_unavailable: 'true' }, body: null },
    ]);
  });
});

describe('writes', () => {
  it('bulk-indexes chunks with ids, the KB id and the vector, and waits for refresh', async () => {
    const store = newStore({ bulkSize: 2 });
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    fake.requests.length = 0;
    await store.upsertChunks(KB, [
      chunk('doc_a', 0, 'A', 'alpha text', V, 3),
      chunk('doc_a', 1, 'A', 'beta text', V),
      chunk('doc_b', 0, 'B', 'gamma', V),
    ]);
    const doc = (id: string, documentId: string, title: string, i: number, text: string, page: number | null) => [
      { index: { _index: ALIAS, _id: id } },
      {
        kb_id: KB,
        document_id: documentId,
        title,
        chunk_index: i,
        start: i * 100,
        end: i * 100 + text.length,
        page,
        text,
        embedding: V,
      },
    ];
    expect(req()).toEqual([
      {
        method: 'POST',
        path: '/_bulk',
        querystring: { refresh: 'wait_for', require_alias: 'true' },
        body: [
          ...doc('doc_a:0', 'doc_a', 'A', 0, 'alpha text', 3),
          ...doc('doc_a:1', 'doc_a', 'A', 1, 'beta text', null),
        ],
      },
      {
        method: 'POST',
        path: '/_bulk',
        querystring: { refresh: 'wait_for', require_alias: 'true' },
        body: doc('doc_b:0', 'doc_b', 'B', 0, 'gamma', null),
      },
    ]);
  });

  it('turns a per-item mapping refusal into KNOWLEDGE_INDEX_MISMATCH with the reason and the fix', async () => {
    const store = newStore();
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    const other = newStore(); // no cached dimension: the server's mapping rejects the vector
    const err = await other.upsertChunks(KB, [chunk('d', 0, 'T', 'x', [1, 2])]).catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_INDEX_MISMATCH' });
    expect(err.message).toMatch(/indexing 1 of 1 chunks into .*document_parsing_exception.*different number/);
    expect(err.message).toMatch(/delete it and upload the documents again/);
  });

  it('deletes a document by query with the KB filter, refreshing', async () => {
    const store = newStore();
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    await store.upsertChunks(KB, [chunk('doc_a', 0, 'A', 'alpha', V), chunk('doc_b', 0, 'B', 'beta', V)]);
    fake.requests.length = 0;
    expect(await store.deleteDocument(KB, 'doc_a')).toBe(1);
    expect(req()).toEqual([
      {
        method: 'POST',
        path: `/${INDEX}/_delete_by_query`,
        querystring: { refresh: 'true', conflicts: 'proceed' },
        body: { query: { bool: { filter: [{ term: { kb_id: KB } }, { term: { document_id: 'doc_a' } }] } } },
      },
    ]);
  });
});

describe('search requests', () => {
  let store: ElasticsearchKnowledgeStore;
  beforeEach(async () => {
    store = newStore();
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    await store.upsertChunks(KB, [chunk('doc_a', 0, 'Invoices', 'invoice INV-7731 was paid', V, 2)]);
    fake.requests.length = 0;
  });
  const lastSearch = (querystring: Record<string, string> = { include_named_queries_score: 'true' }) => {
    const r = fake.requests.at(-1)!;
    expect({ method: r.method, path: r.path, querystring: r.querystring }).toEqual({
      method: 'POST',
      path: `/${INDEX}/_search`,
      querystring,
    });
    return r.body;
  };
  const filter = [{ term: { kb_id: KB } }];
  const knnFilter = [...filter, COVERED_ONLY];

  it('hybrid default (weighted): one _msearch of the BM25 window and the kNN window, fused in the app', async () => {
    const hits = await store.search({ kbId: KB, text: 'invoice', vector: V, topK: 5, mode: 'hybrid' });
    const r = fake.requests.at(-1)!;
    expect({ method: r.method, path: r.path }).toEqual({ method: 'POST', path: '/_msearch' });
    expect(r.body).toEqual([
      { index: INDEX },
      {
        size: 150,
        _source: SOURCE,
        track_total_hits: false,
        query: { bool: { must: [BM25Plain('invoice')], filter } },
      },
      { index: INDEX },
      {
        size: 150,
        _source: SOURCE,
        track_total_hits: false,
        knn: { field: 'embedding', query_vector: V, k: 150, num_candidates: 600, filter: knnFilter },
      },
    ]);
    // The only chunk is the best of both lists: 0.7 × 1 + 0.3 × 1.
    expect(hits[0]).toMatchObject({ id: 'doc_a:0', page: 2, text: 'invoice INV-7731 was paid' });
    expect(hits[0].score).toBeCloseTo(1, 6);
    expect(hits[0].bm25).toBeGreaterThan(0);
    expect(hits[0].knn).toBeCloseTo(1, 5);
  });

  it('hybrid rescore: unnamed knn (k = topK × 30, num_candidates 4k, filter inside) + named BM25 rescore', async () => {
    const hits = await store.search({
      kbId: KB,
      text: 'invoice',
      vector: V,
      topK: 5,
      mode: 'hybrid',
      fusion: { method: 'rescore' },
    });
    expect(lastSearch()).toEqual({
      size: 5,
      _source: SOURCE,
      track_total_hits: false,
      query: { knn: { field: 'embedding', query_vector: V, k: 150, num_candidates: 600, filter: knnFilter } },
      rescore: {
        window_size: 150,
        query: {
          rescore_query: BM25('invoice'),
          query_weight: 0.2,
          rescore_query_weight: 1.0,
          score_mode: 'total',
        },
      },
    });
    expect(hits[0]).toMatchObject({
      id: 'doc_a:0',
      documentId: 'doc_a',
      title: 'Invoices',
      chunkIndex: 0,
      page: 2,
      text: 'invoice INV-7731 was paid',
    });
    expect(hits[0].knn).toBeCloseTo(1, 5);
    expect(hits[0].score).toBeCloseTo(0.2 * hits[0].knn! + hits[0].bm25!, 6);
    expect(hits[0].bm25).toBeGreaterThan(0);
  });

  it('weights and candidate factor are configurable', async () => {
    const s = newStore({ fusion: { method: 'rescore', knnWeight: 0.5, bm25Weight: 2, numCandidatesFactor: 10 } });
    await s.search({ kbId: KB, text: 'invoice', vector: V, topK: 3, mode: 'hybrid' });
    const body = lastSearch();
    expect(body.query.knn).toMatchObject({ k: 30, num_candidates: 120 });
    expect(body.rescore).toEqual({
      window_size: 30,
      query: {
        rescore_query: BM25('invoice'),
        query_weight: 0.5,
        rescore_query_weight: 2,
        score_mode: 'total',
      },
    });
  });

  it('hybrid rrf (enterprise licence): reads the licence, then an rrf retriever over BM25 and kNN', async () => {
    fake.licence.licence = 'enterprise';
    await store.search({ kbId: KB, text: 'invoice', vector: V, topK: 4, mode: 'hybrid', fusion: { method: 'rrf' } });
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/_license' });
    expect(lastSearch()).toEqual({
      size: 4,
      _source: SOURCE,
      track_total_hits: false,
      retriever: {
        rrf: {
          retrievers: [
            {
              standard: {
                query: { bool: { must: [BM25('invoice')], filter } },
              },
            },
            { knn: { field: 'embedding', query_vector: V, k: 120, num_candidates: 480, filter: knnFilter } },
          ],
          rank_window_size: 120,
          rank_constant: 60,
        },
      },
    });
  });

  it(
    'bm25: multi_match in a bool with the filter, over the proximity window (50); vector: ' +
      'top-level knn (k = topK, num_candidates = max(topK × 30, 50))',
    async () => {
      await store.search({ kbId: KB, text: 'invoice', topK: 2, mode: 'bm25', documentIds: ['doc_a', 'doc_b'] });
      expect(lastSearch({})).toEqual({
        size: 50,
        _source: SOURCE,
        track_total_hits: false,
        query: {
          bool: {
            must: [BM25('invoice')],
            filter: [...filter, { terms: { document_id: ['doc_a', 'doc_b'] } }],
          },
        },
      });
      await store.search({ kbId: KB, text: 'ignored', vector: V, topK: 2, mode: 'vector' });
      expect(lastSearch()).toEqual({
        size: 2,
        _source: SOURCE,
        track_total_hits: false,
        knn: { field: 'embedding', query_vector: V, k: 2, num_candidates: 60, filter: knnFilter },
      });
    },
  );

  it(
    'maps a missing index to KNOWLEDGE_INDEX_NOT_FOUND and ' + 'an unreachable server to KNOWLEDGE_STORE_UNAVAILABLE',
    async () => {
      await expect(store.search({ kbId: 'kb_missing', text: 'x', topK: 1, mode: 'bm25' })).rejects.toMatchObject({
        code: 'KNOWLEDGE_INDEX_NOT_FOUND',
      });
      const down = new ElasticsearchKnowledgeStore({
        client: new Client({ node: 'http://127.0.0.1:1', maxRetries: 0, requestTimeout: 2000 }),
      });
      await expect(down.ensureIndex({ kbId: KB, dimension: 4 })).rejects.toMatchObject({
        code: 'KNOWLEDGE_STORE_UNAVAILABLE',
      });
    },
  );

  it('clamps size, k and num_candidates to the 10,000 limits (a larger window is refused by ES)', async () => {
    await store.search({
      kbId: KB,
      text: 'invoice',
      vector: V,
      topK: 500,
      mode: 'hybrid',
      fusion: { method: 'rescore' },
    });
    expect(lastSearch()).toMatchObject({
      size: 500,
      query: { knn: { k: 10_000, num_candidates: 10_000 } },
      rescore: { window_size: 10_000 },
    });
    await store.search({ kbId: KB, text: 'invoice', topK: 20_000, mode: 'bm25' });
    expect(lastSearch({})).toMatchObject({ size: 10_000 });
  });

  it('the index definition puts the dims of the KB into the mapping', () => {
    expect(indexDefinition({ kbId: 'kb_x', dimension: 1536 }).mappings.properties.embedding).toEqual({
      type: 'dense_vector',
      dims: 1536,
      index: true,
      similarity: 'cosine',
      index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 },
    });
  });
});
