// Guarantees: the knowledge page can say how a knowledge base is searched in the UI's language — it reads back every
// wording the stores give (the embedded index with each fusion, Elasticsearch weighted, rescore or RRF), and a wording
// it does not know is left as the server gave it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import { ElasticsearchKnowledgeStore } from '@/engine/knowledge/elasticsearch-store';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { parseSearchPath } from './search-path';

describe('the search path of a knowledge base', () => {
  it('reads what the embedded index says, for each fusion', async () => {
    for (const method of ['weighted', 'rescore', 'rrf'] as const) {
      const store = new EmbeddedKnowledgeStore({
        dir: mkdtempSync(path.join(tmpdir(), 'kb-path-')),
        fusion: { method },
      });
      try {
        expect(parseSearchPath(store.describe())).toEqual({ store: 'embedded', fusion: method });
      } finally {
        await store.close();
      }
    }
  });

  it('reads what Elasticsearch says, before and after its licence is known', () => {
    const client = new Client({ node: 'http://127.0.0.1:9' });
    const es = (method: 'weighted' | 'rescore' | 'rrf') =>
      new ElasticsearchKnowledgeStore({ client, fusion: { method } });
    expect(parseSearchPath(es('weighted').describe())).toEqual({ store: 'elasticsearch', path: 'weighted' });
    expect(parseSearchPath(es('rescore').describe())).toEqual({ store: 'elasticsearch', path: 'rescore' });
    expect(parseSearchPath(es('rrf').describe())).toEqual({ store: 'elasticsearch', path: 'rrfPending' });
    expect(parseSearchPath('elasticsearch (kNN + BM25 rrf-client)')).toEqual({
      store: 'elasticsearch',
      path: 'rrfClient',
    });
    expect(parseSearchPath('elasticsearch (kNN + BM25 rrf-server)')).toEqual({
      store: 'elasticsearch',
      path: 'rrfServer',
    });
  });

  it('leaves an unknown wording alone', () => {
    expect(parseSearchPath('some future store')).toBeNull();
  });
});
