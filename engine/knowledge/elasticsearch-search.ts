/**
 * The searches of the Elasticsearch knowledge store (elasticsearch-store.ts keeps indexes and writes): one request per
 * mode and fusion — BM25 with the app-side proximity boost over its window, kNN, the kNN + BM25 rescore, the `rrf`
 * retriever where the licence has it — and the client-side fusions over one `_msearch` of both lists: RRF without the
 * licence (elasticsearch-rrf.ts) and the default `weighted` fusion, with the embedded store's own function (fusion.ts).
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { PaiError } from '../errors';
import { esError, isLicenceError, isResponseError } from './elasticsearch-errors';
import { searchBody, type ChunkSource } from './elasticsearch-requests';
import { clientRrfSearches, fuseRrf, msearchItemError, type FusedHit } from './elasticsearch-rrf';
import type { ElasticsearchServer } from './elasticsearch-server';
import { fuseWeighted } from './fusion';
import { PROXIMITY_WINDOW, withProximity } from './proximity';
import type { ChunkMeta, FusionOptions, StoreHit, StoreQuery } from './types';

export class ElasticsearchSearch {
  constructor(
    private readonly client: Client,
    private readonly server: ElasticsearchServer,
  ) {}

  async search(index: string, q: StoreQuery, fusion: FusionOptions): Promise<StoreHit[]> {
    if (q.mode === 'hybrid' && q.vector && fusion.method === 'weighted') return this.searchWeighted(index, q, fusion);
    if (q.mode === 'hybrid' && q.vector && fusion.method === 'rrf' && !(await this.server.serverRrf())) {
      return this.searchClientRrf(index, q, fusion);
    }
    if (q.mode === 'bm25') return this.searchBm25(index, q, fusion);
    const body = searchBody(q, fusion);
    let res: estypes.SearchResponse<ChunkSource>;
    try {
      res = await this.client.search<ChunkSource>({ index, ...body, include_named_queries_score: true });
    } catch (e) {
      if (body.retriever && isLicenceError(e)) {
        // The licence lapsed or was downgraded since it was read: fuse here from now on.
        this.server.licenceLapsed();
        return this.searchClientRrf(index, q, fusion);
      }
      if (isResponseError(e) && e.statusCode === 404) {
        throw new PaiError('KNOWLEDGE_INDEX_NOT_FOUND', `knowledge base ${q.kbId} has no index; create it first`);
      }
      throw esError(e, `searching ${index}`);
    }
    return res.hits.hits.map((h) => {
      const score = h._score ?? 0;
      const named = (h.matched_queries && !Array.isArray(h.matched_queries) ? h.matched_queries : {}) as Record<
        string,
        number
      >;
      let bm25: number | null = null;
      let knn: number | null = null;
      if (q.mode === 'bm25') bm25 = score;
      else if (q.mode === 'vector') knn = score;
      else if (fusion.method === 'rescore') {
        // score = knnWeight × knn + bm25Weight × bm25 (bm25 0 where the rescore did not match); no text: score = knn.
        if (!q.text.trim()) [knn, bm25] = [score, 0];
        else {
          bm25 = typeof named.bm25 === 'number' ? named.bm25 : 0;
          knn = fusion.knnWeight > 0 ? Math.max(0, (score - fusion.bm25Weight * bm25) / fusion.knnWeight) : null;
        }
      } else {
        bm25 = typeof named.bm25 === 'number' ? named.bm25 : null;
      }
      return toHit({ id: String(h._id), source: h._source as ChunkSource, score, bm25, knn });
    });
  }

  /** BM25 with the proximity boost (proximity.ts) over its best PROXIMITY_WINDOW matches, as the embedded store. */
  private async searchBm25(index: string, q: StoreQuery, fusion: FusionOptions): Promise<StoreHit[]> {
    const topK = Math.min(10_000, Math.max(1, Math.floor(q.topK)));
    const body = { ...searchBody(q, fusion), size: Math.max(topK, PROXIMITY_WINDOW) };
    let res: estypes.SearchResponse<ChunkSource>;
    try {
      res = await this.client.search<ChunkSource>({ index, ...body });
    } catch (e) {
      if (isResponseError(e) && e.statusCode === 404)
        throw new PaiError('KNOWLEDGE_INDEX_NOT_FOUND', `knowledge base ${q.kbId} has no index; create it first`);
      throw esError(e, `searching ${index}`);
    }
    const hits = new Map(res.hits.hits.map((h) => [String(h._id), h]));
    const boosted = withProximity(
      q.text,
      res.hits.hits.map((h) => ({ key: String(h._id), score: h._score ?? 0 })),
      (id) => chunkText(hits.get(id)?._source),
    );
    return boosted
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
      .slice(0, topK)
      .map((b) => {
        const h = hits.get(b.key)!;
        return toHit({ id: b.key, source: h._source as ChunkSource, score: b.score, bm25: h._score ?? 0, knn: null });
      });
  }

  /** One _msearch: the BM25 window and the kNN window (clientRrfSearches), each list best first. */
  private async bothLists(index: string, q: StoreQuery, fusion: FusionOptions) {
    let res: estypes.MsearchResponse<ChunkSource>;
    try {
      res = await this.client.msearch<ChunkSource>({ searches: clientRrfSearches(index, q, fusion) });
    } catch (e) {
      throw esError(e, `searching ${index}`);
    }
    const lists = res.responses.map((r) => {
      const err = msearchItemError(r, `searching ${index}`);
      if (err) throw err;
      return (r as estypes.MsearchMultiSearchItem<ChunkSource>).hits.hits;
    });
    return { bm25: lists[0] ?? [], knn: lists[1] ?? [] };
  }

  /** RRF without the licence: both lists, fused in the app with the retriever's formula. */
  private async searchClientRrf(index: string, q: StoreQuery, fusion: FusionOptions): Promise<StoreHit[]> {
    const { bm25, knn } = await this.bothLists(index, q, fusion);
    const topK = Math.min(10_000, Math.max(1, Math.floor(q.topK)));
    return fuseRrf(bm25, knn, fusion.rankConstant, topK).map(toHit);
  }

  /** `weighted` fusion (fusion.ts) of both lists, exactly as the embedded store computes it. */
  private async searchWeighted(index: string, q: StoreQuery, fusion: FusionOptions): Promise<StoreHit[]> {
    const { bm25, knn } = await this.bothLists(index, q, fusion);
    const sources = new Map<string, ChunkSource>();
    for (const h of [...bm25, ...knn]) sources.set(String(h._id), h._source as ChunkSource);
    const raw = new Map(bm25.map((h) => [String(h._id), h._score ?? 0]));
    const fused = fuseWeighted({
      bm25: withProximity(
        q.text,
        bm25.map((h) => ({ key: String(h._id), score: h._score ?? 0 })),
        (id) => chunkText(sources.get(id)),
      ),
      knn: knn.map((h) => ({ key: String(h._id), score: h._score ?? 0 })),
      uncovered: (id) => sources.get(id)?.covered === false,
      vectorWeight: fusion.vectorWeight,
      size: Math.min(10_000, Math.max(1, Math.floor(q.topK))),
    });
    return fused.map((h) =>
      toHit({ id: h.key, source: sources.get(h.key)!, score: h.score, bm25: raw.get(h.key) ?? 0, knn: h.knn }),
    );
  }
}

/** The text a chunk's BM25 is computed on, as the embedded index holds it: title and text. */
function chunkText(s: ChunkSource | undefined): string {
  return s ? `${s.title}\n${s.text}` : '';
}

/** A stored chunk document's fields as a chunk (ChunkMeta). */
export function chunkMetaOf(id: string, s: ChunkSource): ChunkMeta {
  return {
    id,
    documentId: s.document_id,
    title: s.title,
    chunkIndex: s.chunk_index,
    start: s.start,
    end: s.end,
    page: s.page ?? null,
    ...(s.heading_path?.length ? { headingPath: s.heading_path } : {}),
    ...(s.context ? { context: s.context } : {}),
    text: s.text,
  };
}

/** A hit as the KnowledgeStore returns it; our queries always ask for _source, a hit without one has empty fields. */
function toHit(h: FusedHit<ChunkSource>): StoreHit {
  return {
    ...chunkMetaOf(h.id, h.source ?? ({} as ChunkSource)),
    score: h.score,
    bm25: h.bm25,
    knn: h.knn,
  };
}
