/**
 * The KnowledgeStore conformance suite: the guarantees every store (embedded, Elasticsearch) must give, run against
 * each implementation by knowledge-store.conformance.test.ts. Vectors are hand-made 4-d "topic" vectors
 * (finance, animals, weather, cooking) so expected rankings are known exactly.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkRecord, KnowledgeStore, StoreHit } from '@/engine/knowledge/types';

export interface StoreFactory {
  /** Creates the store (once per suite). */
  open(): Promise<KnowledgeStore>;
  cleanup?(store: KnowledgeStore): Promise<void>;
}

const FIN = [1, 0, 0, 0.1];
const ANIMAL = [0, 1, 0.1, 0];
const WEATHER = [0, 0, 1, 0];
const COOK = [0, 0, 0.1, 1];

export function chunk(
  documentId: string,
  chunkIndex: number,
  title: string,
  text: string,
  vector: number[],
  page: number | null = null,
): ChunkRecord {
  return {
    id: `${documentId}:${chunkIndex}`,
    documentId,
    title,
    chunkIndex,
    start: chunkIndex * 100,
    end: chunkIndex * 100 + text.length,
    page,
    text,
    vector,
  };
}

export const FIXTURE: ChunkRecord[] = [
  chunk('d1', 0, 'Finance report', 'Quarterly revenue grew and invoice INV-7731 was paid in full.', FIN, 1),
  chunk('d1', 1, 'Finance report', 'The marketing budget doubled compared with last year.', [0.9, 0.1, 0, 0], 2),
  chunk('d2', 0, 'Pets', 'The kitten chased a mouse across the garden.', ANIMAL),
  chunk('d2', 1, 'Pets', 'Dogs and cats are the most popular pets.', [0.1, 0.9, 0, 0]),
  chunk('d3', 0, 'Forecast', 'Heavy rain and thunderstorms are expected tomorrow.', WEATHER),
  chunk('d4', 0, 'Recipes', 'Simmer the tomato sauce for twenty minutes.', COOK),
];

const ids = (hits: StoreHit[]) => hits.map((h) => h.id);
const sortedDesc = (hits: StoreHit[]) => hits.every((h, i) => i === 0 || hits[i - 1].score >= h.score - 1e-9);

export function knowledgeStoreConformance(name: string, factory: StoreFactory) {
  describe(`KnowledgeStore conformance: ${name}`, () => {
    let store: KnowledgeStore;
    const suffix = randomBytes(4).toString('hex');
    const kb = `kb_conf_${suffix}`;
    const other = `kb_other_${suffix}`;

    beforeAll(async () => {
      store = await factory.open();
      await store.ensureIndex({ kbId: kb, dimension: 4 });
      await store.ensureIndex({ kbId: other, dimension: 4 });
      await store.upsertChunks(kb, FIXTURE);
      await store.upsertChunks(other, [
        chunk('x1', 0, 'Elsewhere', 'Another invoice INV-7731 in another knowledge base.', FIN),
      ]);
    });

    afterAll(async () => {
      await store?.dropIndex(kb).catch(() => {});
      await store?.dropIndex(other).catch(() => {});
      await factory.cleanup?.(store);
      await store?.close();
    });

    it('creates indexes idempotently and refuses a different dimension for an existing index', async () => {
      await store.ensureIndex({ kbId: kb, dimension: 4 });
      await expect(store.ensureIndex({ kbId: kb, dimension: 8 })).rejects.toMatchObject({
        code: 'KNOWLEDGE_INDEX_MISMATCH',
      });
      expect(await store.count(kb)).toBe(FIXTURE.length);
    });

    it('counts chunks per knowledge base and per document', async () => {
      expect(await store.count(kb, 'd1')).toBe(2);
      expect(await store.count(kb, 'd3')).toBe(1);
      expect(await store.count(kb, 'nope')).toBe(0);
      expect(await store.count(other)).toBe(1);
    });

    it(
      'bm25: ranks the exact rare term first, stems, returns only matching chunks, reports bm25 (the score adds ' +
        'only the proximity boost)',
      async () => {
        const hits = await store.search({ kbId: kb, text: 'invoice INV-7731', topK: 5, mode: 'bm25' });
        expect(hits[0].id).toBe('d1:0');
        expect(hits.every((h) => h.bm25 !== null && h.bm25 > 0 && h.score >= h.bm25 - 1e-6 && h.knn === null)).toBe(
          true,
        );
        const one = await store.search({ kbId: kb, text: 'invoice', topK: 5, mode: 'bm25' });
        expect(one.every((h) => Math.abs(h.score - h.bm25!) < 1e-6)).toBe(true);
        expect(hits[0]).toMatchObject({
          documentId: 'd1',
          title: 'Finance report',
          chunkIndex: 0,
          page: 1,
          start: 0,
          text: FIXTURE[0].text,
        });
        // Porter stemming on both sides: "thunderstorm" ~ "thunderstorms", "chasing" ~ "chased".
        expect(ids(await store.search({ kbId: kb, text: 'thunderstorm', topK: 5, mode: 'bm25' }))).toEqual(['d3:0']);
        expect(ids(await store.search({ kbId: kb, text: 'chasing kittens', topK: 5, mode: 'bm25' }))).toEqual(['d2:0']);
        // Stop words alone match nothing; unknown words match nothing.
        expect(await store.search({ kbId: kb, text: 'the and of', topK: 5, mode: 'bm25' })).toEqual([]);
        expect(await store.search({ kbId: kb, text: 'zeppelin', topK: 5, mode: 'bm25' })).toEqual([]);
      },
    );

    it('bm25: titles are searchable and more matching terms rank higher', async () => {
      const hits = await store.search({ kbId: kb, text: 'pets cats', topK: 5, mode: 'bm25' });
      expect(hits[0].id).toBe('d2:1'); // "pets" in title and text + "cats"
      expect(ids(hits)).toContain('d2:0'); // title "Pets" only
      expect(sortedDesc(hits)).toBe(true);
    });

    it('vector: exact cosine kNN, knn = (1 + cos) / 2 as the score, best first', async () => {
      const hits = await store.search({ kbId: kb, text: '', vector: ANIMAL, topK: 3, mode: 'vector' });
      expect(ids(hits).slice(0, 2)).toEqual(['d2:0', 'd2:1']);
      expect(hits[0].knn).toBeCloseTo(1, 4);
      expect(
        hits.every(
          (h) =>
            h.knn !== null && h.knn >= 0 && h.knn <= 1 + 1e-6 && Math.abs(h.score - h.knn) < 1e-6 && h.bm25 === null,
        ),
      ).toBe(true);
      expect(sortedDesc(hits)).toBe(true);
      expect(hits).toHaveLength(3);
      // Opposite direction scores near 0.
      const far = await store.search({ kbId: kb, text: '', vector: [0, 0, -1, 0], topK: 6, mode: 'vector' });
      expect(far[far.length - 1].id).toBe('d3:0');
      expect(far[far.length - 1].knn).toBeCloseTo(0, 4);
    });

    it('hybrid (rescore): kNN candidates re-ranked by 0.2 × knn + 1.0 × bm25', async () => {
      // The vector points at weather, the words at the invoice: BM25 wins among the candidates.
      const hits = await store.search({
        kbId: kb,
        text: 'invoice',
        vector: WEATHER,
        topK: 3,
        mode: 'hybrid',
        fusion: { method: 'rescore' },
      });
      expect(hits[0].id).toBe('d1:0');
      expect(hits[1].id).toBe('d3:0'); // no BM25 match, best vector
      for (const h of hits) {
        expect(h.knn).not.toBeNull();
        expect(h.bm25).not.toBeNull();
        expect(h.score).toBeCloseTo(0.2 * h.knn! + 1.0 * h.bm25!, 4);
      }
      expect(hits[1].bm25).toBeCloseTo(0, 6);
      expect(sortedDesc(hits)).toBe(true);
    });

    it('hybrid (weighted, default): (1 − w)·bm25′ + w·knn′ over both lists, keyword-only and vector-only', async () => {
      // The words point at the invoice, the vector at cooking: both come back, each side's best first by its weight.
      const hits = await store.search({ kbId: kb, text: 'invoice', vector: COOK, topK: 3, mode: 'hybrid' });
      expect(ids(hits).slice(0, 2)).toEqual(['d1:0', 'd4:0']);
      // The only BM25 match: bm25′ = 1, plus its share of the vector side (its cosine to cooking is not the lowest).
      expect(hits[0].score).toBeGreaterThanOrEqual(0.7);
      expect(hits[0].score).toBeLessThan(1);
      expect(hits[1].score).toBeCloseTo(0.3, 4); // the nearest vector: knn′ = 1, no BM25
      expect(hits[1].bm25).toBeCloseTo(0, 6);
      const words = await store.search({
        kbId: kb,
        text: 'invoice',
        vector: COOK,
        topK: 3,
        mode: 'hybrid',
        fusion: { vectorWeight: 0 },
      });
      expect(ids(words)).toEqual(['d1:0']);
      const vectors = await store.search({
        kbId: kb,
        text: 'invoice',
        vector: COOK,
        topK: 1,
        mode: 'hybrid',
        fusion: { vectorWeight: 1 },
      });
      expect(ids(vectors)).toEqual(['d4:0']);
      expect(sortedDesc(hits)).toBe(true);
    });

    it('bm25: query words standing together outrank the same words apart (proximity)', async () => {
      const tmp = `kb_prox_${suffix}`;
      await store.ensureIndex({ kbId: tmp, dimension: 4 });
      await store.upsertChunks(tmp, [
        chunk('a', 0, 'Notes', 'The prefix of a route is set by the plugin that registers it.', FIN),
        chunk('b', 0, 'Notes', 'Route prefixing puts every route of a plugin under one path.', FIN),
      ]);
      expect(ids(await store.search({ kbId: tmp, text: 'route prefixing', topK: 2, mode: 'bm25' }))).toEqual([
        'b:0',
        'a:0',
      ]);
      await store.dropIndex(tmp);
    });

    it("keeps a chunk's heading path; a chunk stored covered: false takes no part in kNN", async () => {
      const tmp = `kb_cov_${suffix}`;
      await store.ensureIndex({ kbId: tmp, dimension: 4 });
      await store.upsertChunks(tmp, [
        { ...chunk('zh', 0, '退款', '退款 invoice 会在五个工作日内原路退回。', FIN), covered: false },
        { ...chunk('en', 0, 'Billing', 'Every invoice is paid by card.', WEATHER), headingPath: ['Billing', 'Cards'] },
      ]);
      const vector = await store.search({ kbId: tmp, text: '', vector: FIN, topK: 5, mode: 'vector' });
      expect(ids(vector)).toEqual(['en:0']);
      const hybrid = await store.search({ kbId: tmp, text: 'invoice', vector: FIN, topK: 5, mode: 'hybrid' });
      expect(new Set(ids(hybrid))).toEqual(new Set(['zh:0', 'en:0']));
      expect(hybrid.find((h) => h.id === 'zh:0')!.knn).toBeNull();
      expect(hybrid.find((h) => h.id === 'en:0')!.headingPath).toEqual(['Billing', 'Cards']);
      await store.dropIndex(tmp);
    });

    it('hybrid (rrf): a keyword-only match and a vector-only match both make the top results', async () => {
      const hits = await store.search({
        kbId: kb,
        text: 'INV-7731',
        vector: COOK,
        topK: 2,
        mode: 'hybrid',
        fusion: { method: 'rrf' },
      });
      expect(new Set(ids(hits))).toEqual(new Set(['d1:0', 'd4:0']));
      expect(hits.every((h) => h.score > 0 && h.score <= 2 / 61 + 1e-9)).toBe(true);
    });

    it('filters by document inside the query, in every mode', async () => {
      for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
        const hits = await store.search({
          kbId: kb,
          text: 'invoice revenue pets',
          vector: FIN,
          topK: 10,
          mode,
          documentIds: ['d2'],
        });
        expect(hits.length, mode).toBeGreaterThan(0);
        expect(
          hits.every((h) => h.documentId === 'd2'),
          mode,
        ).toBe(true);
      }
    });

    it('never returns chunks of another knowledge base', async () => {
      for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
        const mine = await store.search({ kbId: kb, text: 'another invoice knowledge', vector: FIN, topK: 10, mode });
        expect(
          mine.some((h) => h.documentId === 'x1'),
          mode,
        ).toBe(false);
        const theirs = await store.search({ kbId: other, text: 'invoice', vector: FIN, topK: 10, mode });
        expect(ids(theirs), mode).toEqual(['x1:0']);
      }
    });

    it('respects topK', async () => {
      expect(await store.search({ kbId: kb, text: '', vector: FIN, topK: 2, mode: 'vector' })).toHaveLength(2);
      expect(await store.search({ kbId: kb, text: 'invoice', vector: FIN, topK: 1, mode: 'hybrid' })).toHaveLength(1);
    });

    it('upserting an existing chunk id replaces it', async () => {
      await store.upsertChunks(kb, [chunk('d4', 0, 'Recipes', 'Bake the sourdough bread at high heat.', COOK)]);
      expect(await store.count(kb)).toBe(FIXTURE.length);
      expect(await store.search({ kbId: kb, text: 'tomato', topK: 5, mode: 'bm25' })).toEqual([]);
      expect(ids(await store.search({ kbId: kb, text: 'sourdough', topK: 5, mode: 'bm25' }))).toEqual(['d4:0']);
    });

    it('stores an uncovered chunk without a vector (BM25 finds it, kNN never), and refuses a covered one', async () => {
      const tmp = `kb_novec_${suffix}`;
      await store.ensureIndex({ kbId: tmp, dimension: 4 });
      const { vector: _none, ...zh } = chunk('zh', 0, '退款', '退款 invoice 会在五个工作日内原路退回。', FIN);
      await store.upsertChunks(tmp, [{ ...zh, covered: false }, chunk('en', 0, 'Billing', 'Every invoice.', WEATHER)]);
      expect(ids(await store.search({ kbId: tmp, text: '', vector: FIN, topK: 5, mode: 'vector' }))).toEqual(['en:0']);
      const hybrid = await store.search({ kbId: tmp, text: 'invoice', vector: FIN, topK: 5, mode: 'hybrid' });
      expect(hybrid.find((h) => h.id === 'zh:0')).toMatchObject({ knn: null, text: zh.text });
      await expect(store.upsertChunks(tmp, [{ ...zh, id: 'zh:1' }])).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
      });
      expect(await store.count(tmp)).toBe(2);
      await store.dropIndex(tmp);
    });

    it("returns a chunk's context (its parent section or its answer) as stored, and never searches it", async () => {
      const tmp = `kb_ctx_${suffix}`;
      await store.ensureIndex({ kbId: tmp, dimension: 4 });
      const parent = { kind: 'parent' as const, start: 0, end: 60, text: '发票 section: refunds and the zebra rule.' };
      const answer = { kind: 'answer' as const, start: 30, end: 50, text: 'Within five working days.' };
      await store.upsertChunks(tmp, [
        { ...chunk('p', 0, 'Guide', 'refunds are paid back', FIN), context: parent },
        { ...chunk('q', 0, 'FAQ', 'How long do refunds take?', WEATHER), context: answer },
      ]);
      const hits = await store.search({ kbId: tmp, text: 'refunds', vector: FIN, topK: 5, mode: 'hybrid' });
      expect(hits.find((h) => h.id === 'p:0')!.context).toEqual(parent);
      expect(hits.find((h) => h.id === 'q:0')!.context).toEqual(answer);
      // Words only the context holds find nothing: it is returned, not indexed.
      expect(await store.search({ kbId: tmp, text: 'zebra', topK: 5, mode: 'bm25' })).toEqual([]);
      await store.dropIndex(tmp);
    });

    it("lists a document's chunks in order, as stored, with their vectors' direction", async () => {
      const tmp = `kb_list_${suffix}`;
      await store.ensureIndex({ kbId: tmp, dimension: 4 });
      const parent = { kind: 'parent' as const, start: 0, end: 40, text: 'the whole 发票 section' };
      const { vector: _none, ...zh } = chunk('d', 2, '发票', '发票可以在订单页下载。', FIN);
      await store.upsertChunks(tmp, [
        { ...chunk('d', 1, 'Guide', 'second part', [0, 2, 0, 0]), headingPath: ['Guide', 'Part'], context: parent },
        { ...chunk('d', 0, 'Guide', 'first part', [3, 0, 0, 4]) },
        { ...zh, covered: false },
        chunk('other', 0, 'Other', 'not listed', WEATHER),
      ]);
      const list = await store.listChunks(tmp, 'd');
      expect(list.map((c) => c.id)).toEqual(['d:0', 'd:1', 'd:2']);
      expect(list[1]).toMatchObject({ text: 'second part', headingPath: ['Guide', 'Part'], context: parent });
      const unit = (v: ArrayLike<number>) => {
        const n = Math.hypot(...Array.from(v));
        return Array.from(v, (x) => Number((x / n).toFixed(5)));
      };
      expect(unit(list[0].vector!)).toEqual([0.6, 0, 0, 0.8]);
      expect(list[2]).toMatchObject({ covered: false, text: '发票可以在订单页下载。' });
      expect(list[2].vector).toBeUndefined();
      expect(await store.listChunks(tmp, 'missing')).toEqual([]);
      await store.dropIndex(tmp);
    });

    it('refuses a chunk whose vector has another dimension', async () => {
      await expect(store.upsertChunks(kb, [chunk('d9', 0, 'Bad', 'wrong size', [1, 2, 3])])).rejects.toMatchObject({
        code: 'EMBEDDING_DIMENSION_MISMATCH',
      });
      expect(await store.count(kb, 'd9')).toBe(0);
    });

    it('deletes every chunk of a document, in every mode, and reports how many', async () => {
      expect(await store.deleteDocument(kb, 'd1')).toBe(2);
      expect(await store.deleteDocument(kb, 'd1')).toBe(0);
      expect(await store.count(kb)).toBe(FIXTURE.length - 2);
      expect(await store.search({ kbId: kb, text: 'invoice revenue budget', topK: 5, mode: 'bm25' })).toEqual([]);
      const v = await store.search({ kbId: kb, text: 'invoice', vector: FIN, topK: 10, mode: 'hybrid' });
      expect(v.some((h) => h.documentId === 'd1')).toBe(false);
      expect(await store.count(other)).toBe(1);
    });

    it('drops an index idempotently; searching a dropped index is KNOWLEDGE_INDEX_NOT_FOUND', async () => {
      const tmp = `kb_tmp_${suffix}`;
      await store.ensureIndex({ kbId: tmp, dimension: 4 });
      await store.upsertChunks(tmp, [chunk('t1', 0, 'T', 'temporary text', FIN)]);
      await store.dropIndex(tmp);
      await store.dropIndex(tmp);
      await expect(store.search({ kbId: tmp, text: 'temporary', topK: 3, mode: 'bm25' })).rejects.toMatchObject({
        code: 'KNOWLEDGE_INDEX_NOT_FOUND',
      });
      // Re-creating it gives an empty index.
      await store.ensureIndex({ kbId: tmp, dimension: 4 });
      expect(await store.count(tmp)).toBe(0);
      await store.dropIndex(tmp);
    });
  });
}
