/**
 * Guarantee: a write can never bring back a knowledge base's index with a guessed mapping.
 * Elasticsearch auto-creates an index when a bulk names one that does not exist (dynamic mapping: no dense_vector,
 * no analyzer), so an upload racing a delete would leave an index the store refuses forever after. The store writes
 * through the KB's write alias with require_alias=true: into a dropped index the bulk fails with
 * KNOWLEDGE_INDEX_NOT_FOUND and nothing is created. Indexes made before the alias get it on first use. A key without
 * the privileges gets KNOWLEDGE_STORE_FORBIDDEN naming them, not a generic 502.
 */
import { describe, expect, it } from 'vitest';
import { createElasticsearchClient } from '@/engine/knowledge/elasticsearch-client';
import { esError } from '@/engine/knowledge/elasticsearch-errors';
import { ElasticsearchKnowledgeStore, indexDefinition } from '@/engine/knowledge/elasticsearch-store';
import { FakeElasticsearch, type FakeElasticsearchOptions } from './support/fake-elasticsearch';
import { error } from './support/fake-elasticsearch-query';
import { chunk } from './support/knowledge-store-conformance';

const KB = 'kb_alias';
const INDEX = `paiflow-kb-${KB}`;
const ALIAS = `${INDEX}.write`;
const V = [0, 1, 0, 0];

function open(opts: FakeElasticsearchOptions = {}) {
  const fake = new FakeElasticsearch(opts);
  const client = createElasticsearchClient({ node: 'http://fake-es.test:9200', Connection: fake.connection() });
  return { fake, client, store: () => new ElasticsearchKnowledgeStore({ client }) };
}

describe('the fake auto-creates on bulk as Elasticsearch does, unless require_alias', () => {
  it('a bulk into a missing index creates it with a dynamic mapping', async () => {
    const { fake, client } = open();
    const res = await client.bulk({ operations: [{ index: { _index: 'ghost', _id: '1' } }, { text: 'hi', n: 1 }] });
    expect(res.errors).toBe(false);
    expect(fake.indices.get('ghost')?.mappings.properties).toMatchObject({
      text: { type: 'text' },
      n: { type: 'long' },
    });
  });

  it('with require_alias=true it fails each item with 404 index_not_found_exception and creates nothing', async () => {
    const { fake, client } = open();
    const res = await client.bulk({
      operations: [{ index: { _index: 'ghost', _id: '1' } }, { text: 'hi' }],
      require_alias: true,
    });
    expect(res.items[0].index).toMatchObject({
      status: 404,
      error: {
        type: 'index_not_found_exception',
        reason: 'no such index [ghost] and [require_alias] request flag is [true] and [ghost] is not an alias',
      },
    });
    expect(fake.indices.size).toBe(0);
  });
});

describe('the store writes through the write alias', () => {
  it('creates the index with its write alias and bulk-indexes through it', async () => {
    const { fake, store } = open();
    const s = store();
    await s.ensureIndex({ kbId: KB, dimension: 4 });
    expect(fake.aliases.get(ALIAS)).toBe(INDEX);
    await s.upsertChunks(KB, [chunk('d1', 0, 'Pets', 'the kitten sleeps', V)]);
    const bulk = fake.requests.find((r) => r.path === '/_bulk')!;
    expect(bulk.querystring.require_alias).toBe('true');
    expect(bulk.body[0]).toEqual({ index: { _index: ALIAS, _id: 'd1:0' } });
    expect(await s.count(KB)).toBe(1);
  });

  it('an upload racing a delete fails with KNOWLEDGE_INDEX_NOT_FOUND and does not re-create the index', async () => {
    const { fake, store } = open();
    const uploader = store();
    await uploader.ensureIndex({ kbId: KB, dimension: 4 });
    await store().dropIndex(KB); // another process deletes the knowledge base
    const err = await uploader.upsertChunks(KB, [chunk('d1', 0, 'Pets', 'the kitten sleeps', V)]).catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_INDEX_NOT_FOUND' });
    expect(err.message).toMatch(/is not an alias/);
    expect(fake.indices.size).toBe(0);
    // The next ensureIndex starts afresh (the verified cache forgot the index).
    await uploader.ensureIndex({ kbId: KB, dimension: 4 });
    await uploader.upsertChunks(KB, [chunk('d1', 0, 'Pets', 'the kitten sleeps', V)]);
    expect(await uploader.count(KB)).toBe(1);
  });

  it('an index made before the write alias gets it on first use, and writes work', async () => {
    const { fake, client, store } = open();
    await client.indices.create({ index: INDEX, ...indexDefinition({ kbId: KB, dimension: 4 }) });
    expect(fake.aliases.size).toBe(0);
    const s = store();
    await s.ensureIndex({ kbId: KB, dimension: 4 });
    expect(fake.aliases.get(ALIAS)).toBe(INDEX);
    await s.upsertChunks(KB, [chunk('d1', 0, 'Pets', 'the kitten sleeps', V)]);
    expect(await s.count(KB)).toBe(1);
  });
});

describe('permission errors name the privileges', () => {
  it('a read-only key: creating the index → KNOWLEDGE_STORE_FORBIDDEN with ES’s reason and privileges', async () => {
    const { store } = open({ readOnly: true });
    const err = await store()
      .ensureIndex({ kbId: KB, dimension: 4 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_STORE_FORBIDDEN' });
    expect(err.message).toContain(`action [indices:admin/create] is unauthorized`);
    expect(err.message).toMatch(/monitor.*create_index, manage, read, write.*paiflow-kb-\*/);
  });

  it('rejected credentials (401) → KNOWLEDGE_STORE_UNAUTHORIZED naming ELASTICSEARCH_API_KEY', () => {
    const e = esError(error(401, 'security_exception', 'unable to authenticate with provided credentials'), 'x');
    expect(e).toMatchObject({ code: 'KNOWLEDGE_STORE_UNAUTHORIZED' });
    expect(e.message).toMatch(/unable to authenticate.*check ELASTICSEARCH_API_KEY/);
  });
});

describe('mapping errors', () => {
  it('a server refusing PaiFlow’s mapping at creation → KNOWLEDGE_VERSION_UNSUPPORTED with its reason', async () => {
    const { fake, store } = open({ version: '8.19.2' });
    const reason = 'unknown parameter [index_options] on mapper [embedding] of type [dense_vector]';
    fake.mock.clear({ method: 'PUT', path: '/:index' });
    fake.mock.add({ method: 'PUT', path: '/:index' }, () => error(400, 'mapper_parsing_exception', reason));
    const err = await store()
      .ensureIndex({ kbId: KB, dimension: 4 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_VERSION_UNSUPPORTED' });
    expect(err.message).toBe(
      `Elasticsearch 8.19.2 at fake-es.test:9200 refuses PaiFlow's index mapping (${reason}); ` +
        'PaiFlow needs Elasticsearch 8.15 or later, 8.x or 9.x',
    );
  });
});
