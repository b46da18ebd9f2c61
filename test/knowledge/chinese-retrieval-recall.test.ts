/**
 * Guarantee: on a Chinese help-centre corpus written for this test (fixtures/zh-help-centre.json: 36 documents, 37
 * questions in natural sentences without spaces, half keyword-style, half paraphrases), indexed through the real
 * KnowledgeBaseService on the embedded store with the offline USE-lite embedder:
 * - BM25 with jieba words finds a relevant document in the top 5 for ≥ 90% of the questions, more than the former
 *   character-bigram analyzer does on the same corpus;
 * - hybrid is never worse than BM25: USE-lite cannot read Chinese, so its vectors take no part (every hit knn: null,
 *   the answer carries a notice) instead of adding noise; the refunds question ranks the refunds article first, not
 *   the team-invitation one;
 * - the knowledge base says its embedder does not cover Chinese and recommends a multilingual one;
 * - the index answers the same after a reopen (its postings are rebuilt from the stored text).
 * Prints recall@5 for BM25, vector and hybrid, and what they were without the coverage check and with bigrams.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeWithCjkBigrams } from '@/engine/knowledge/analyzer';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { Bm25Index } from '@/engine/knowledge/embedded/bm25-index';
import { TopK } from '@/engine/knowledge/embedded/top-k';
import { createEmbedderResolver } from '@/engine/knowledge/embedders/resolve-embedder';
import { UseLiteEmbedder } from '@/engine/knowledge/embedders/use-lite-embedder';
import { PrismaKnowledgeCatalog } from '@/engine/store/prisma/knowledge-catalog';
import { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { SearchMode } from '@/engine/knowledge/types';
import { openTestDb, type TestDb } from '../support/databases';

interface Fixture {
  documents: Array<{ id: string; title: string; text: string }>;
  queries: Array<{ q: string; relevant: string[]; kind: 'keyword' | 'paraphrase' }>;
}
const { documents: DOCS, queries: QUERIES } = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'fixtures', 'zh-help-centre.json'), 'utf8'),
) as Fixture;
const REFUNDS = '申请退款后多久能到账';
const K = 5;

let tdb: TestDb;
let dir: string;
let service: KnowledgeBaseService;
let store: EmbeddedKnowledgeStore;
let kbId: string;
/** The service's document id → the fixture's id. */
const fixtureId = new Map<string, string>();
/** USE-lite vectors of the documents ("title\ntext", as the service embeds them) and of the queries. */
let docVecs: Float32Array[];
let queryVecs: Float32Array[];

beforeAll(async () => {
  tdb = await openTestDb('pglite');
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-zh-recall-'));
  store = new EmbeddedKnowledgeStore({ dir });
  service = new KnowledgeBaseService({
    catalog: new PrismaKnowledgeCatalog(tdb.db.prisma),
    store,
    embedders: createEmbedderResolver({}),
    defaultEmbeddingModel: 'use-lite',
  });
  kbId = (await service.createKnowledgeBase({ name: '云帆协作帮助中心' })).id;
  for (const d of DOCS) fixtureId.set((await service.addDocument(kbId, { title: d.title, text: d.text })).id, d.id);
  await service.whenIdle();
  const embedder = new UseLiteEmbedder();
  docVecs = await embedder.embed(DOCS.map((d) => `${d.title}\n${d.text}`));
  queryVecs = await embedder.embed(QUERIES.map((q) => q.q));
}, 180_000);

afterAll(async () => {
  await service?.close();
  await tdb?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Recall {
  recall: number;
  keyword: string;
  paraphrase: string;
  at1: number;
}

/** recall@5 (and @1) of a ranking function that answers fixture ids, best first. */
async function recall(rank: (q: string, i: number) => Promise<string[]> | string[]): Promise<Recall> {
  const tally = { keyword: [0, 0], paraphrase: [0, 0] };
  let hit = 0;
  let at1 = 0;
  for (const [i, q] of QUERIES.entries()) {
    const ids = (await rank(q.q, i)).slice(0, K);
    const ok = ids.some((id) => q.relevant.includes(id));
    tally[q.kind][1]++;
    if (ok) {
      hit++;
      tally[q.kind][0]++;
    }
    if (q.relevant.includes(ids[0])) at1++;
  }
  const n = QUERIES.length;
  return {
    recall: hit / n,
    keyword: `${tally.keyword[0]}/${tally.keyword[1]}`,
    paraphrase: `${tally.paraphrase[0]}/${tally.paraphrase[1]}`,
    at1: at1 / n,
  };
}

const viaService = (mode: SearchMode) => async (q: string) =>
  (await service.search(kbId, { query: q, topK: K, mode })).hits.map((h) => fixtureId.get(h.documentId)!);

/** BM25 over the fixture with another analyzer (the store's own BM25 engine). */
function bm25With(analyzer: (t: string) => string[]) {
  const idx = new Bm25Index(undefined, analyzer);
  DOCS.forEach((d, slot) => idx.add(slot, `${d.title}\n${d.text}`));
  return (q: string) => {
    const res = idx.score(q, () => true);
    const top = new TopK(K);
    for (let i = 0; i < res.count; i++) top.push(res.scoreOf(res.slotAt(i)), res.slotAt(i));
    res.release();
    return top.sorted().map((h) => DOCS[h.slot].id);
  };
}

const cos = (a: Float32Array, b: Float32Array) => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i] * b[i];
  return d / Math.hypot(...a) / Math.hypot(...b);
};

/** What hybrid did before this change: bigram BM25 + every USE-lite vector, rescore 0.2 × knn + 1.0 × bm25. */
function beforeChange(q: string, i: number): string[] {
  const idx = new Bm25Index(undefined, analyzeWithCjkBigrams);
  DOCS.forEach((d, slot) => idx.add(slot, `${d.title}\n${d.text}`));
  const res = idx.score(q, () => true);
  const scored = DOCS.map((d, slot) => ({
    id: d.id,
    score: 0.2 * ((1 + cos(queryVecs[i], docVecs[slot])) / 2) + res.scoreOf(slot),
  }));
  res.release();
  return scored.sort((a, b) => b.score - a.score).map((s) => s.id);
}

describe('Chinese retrieval on the embedded store', () => {
  it('the corpus is what it says: ≥ 30 help-centre articles of 2–6 sentences, ≥ 30 natural questions', () => {
    expect(DOCS.length).toBeGreaterThanOrEqual(30);
    expect(QUERIES.length).toBeGreaterThanOrEqual(30);
    const ids = new Set(DOCS.map((d) => d.id));
    expect(ids.size).toBe(DOCS.length);
    for (const d of DOCS) {
      const sentences = d.text.split(/[。！？]/).filter((s) => s.trim()).length;
      expect(sentences, d.id).toBeGreaterThanOrEqual(2);
      expect(sentences, d.id).toBeLessThanOrEqual(6);
    }
    for (const q of QUERIES) {
      expect(q.q, 'no spaces').not.toMatch(/\s/);
      expect(q.q).toMatch(/\p{Script=Han}{4,}/u);
      for (const r of q.relevant) expect(ids.has(r), `${q.q} → ${r}`).toBe(true);
    }
    const kinds = QUERIES.map((q) => q.kind);
    expect(kinds.filter((k) => k === 'keyword').length).toBeGreaterThanOrEqual(15);
    expect(kinds.filter((k) => k === 'paraphrase').length).toBeGreaterThanOrEqual(15);
    expect(fixtureId.size).toBe(DOCS.length);
  });

  it('reports recall@5; BM25 ≥ 0.9 and above the bigram analyzer; hybrid never below BM25', async () => {
    const bm25 = await recall(viaService('bm25'));
    const vector = await recall(viaService('vector'));
    const hybrid = await recall(viaService('hybrid'));
    // Baselines on the same store: a KB whose chunks skip the coverage check (every vector counts) …
    await store.ensureIndex({ kbId: 'kb_ungated', dimension: 512 });
    await store.upsertChunks(
      'kb_ungated',
      DOCS.map((d, i) => ({
        id: `${d.id}:0`,
        documentId: d.id,
        title: d.title,
        chunkIndex: 0,
        start: 0,
        end: d.text.length,
        page: null,
        text: d.text,
        vector: docVecs[i],
      })),
    );
    const ungated =
      (mode: SearchMode, method: 'rescore' | 'rrf' = 'rescore') =>
      async (q: string, i: number) =>
        (
          await store.search({ kbId: 'kb_ungated', text: q, vector: queryVecs[i], topK: K, mode, fusion: { method } })
        ).map((h) => h.documentId);
    const vectorUngated = await recall(ungated('vector'));
    const hybridUngated = await recall(ungated('hybrid'));
    const rrfUngated = await recall(ungated('hybrid', 'rrf'));
    const refundsRrf = await ungated('hybrid', 'rrf')(
      REFUNDS,
      QUERIES.findIndex((q) => q.q === REFUNDS),
    );
    // … and BM25 with the former analyzer (character bigrams only), and the former hybrid (bigrams + every vector).
    const bigram = bm25With(analyzeWithCjkBigrams);
    const bm25Bigrams = await recall(bigram);
    const before = await recall(beforeChange);
    const row = (r: Recall) => ({
      'recall@5': Number(r.recall.toFixed(3)),
      keyword: r.keyword,
      paraphrase: r.paraphrase,
      'recall@1': Number(r.at1.toFixed(3)),
    });
    console.log(`[Chinese recall@5 on ${DOCS.length} docs / ${QUERIES.length} queries, embedder use-lite]`);
    console.table({
      'bm25 (jieba)': row(bm25),
      'vector (use-lite: no vector for Chinese → no hits)': row(vector),
      'hybrid (default rescore)': row(hybrid),
      'vector, no coverage check': row(vectorUngated),
      'hybrid, no coverage check': row(hybridUngated),
      'hybrid rrf, no coverage check': row(rrfUngated),
      'bm25, former CJK bigrams': row(bm25Bigrams),
      'hybrid before (bigrams + every vector)': row(before),
    });
    const titles = (ids: string[]) => ids.slice(0, 3).map((id) => DOCS.find((d) => d.id === id)!.title);
    console.log(
      `  "${REFUNDS}" top 3 — hybrid: ${titles(await viaService('hybrid')(REFUNDS))}; ` +
        `rrf without the coverage check: ${titles(refundsRrf)}`,
    );
    expect(bm25.recall).toBeGreaterThanOrEqual(0.9);
    expect(bm25.recall).toBeGreaterThan(bm25Bigrams.recall);
    expect(hybrid.recall).toBeGreaterThanOrEqual(bm25.recall);
    expect(vector.recall).toBe(0);
  }, 120_000);

  it('answers Chinese by BM25 alone, says so, and ranks the refunds article first for the refunds query', async () => {
    const hybrid = await service.search(kbId, { query: REFUNDS, topK: K });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.notice).toMatchObject({ code: 'EMBEDDER_DOES_NOT_COVER_QUERY' });
    expect(hybrid.notice!.message).toMatch(/bge-m3.*text-embedding-v4/);
    expect(hybrid.hits.length).toBe(K);
    expect(hybrid.hits.every((h) => h.knn === null && typeof h.bm25 === 'number')).toBe(true);
    expect(fixtureId.get(hybrid.hits[0].documentId)).toBe('z01');
    expect(hybrid.hits[0].title).toBe('退款政策');
    expect(hybrid.hits.map((h) => h.title).indexOf('邀请团队成员')).not.toBe(0);
    // Vector mode has nothing to rank with: no hits rather than noise, with the same notice.
    const vector = await service.search(kbId, { query: REFUNDS, topK: K, mode: 'vector' });
    expect(vector).toMatchObject({ hits: [], notice: { code: 'EMBEDDER_DOES_NOT_COVER_QUERY' } });
  });

  it('the knowledge base says its embedder does not cover Chinese and recommends a multilingual one', async () => {
    const kb = await service.getKnowledgeBase(kbId);
    const coverage = await service.embedderCoverage(kb);
    expect(coverage).toMatchObject({ model: 'use-lite', uncoveredChunks: DOCS.length });
    expect(coverage.covers).toMatch(/^English/);
    expect(coverage.notice).toMatch(/does not cover Chinese/);
    expect(coverage.notice).toMatch(/36 chunks are in a language it cannot read/);
    expect(coverage.notice).toMatch(/OpenAI-compatible credential.*bge-m3.*text-embedding-v4/);
  });

  it('an English question on a mixed knowledge base uses vectors for English chunks only', async () => {
    const mixed = (await service.createKnowledgeBase({ name: 'mixed' })).id;
    await service.addDocument(mixed, { title: 'Refund policy', text: 'Refunds are paid back within ten days.' });
    await service.addDocument(mixed, { title: '退款政策', text: DOCS[0].text });
    await service.whenIdle();
    const res = await service.search(mixed, { query: 'How long do refunds take?', topK: 5 });
    expect(res.notice).toBeUndefined();
    const byTitle = new Map(res.hits.map((h) => [h.title, h]));
    expect(byTitle.get('Refund policy')!.knn).toBeGreaterThan(0.5);
    // The Chinese chunk shares no term with the question and has no usable vector: it is not a candidate.
    expect(byTitle.has('退款政策')).toBe(false);
    const zh = await service.search(mixed, { query: '退款多久到账', topK: 5 });
    expect(zh.hits[0]).toMatchObject({ title: '退款政策', knn: null });
    const coverage = await service.embedderCoverage(await service.getKnowledgeBase(mixed));
    expect(coverage.uncoveredChunks).toBe(1);
    expect(coverage.notice).toMatch(/1 chunk is in a language it cannot read/);
  });

  it('answers the same after the index is reopened (postings are rebuilt from the stored text)', async () => {
    const first = await store.search({ kbId, text: REFUNDS, topK: K, mode: 'bm25' });
    // A new store object loads the index from its files (this process may open its own folder again).
    const reopened = new EmbeddedKnowledgeStore({ dir });
    try {
      const hits = await reopened.search({ kbId, text: REFUNDS, topK: K, mode: 'bm25' });
      expect(hits.map((h) => [h.id, h.score])).toEqual(first.map((h) => [h.id, h.score]));
      expect(await reopened.uncoveredCount(kbId)).toBe(DOCS.length);
    } finally {
      await reopened.close();
    }
  });
});
