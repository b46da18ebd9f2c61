/**
 * Start-up refuses an Elasticsearch PaiFlow cannot talk to, naming its version (createKnowledgeStore runs the store's
 * check before the app serves anything); a supported 8.x server starts, and a server that is down at start-up is
 * left to the lazy check before the first search instead of blocking the start.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createKnowledgeStore, type KnowledgeSettings } from '@/lib/server/knowledge/create-knowledge';
import type { AppConfig } from '@/lib/server/config';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server that answers GET / like Elasticsearch `version` does (and 404 to anything else). */
async function elasticsearchAnswering(version: string): Promise<string> {
  const server = http.createServer((req, res) => {
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET' && (req.url ?? '/').split('?')[0] === '/') {
      res.end(
        JSON.stringify({
          name: 'n1',
          cluster_name: 'c',
          version: { number: version },
          tagline: 'You Know, for Search',
        }),
      );
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'index_not_found_exception', reason: 'no such index' }, status: 404 }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const knowledgeSettings = {
  KNOWLEDGE_FUSION: 'rescore',
  ELASTICSEARCH_INDEX_PREFIX: 'paiflow-kb-',
  EMBEDDING_MODEL: 'use-lite',
} as unknown as KnowledgeSettings;
const config = (url: string) => ({ elasticsearchUrl: url, dataDir: '/tmp/unused' }) as unknown as AppConfig;

describe('an Elasticsearch server at start-up', () => {
  it.each(['8.10.4', '7.17.9', '10.0.0'])('refuses %s with KNOWLEDGE_VERSION_UNSUPPORTED naming it', async (v) => {
    const url = await elasticsearchAnswering(v);
    await expect(createKnowledgeStore(config(url), knowledgeSettings)).rejects.toMatchObject({
      code: 'KNOWLEDGE_VERSION_UNSUPPORTED',
      message: expect.stringContaining(v),
    });
  });

  it.each(['8.15.0', '8.19.5', '9.1.5'])('starts on %s', async (v) => {
    const url = await elasticsearchAnswering(v);
    const store = await createKnowledgeStore(config(url), knowledgeSettings);
    expect(store.describe()).toContain('elasticsearch');
  });

  it('starts when the server is down, leaving the check to the first search', async () => {
    const url = await elasticsearchAnswering('9.1.5');
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    const store = await createKnowledgeStore(config(url), knowledgeSettings);
    expect(store.describe()).toContain('elasticsearch');
  });
});
