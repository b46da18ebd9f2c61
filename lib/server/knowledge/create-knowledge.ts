/**
 * Wires the knowledge service from the environment: Elasticsearch when ELASTICSEARCH_URL is set (optional
 * ELASTICSEARCH_API_KEY, ELASTICSEARCH_INDEX_PREFIX), else the embedded hybrid index under DATA_DIR/knowledge;
 * embeddings from the KB's recorded model (use-lite offline, or openai:<model> with OPENAI_API_KEY; EMBEDDING_MODEL
 * sets the default for new KBs); KNOWLEDGE_FUSION = rescore | rrf picks the hybrid fusion; KNOWLEDGE_ES_CJK_ANALYZER
 * and KNOWLEDGE_EXACT_KNN_LIMIT are handed to the store.
 * Documents left half-indexed by a previous process are marked failed at start-up.
 */
import path from 'node:path';
import { createEmbedderResolver, defaultEmbeddingModel } from '@/engine/knowledge/embedders/resolve-embedder';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { FusionOptions, KnowledgeStore } from '@/engine/knowledge/types';
import { PaiError } from '@/engine/errors';
import { ApiReranker } from '@/engine/knowledge/rerank';
import { OpenAiEmbedder } from '@/engine/knowledge/embedders/openai-embedder';
import type { GuardedFetch } from '@/engine/net/ssrf-guard';
import { settings, type Settings } from '@/engine/config/settings';
import type { Stores } from '@/engine/store/app/stores';
import type { AppConfig } from '../config';
import type { CredentialVault } from '../credentials/credentials';

/** The settings knowledge is wired from, besides the AppConfig: the stores are given theirs here. */
export type KnowledgeSettings = Pick<
  Settings,
  | 'KNOWLEDGE_FUSION'
  | 'ELASTICSEARCH_API_KEY'
  | 'ELASTICSEARCH_INDEX_PREFIX'
  | 'EMBEDDING_MODEL'
  | 'KNOWLEDGE_ES_CJK_ANALYZER'
  | 'KNOWLEDGE_EXACT_KNN_LIMIT'
>;

export async function createKnowledgeStore(
  config: AppConfig,
  s: KnowledgeSettings = settings(),
): Promise<KnowledgeStore> {
  const fusion: Partial<FusionOptions> = { method: s.KNOWLEDGE_FUSION };
  if (config.elasticsearchUrl) {
    const [{ createElasticsearchClient }, { ElasticsearchKnowledgeStore }] = await Promise.all([
      import('@/engine/knowledge/elasticsearch-client'),
      import('@/engine/knowledge/elasticsearch-store'),
    ]);
    // The client speaks the server's major version (compatible-with=8 or 9, learnt from GET /).
    const client = createElasticsearchClient({
      node: config.elasticsearchUrl,
      ...(s.ELASTICSEARCH_API_KEY ? { auth: { apiKey: s.ELASTICSEARCH_API_KEY } } : {}),
    });
    const store = new ElasticsearchKnowledgeStore({
      client,
      indexPrefix: s.ELASTICSEARCH_INDEX_PREFIX,
      fusion,
      cjkAnalyzer: s.KNOWLEDGE_ES_CJK_ANALYZER,
    });
    // Start-up check: an unsupported version or a missing analyzer plugin refuses to start, naming it; a server
    // that is down now is checked again before the first index check or search.
    await store.check().catch((e: { code?: string }) => {
      if (e?.code !== 'KNOWLEDGE_STORE_UNAVAILABLE') throw e;
    });
    return store;
  }
  return new EmbeddedKnowledgeStore({
    dir: path.join(config.dataDir, 'knowledge'),
    fusion,
    exactKnnLimit: s.KNOWLEDGE_EXACT_KNN_LIMIT,
  });
}

/**
 * `credentials`: knowledge bases that name an OpenAI-compatible credential embed through it (its base URL is user
 * input, so the SDK goes through the SSRF-guarded fetch).
 */
/**
 * The embedded knowledge index lives in one process's data folder: under queue mode the workers (other processes,
 * often other machines) could never read it. So queue mode without ELASTICSEARCH_URL refuses to start while knowledge
 * bases exist on the embedded index, and refuses to create new ones, naming Elasticsearch (instead of failing at run
 * time with KNOWLEDGE_INDEX_NOT_FOUND).
 */
export function knowledgeNeedsElasticsearch(count?: number): PaiError {
  const what = count
    ? `${count} knowledge base${count === 1 ? ' is' : 's are'} on the embedded index, which`
    : 'the embedded knowledge index';
  return new PaiError(
    'KNOWLEDGE_NEEDS_ELASTICSEARCH',
    `${what} only the app process can read, but in queue mode the workflows run in worker processes: ` +
      'set ELASTICSEARCH_URL for knowledge bases (documents on the embedded index must be uploaded again there), ' +
      'or run without QUEUE_MODE/WORKERS',
  );
}

export async function refuseEmbeddedKnowledgeUnderQueue(stores: Pick<Stores, 'knowledgeCatalog'>): Promise<void> {
  const count = await stores.knowledgeCatalog.countKnowledgeBases();
  if (count > 0) throw knowledgeNeedsElasticsearch(count);
}

/** A document whose indexing record has not changed for this long on PostgreSQL lost its process. */
const INDEXING_SILENT_MS = 30 * 60_000;

export async function createKnowledge(
  config: AppConfig,
  stores: Pick<Stores, 'kind' | 'knowledgeCatalog'>,
  s: KnowledgeSettings = settings(),
  credentials?: { vault: CredentialVault; fetch: GuardedFetch },
  opts: { queueMode?: boolean } = {},
): Promise<KnowledgeBaseService> {
  const embedderEnv = {
    OPENAI_API_KEY: config.openaiApiKey,
    OPENAI_BASE_URL: config.openaiBaseUrl,
    EMBEDDING_MODEL: s.EMBEDDING_MODEL,
  };
  const service = new KnowledgeBaseService({
    catalog: stores.knowledgeCatalog,
    store: await createKnowledgeStore(config, s),
    embedders: createEmbedderResolver(embedderEnv),
    defaultEmbeddingModel: defaultEmbeddingModel(embedderEnv),
    credentialEmbedder: credentials
      ? async ({ workspaceId, credentialId, model }) => {
          const cred = await credentials.vault.resolveInWorkspace(workspaceId, credentialId);
          if (cred.type !== 'openai')
            throw new PaiError('CREDENTIAL_TYPE', `credential "${cred.name}" is not an OpenAI-compatible provider`, {
              path: 'credentialId',
            });
          return new OpenAiEmbedder({
            apiKey: cred.data.apiKey,
            baseURL: cred.data.baseUrl,
            model: model.slice('openai:'.length),
            fetch: credentials.fetch as typeof fetch,
          });
        }
      : undefined,
    credentialReranker: credentials
      ? async ({ workspaceId, credentialId, model }) => {
          const cred = await credentials.vault.resolveInWorkspace(workspaceId, credentialId, 'rerank.credentialId');
          if (cred.type !== 'openai')
            throw new PaiError(
              'CREDENTIAL_TYPE',
              `credential "${cred.name}" is not an OpenAI-compatible provider (a base URL and a key)`,
              { path: 'rerank.credentialId' },
            );
          // Sent only to the credential's own origin: `<baseUrl>/rerank`, or DashScope's service path on its host.
          return new ApiReranker({
            apiKey: cred.data.apiKey,
            baseURL: cred.data.baseUrl,
            model,
            fetch: credentials.fetch,
          });
        }
      : undefined,
    refuseNew: opts.queueMode && !config.elasticsearchUrl ? () => knowledgeNeedsElasticsearch() : undefined,
  });
  // Single-process embedded database: anything unfinished is an orphan. Shared PostgreSQL: only long-silent ones —
  // at start-up and from then on (a quick restart finds its dead process's documents still fresh).
  if (stores.kind === 'pglite') await service.recover(new Date(Date.now() + 1000));
  else {
    await service.recover(new Date(Date.now() - INDEXING_SILENT_MS));
    service.recoverEvery(INDEXING_SILENT_MS / 6, INDEXING_SILENT_MS);
  }
  return service;
}
