/**
 * Guarantee: every KnowledgeStore behaves the same — BM25, cosine kNN, both fusions, filters inside the query, KB
 * isolation, idempotent index creation, mismatch refusal, replace-by-id and deletes. Run on:
 *  - the embedded store, for real (files in a temp dir);
 *  - the Elasticsearch store with the real client against a fake ES behind @elastic/elasticsearch-mock, with a
 *    Basic licence (client-side RRF) and an Enterprise one (the rrf retriever);
 *  - the Elasticsearch store against a real server when ELASTICSEARCH_URL is set (skipped otherwise, said below).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { describe, it } from 'vitest';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { ElasticsearchKnowledgeStore } from '@/engine/knowledge/elasticsearch-store';
import { createElasticsearchClient } from '@/engine/knowledge/elasticsearch-client';
import { FakeElasticsearch } from './support/fake-elasticsearch';
import { knowledgeStoreConformance } from './support/knowledge-store-conformance';

let dir = '';
knowledgeStoreConformance('embedded', {
  async open() {
    dir = mkdtempSync(path.join(tmpdir(), 'paiflow-kstore-'));
    return new EmbeddedKnowledgeStore({ dir });
  },
  async cleanup() {
    rmSync(dir, { recursive: true, force: true });
  },
});

// Basic licence (client-side RRF) and Enterprise (the rrf retriever): both must behave the same.
for (const licence of ['basic', 'enterprise'] as const) {
  knowledgeStoreConformance(`elasticsearch (real client, fake ${licence}-licence server over elasticsearch-mock)`, {
    async open() {
      const fake = new FakeElasticsearch({ licence });
      const client = new Client({ node: 'http://fake-es.test:9200', Connection: fake.connection() });
      return new ElasticsearchKnowledgeStore({ client, indexPrefix: 'conf-' });
    },
  });
}

const ES_URL = process.env.ELASTICSEARCH_URL;
if (ES_URL) {
  knowledgeStoreConformance(`elasticsearch (real server ${new URL(ES_URL).host})`, {
    async open() {
      const client = createElasticsearchClient({
        node: ES_URL,
        ...(process.env.ELASTICSEARCH_API_KEY ? { auth: { apiKey: process.env.ELASTICSEARCH_API_KEY } } : {}),
      });
      return new ElasticsearchKnowledgeStore({
        client,
        indexPrefix: `paiflow-test-${randomBytes(4).toString('hex')}-`,
      });
    },
  });
} else {
  describe('KnowledgeStore conformance: elasticsearch (real server)', () => {
    it.skip(
      'SKIPPED: set ELASTICSEARCH_URL (e.g. http://127.0.0.1:9200) ' + 'to run the suite against a real Elasticsearch',
      () => {},
    );
  });
  console.warn(
    '[tests] ELASTICSEARCH_URL is not set: the KnowledgeStore ' +
      'conformance suite against a real Elasticsearch is SKIPPED',
  );
}
