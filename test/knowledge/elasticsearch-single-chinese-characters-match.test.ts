/**
 * Guarantee: on Elasticsearch a one-character Chinese query finds the text that contains the character.
 * The default analyzer indexes CJK as overlapping bigrams (小猫很可爱 → 小猫 猫很 很可 可爱), which a lone 猫 never
 * equals; the `search_text.unigram` sub-field indexes each character and the BM25 clause queries both fields, so 猫
 * matches while two-character words still rank by their bigrams. English is untouched (the unigram field keeps CJK
 * tokens only). A plugin analyzer is checked at start-up: a node without the plugin is named with the fix.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createElasticsearchClient } from '@/engine/knowledge/elasticsearch-client';
import { ElasticsearchKnowledgeStore, indexDefinition } from '@/engine/knowledge/elasticsearch-store';
import type { CjkAnalyzer } from '@/engine/knowledge/elasticsearch-requests';
import { FakeElasticsearch, type FakeElasticsearchOptions } from './support/fake-elasticsearch';
import { chunk } from './support/knowledge-store-conformance';

const KB = 'kb_cjk';
const V = [0, 0, 1, 0];

function open(opts: FakeElasticsearchOptions = {}, cjkAnalyzer: CjkAnalyzer = 'cjk') {
  const fake = new FakeElasticsearch(opts);
  const client = createElasticsearchClient({ node: 'http://fake-es.test:9200', Connection: fake.connection() });
  return { fake, client, store: new ElasticsearchKnowledgeStore({ client, cjkAnalyzer }) };
}

const DOCS = [
  chunk('cat', 0, '宠物', '小猫很可爱，喜欢睡觉。', V),
  chunk('dog', 0, '宠物', '小狗每天散步。', V),
  chunk('en', 0, 'Pets', 'The kitten sleeps all day.', V),
];

describe('single Chinese characters', () => {
  it('猫 finds the chunk with 小猫; 狗 the one with 小狗; English is unaffected', async () => {
    const { store } = open();
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    await store.upsertChunks(KB, DOCS);
    const ids = async (text: string) =>
      (await store.search({ kbId: KB, text, topK: 5, mode: 'bm25' })).map((h) => h.documentId);
    expect(await ids('猫')).toEqual(['cat']);
    expect(await ids('狗')).toEqual(['dog']);
    expect(await ids('小')).toEqual(expect.arrayContaining(['cat', 'dog']));
    expect(await ids('kitten')).toEqual(['en']);
    // Hybrid too: the BM25 part of the score is there for the single character.
    const [hit] = await store.search({ kbId: KB, text: '猫', vector: V, topK: 1, mode: 'hybrid' });
    expect(hit).toMatchObject({ documentId: 'cat' });
    expect(hit.bm25).toBeGreaterThan(0);
  });

  it('a two-character word still ranks the chunk with the word above one with its characters apart', async () => {
    const { store } = open();
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    await store.upsertChunks(KB, [
      chunk('word', 0, 'a', '我们明天去散步。', V),
      chunk('apart', 0, 'b', '散会以后，大家跑步。', V),
    ]);
    const hits = await store.search({ kbId: KB, text: '散步', topK: 5, mode: 'bm25' });
    expect(hits.map((h) => h.documentId)).toEqual(['word', 'apart']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score * 2);
  });

  it('an index made before the unigram sub-field is searched as before, without an error', async () => {
    const { client, store } = open();
    const def = indexDefinition({ kbId: KB, dimension: 4 });
    const { fields: _unigram, ...searchText } = def.mappings.properties.search_text;
    await client.indices.create({
      index: `paiflow-kb-${KB}`,
      ...def,
      mappings: { ...def.mappings, properties: { ...def.mappings.properties, search_text: searchText } },
    } as never);
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    await store.upsertChunks(KB, DOCS);
    expect(await store.search({ kbId: KB, text: '猫', topK: 5, mode: 'bm25' })).toEqual([]);
    expect((await store.search({ kbId: KB, text: '小猫', topK: 5, mode: 'bm25' }))[0]).toMatchObject({
      documentId: 'cat',
    });
  });
});

describe('a plugin analyzer is checked at start-up', () => {
  it.each([
    ['smartcn', 'analysis-smartcn', 'bin/elasticsearch-plugin install analysis-smartcn'],
    ['icu', 'analysis-icu', 'bin/elasticsearch-plugin install analysis-icu'],
    ['ik_smart', 'analysis-ik', 'https://get.infini.cloud/elasticsearch/analysis-ik/9.1.0'],
  ] as const)(
    '%s without %s: KNOWLEDGE_ANALYZER_UNAVAILABLE naming the node and the fix',
    async (choice, plugin, fix) => {
      const { fake, store } = open({}, choice);
      const err = await store.check().catch((e) => e);
      expect(err).toMatchObject({ code: 'KNOWLEDGE_ANALYZER_UNAVAILABLE' });
      expect(err.message).toContain(`KNOWLEDGE_ES_CJK_ANALYZER=${choice} needs the ${plugin} plugin on every`);
      expect(err.message).toContain('fake-node-1 at fake-es.test:9200 lacks it');
      expect(err.message).toContain(fix);
      expect(err.message).toContain('or set KNOWLEDGE_ES_CJK_ANALYZER=cjk');
      // Nothing is created, and the check is made again once the plugin is there.
      expect(await store.ensureIndex({ kbId: KB, dimension: 4 }).catch((e) => e.code)).toBe(
        'KNOWLEDGE_ANALYZER_UNAVAILABLE',
      );
      expect(fake.indices.size).toBe(0);
    },
  );

  it('passes when every node has the plugin; cjk never asks; a key without monitor is not refused', async () => {
    const withPlugin = open({ plugins: ['analysis-smartcn'] }, 'smartcn');
    await expect(withPlugin.store.check()).resolves.toBeUndefined();
    const cjk = open();
    await cjk.store.check();
    expect(cjk.fake.requests.map((r) => r.path)).toEqual(['/']);
    await expect(open({ noMonitor: true }, 'smartcn').store.check()).resolves.toBeUndefined();
  });
});

// On a real server (scripts/es-real-cluster-tests.sh): the analyzers exist there and give the same answers.
const ES_URL = process.env.ELASTICSEARCH_URL;
describe.skipIf(!ES_URL)('single Chinese characters on the real server', () => {
  const kb = `kb_cjk_${randomBytes(4).toString('hex')}`;
  const real = () =>
    new ElasticsearchKnowledgeStore({
      client: createElasticsearchClient({
        node: ES_URL!,
        ...(process.env.ELASTICSEARCH_API_KEY ? { auth: { apiKey: process.env.ELASTICSEARCH_API_KEY } } : {}),
      }),
      indexPrefix: 'paiflow-test-cjk-',
    });
  afterAll(() => real().dropIndex(kb));

  it('猫 and 狗 each find their chunk; 散步 ranks the word first', async () => {
    const store = real();
    await store.ensureIndex({ kbId: kb, dimension: 4 });
    await store.upsertChunks(kb, [...DOCS, chunk('apart', 0, 'b', '散会以后，大家跑步。', V)]);
    const ids = async (text: string) =>
      (await store.search({ kbId: kb, text, topK: 5, mode: 'bm25' })).map((h) => h.documentId);
    expect(await ids('猫')).toEqual(['cat']);
    expect(await ids('狗')).toEqual(['dog']);
    expect((await ids('散步'))[0]).toBe('dog');
  });
});
