/**
 * One search of a knowledge base, after its request is checked (service.ts): the query embedded (unless the embedder
 * cannot read it: BM25 alone, with a notice) while the documents that may answer are asked of the catalogue
 * (filters, switched-off documents), the store's hits made readable (readable-hits.ts: parent sections, answers),
 * reranked when asked, and cut at the threshold.
 */
import { PaiError } from '../errors';
import type { KnowledgeBaseRecord, KnowledgeCatalog } from './catalog';
import { embedderCovers, MULTILINGUAL_ADVICE } from './embedders/coverage';
import { CHILDREN_PER_HIT, readableHits } from './readable-hits';
import { candidatesFor, rerankHits, type Reranker } from './rerank';
import type { SearchQuery } from './schemas';
import { DEFAULT_VECTOR_WEIGHT, type Embedder, type KnowledgeSearchResult, type KnowledgeStore } from './types';

/** What a search needs of its service. */
export interface SearchDeps {
  catalog: KnowledgeCatalog;
  store: KnowledgeStore;
  embedderFor(kb: KnowledgeBaseRecord): Promise<Embedder>;
  embedChecked(
    kb: KnowledgeBaseRecord,
    texts: string[],
    signal: AbortSignal | undefined,
    embedder: Embedder,
  ): Promise<Float32Array[]>;
  credentialReranker?: (r: { workspaceId: string; credentialId: string; model: string }) => Promise<Reranker>;
}

export async function searchIn(
  d: SearchDeps,
  kb: KnowledgeBaseRecord,
  r: SearchQuery,
  signal: AbortSignal | undefined,
): Promise<KnowledgeSearchResult> {
  const embedder = r.mode === 'bm25' ? undefined : await d.embedderFor(kb);
  // A query the embedder cannot read would get a vector that says nothing: no kNN for it at all.
  const notice =
    embedder && !embedderCovers(embedder, r.query)
      ? {
          code: 'EMBEDDER_DOES_NOT_COVER_QUERY',
          message:
            `the embedding model ${embedder.model} cannot read this query's language, so no vector was used ` +
            `(${r.mode === 'vector' ? 'vector search has nothing to rank' : 'ranked by BM25 alone'}). ` +
            MULTILINGUAL_ADVICE,
        }
      : undefined;
  if (notice && r.mode === 'vector') return { query: r.query, mode: r.mode, hits: [], notice };
  // Which documents may answer (filter, switched-off ones) is asked while the query is embedded.
  const [vectors, documentIds] = await Promise.all([
    embedder && !notice ? d.embedChecked(kb, [r.query], signal, embedder) : undefined,
    searchableIds(d, kb.id, r),
  ]);
  const vector = vectors?.[0];
  signal?.throwIfAborted();
  if (documentIds?.length === 0) return { query: r.query, mode: r.mode, hits: [], ...(notice ? { notice } : {}) };
  const reranker = r.rerank ? await rerankerFor(d, kb, r.rerank) : undefined;
  const wanted = r.rerank ? candidatesFor(r.topK, r.rerank.topN) : r.topK;
  // Parent–child: children of one section fold into one hit, so more children are asked for.
  const children = kb.chunking === 'parent-child' ? wanted * CHILDREN_PER_HIT : wanted;
  const found = await d.store.search({
    kbId: kb.id,
    text: r.query,
    vector,
    topK: children,
    mode: notice ? 'bm25' : r.mode,
    documentIds,
    fusion: { vectorWeight: kb.vectorWeight ?? DEFAULT_VECTOR_WEIGHT },
  });
  const retrieved = readableHits(found, wanted);
  const ranked = reranker ? await rerankHits(reranker, r.query, retrieved, r.topK, signal) : retrieved;
  // The threshold applies to the score the hits are ranked by: the rerank model's when there is one.
  const hits =
    r.threshold === undefined
      ? ranked
      : ranked.filter((h) => h.score >= r.threshold!).map((h, i) => ({ ...h, citation: `[${i + 1}]` }));
  return {
    query: r.query,
    mode: r.mode,
    hits,
    ...(notice ? { notice } : {}),
    ...(reranker ? { reranked: { model: r.rerank!.model, candidates: retrieved.length } } : {}),
  };
}

/** The documents a search may return: those it names, enabled, matching its filter; null: every document. */
async function searchableIds(d: SearchDeps, kbId: string, r: SearchQuery): Promise<string[] | undefined> {
  const allowed = await d.catalog.searchableDocumentIds(kbId, r.filter);
  if (!allowed) return r.documentIds;
  if (!r.documentIds) return allowed;
  const named = new Set(r.documentIds);
  return allowed.filter((id) => named.has(id));
}

function rerankerFor(
  d: SearchDeps,
  kb: KnowledgeBaseRecord,
  r: { credentialId: string; model: string },
): Promise<Reranker> {
  if (!d.credentialReranker)
    throw new PaiError('CREDENTIALS_UNAVAILABLE', 'credentials are not available here', {
      path: 'rerank.credentialId',
    });
  return d.credentialReranker({ workspaceId: kb.workspaceId, ...r });
}
