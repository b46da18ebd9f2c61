/**
 * Guarantee: KNOWLEDGE_ES_CJK_ANALYZER picks how a new Elasticsearch index tokenizes Chinese — `cjk` bigrams (built
 * in, the default and what older indexes have), or the smartcn, IK or ICU plugin's segmenter — with the English part
 * of the analyzer unchanged in every choice; the choice is recorded in the mapping's _meta; an index created with
 * another analyzer (or before the setting existed) is still accepted; a cluster without the plugin gets an error that
 * names the plugin and the setting; a misspelt value stops start-up. Asserted body by body with the real client, on
 * a store given the analyzer (as the app gives it the setting:
 * test/config/every-engine-setting-takes-effect-through-the-app.test.ts).
 */
import { createRequire } from 'node:module';
import { Client } from '@elastic/elasticsearch';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseSettings } from '@/engine/config/settings';
import { ENGLISH_STOP_LIST } from '@/engine/knowledge/analyzer';
import { CJK_ANALYZERS, ElasticsearchKnowledgeStore, indexDefinition } from '@/engine/knowledge/elasticsearch-store';
import { FakeElasticsearch } from './support/fake-elasticsearch';

const KB = 'kb_cjk0001';
const INDEX = `paiflow-kb-${KB}`;
const ENGLISH = ['paiflow_possessive', 'lowercase', 'paiflow_stop', 'porter_stem'];

let fake: FakeElasticsearch;
let client: Client;
beforeEach(() => {
  // A cluster with the three plugins (the start-up check without them has its own test).
  fake = new FakeElasticsearch({ plugins: ['analysis-smartcn', 'analysis-ik', 'analysis-icu'] });
  client = new Client({ node: 'http://fake-es.test:9200', Connection: fake.connection() });
});
const created = () => fake.requests.find((r) => r.method === 'PUT' && r.path === `/${INDEX}`)?.body;

describe('the CJK analyzer of new indexes', () => {
  it('defaults to the built-in cjk bigrams, the analyzer indexes had before the setting', async () => {
    await new ElasticsearchKnowledgeStore({ client }).ensureIndex({ kbId: KB, dimension: 4 });
    expect(created().settings.analysis.analyzer.paiflow_text).toEqual({
      type: 'custom',
      tokenizer: 'standard',
      filter: ['cjk_width', 'paiflow_possessive', 'lowercase', 'cjk_bigram', 'paiflow_stop', 'porter_stem'],
    });
    expect(created().mappings._meta.paiflow.cjkAnalyzer).toBe('cjk');
  });

  it.each([
    ['smartcn', 'smartcn_tokenizer', ['cjk_width', 'smartcn_stop', ...ENGLISH]],
    ['ik_smart', 'ik_smart', ['cjk_width', ...ENGLISH]],
    ['icu', 'icu_tokenizer', ['cjk_width', ...ENGLISH]],
  ] as const)('KNOWLEDGE_ES_CJK_ANALYZER=%s segments words with %s', async (choice, tokenizer, filter) => {
    await new ElasticsearchKnowledgeStore({ client, cjkAnalyzer: choice }).ensureIndex({ kbId: KB, dimension: 4 });
    const body = created();
    expect(body.settings.analysis).toEqual({
      filter: {
        paiflow_possessive: { type: 'stemmer', language: 'possessive_english' },
        paiflow_stop: { type: 'stop', stopwords: [...ENGLISH_STOP_LIST] },
        paiflow_cjk_only: { type: 'keep_types', types: ['<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>', '<HANGUL>'] },
      },
      analyzer: {
        paiflow_text: { type: 'custom', tokenizer, filter },
        // Single characters stay searchable whatever the segmenter (built in, no plugin).
        paiflow_cjk_unigram: {
          type: 'custom',
          tokenizer: 'standard',
          filter: ['cjk_width', 'lowercase', 'paiflow_cjk_only'],
        },
      },
    });
    expect(body.mappings._meta.paiflow).toEqual({ format: 1, kbId: KB, dimension: 4, cjkAnalyzer: choice });
    // Every text field still uses paiflow_text: only its tokenizer changed.
    expect(body.mappings.properties.search_text).toEqual({
      type: 'text',
      analyzer: 'paiflow_text',
      fields: { unigram: { type: 'text', analyzer: 'paiflow_cjk_unigram' } },
    });
  });

  it('only the CJK tokenization differs between the choices', () => {
    const defs = CJK_ANALYZERS.map((c) => indexDefinition({ kbId: KB, dimension: 4 }, c));
    for (const d of defs) {
      expect(d.mappings.properties).toEqual(defs[0].mappings.properties);
      expect(d.settings.analysis.filter).toEqual(defs[0].settings.analysis.filter);
      // possessive before lower-case, stop words before stemming: the English analysis of the embedded store.
      const f = d.settings.analysis.analyzer.paiflow_text.filter.filter((x) => !/cjk|smartcn/.test(x));
      expect(f).toEqual(ENGLISH);
    }
  });

  it('accepts an existing index made with another analyzer, or before the setting, as it is', async () => {
    // An index created by an earlier version: _meta without cjkAnalyzer.
    const old = indexDefinition({ kbId: KB, dimension: 4 });
    delete (old.mappings._meta.paiflow as { cjkAnalyzer?: string }).cjkAnalyzer;
    await client.indices.create({ index: INDEX, ...old });
    fake.requests.length = 0;
    const store = new ElasticsearchKnowledgeStore({ client, cjkAnalyzer: 'smartcn' });
    await store.ensureIndex({ kbId: KB, dimension: 4 });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /',
      'GET /_nodes/plugins',
      `HEAD /${INDEX}`,
      `GET /${INDEX}/_mapping`,
      `PUT /${INDEX}/_alias/${INDEX}.write`,
    ]);
  });

  it('names the missing plugin and the setting when the cluster does not know the tokenizer', async () => {
    // What Elasticsearch answers when analysis-smartcn is not installed.
    const cjs = createRequire(import.meta.url)('@elastic/elasticsearch') as typeof import('@elastic/elasticsearch');
    const reason = 'failed to find tokenizer under [smartcn_tokenizer]';
    fake.mock.clear({ method: 'PUT', path: '/:index' });
    fake.mock.add(
      { method: 'PUT', path: '/:index' },
      () =>
        new cjs.errors.ResponseError({
          body: { error: { type: 'illegal_argument_exception', reason, root_cause: [{ reason }] }, status: 400 },
          statusCode: 400,
          headers: {},
          warnings: null,
          meta: {} as never,
        } as never),
    );
    const err = await new ElasticsearchKnowledgeStore({ client, cjkAnalyzer: 'smartcn' })
      .ensureIndex({ kbId: KB, dimension: 4 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'KNOWLEDGE_ANALYZER_UNAVAILABLE' });
    expect(err.message).toContain('KNOWLEDGE_ES_CJK_ANALYZER=smartcn needs the analysis-smartcn plugin');
    expect(err.message).toContain(reason);
  });

  it('refuses a value that is not one of the four at start-up, naming the variable', () => {
    expect(() => parseSettings({ KNOWLEDGE_ES_CJK_ANALYZER: 'ik' })).toThrow(/KNOWLEDGE_ES_CJK_ANALYZER/);
    expect(parseSettings({ KNOWLEDGE_ES_CJK_ANALYZER: ' SmartCN ' }).KNOWLEDGE_ES_CJK_ANALYZER).toBe('smartcn');
    expect(parseSettings({}).KNOWLEDGE_ES_CJK_ANALYZER).toBe('cjk');
  });
});
