/**
 * Guarantee: on a labelled corpus with keyword-only and paraphrase-only queries, hybrid retrieval (the embedded
 * store's default fusion, real USE-lite embeddings, real BM25) has a higher recall@5 than BM25 alone and than vector
 * search alone. Prints the three figures (and the other fusion's, for the record).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { analyze } from '@/engine/knowledge/analyzer';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { UseLiteEmbedder } from '@/engine/knowledge/embedders/use-lite-embedder';
import type { FusionOptions, SearchMode } from '@/engine/knowledge/types';
import { CORPUS, QUERIES } from './support/retrieval-corpus';

const K = 5;
let dir: string;
let store: EmbeddedKnowledgeStore;
let qvecs: Float32Array[];
const embedder = new UseLiteEmbedder();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-recall-'));
  store = new EmbeddedKnowledgeStore({ dir });
  await store.ensureIndex({ kbId: 'kb_recall', dimension: 512 });
  // Embedded as the service does it: "title\ntext".
  const vecs = await embedder.embed(CORPUS.map((d) => `${d.title}\n${d.text}`));
  await store.upsertChunks(
    'kb_recall',
    CORPUS.map((d, i) => ({
      id: `${d.id}:0`,
      documentId: d.id,
      title: d.title,
      chunkIndex: 0,
      start: 0,
      end: d.text.length,
      page: null,
      text: d.text,
      vector: vecs[i],
    })),
  );
  qvecs = await embedder.embed(QUERIES.map((q) => q.q));
}, 120_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function recallAt5(mode: SearchMode, fusion?: Partial<FusionOptions>) {
  const byKind: Record<string, { hit: number; n: number }> = {};
  let hit = 0;
  const misses: string[] = [];
  for (const [i, q] of QUERIES.entries()) {
    const hits = await store.search({ kbId: 'kb_recall', text: q.q, vector: qvecs[i], topK: K, mode, fusion });
    const ok = hits.some((h) => h.documentId === q.relevant);
    if (ok) hit++;
    else misses.push(q.q);
    byKind[q.kind] ??= { hit: 0, n: 0 };
    byKind[q.kind].n++;
    if (ok) byKind[q.kind].hit++;
  }
  return { recall: hit / QUERIES.length, byKind, misses };
}

it(
  'the corpus is what it says: ≥ 30 documents, ≥ 20 queries, ' +
    'keyword queries occur verbatim, paraphrases share no term',
  () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(QUERIES.length).toBeGreaterThanOrEqual(20);
    const doc = (id: string) => CORPUS.find((d) => d.id === id)!;
    for (const q of QUERIES) {
      const d = doc(q.relevant);
      const docTerms = new Set(analyze(`${d.title}\n${d.text}`));
      if (q.kind === 'keyword') expect(d.text, q.q).toContain(q.q);
      if (q.kind === 'paraphrase')
        expect(
          analyze(q.q).filter((t) => docTerms.has(t)),
          q.q,
        ).toEqual([]);
    }
  },
);

it('embeddings are real: a paraphrase pair scores higher than an unrelated pair', async () => {
  const [a, b, c] = await embedder.embed([
    'The cat sat on the mat.',
    'A kitten is resting on a rug.',
    'Quarterly revenue rose by ten percent.',
  ]);
  const cos = (x: Float32Array, y: Float32Array) =>
    x.reduce((s, v, i) => s + v * y[i], 0) / Math.hypot(...x) / Math.hypot(...y);
  expect(cos(a, b)).toBeGreaterThan(cos(a, c) + 0.3);
});

it('hybrid recall@5 beats BM25-only and vector-only', async () => {
  const bm25 = await recallAt5('bm25');
  const vector = await recallAt5('vector');
  const hybridRescore = await recallAt5('hybrid', { method: 'rescore' });
  const hybridRrf = await recallAt5('hybrid', { method: 'rrf' });
  const hybrid = await recallAt5('hybrid'); // the store's default fusion
  const fmt = (r: typeof bm25) =>
    `${r.recall.toFixed(3)}  (${Object.entries(r.byKind)
      .map(([k, v]) => `${k} ${v.hit}/${v.n}`)
      .join(', ')})`;
  console.log(
    `[recall@5 on ${CORPUS.length} docs / ${QUERIES.length} queries]\n` +
      `  bm25-only:   ${fmt(bm25)}\n  vector-only: ${fmt(vector)}\n  hybrid:      ${fmt(hybrid)}   ← default fusion\n` +
      `  (hybrid rescore 0.2/1.0: ${fmt(hybridRescore)}; hybrid rrf: ${fmt(hybridRrf)})\n` +
      `  misses — bm25: ${JSON.stringify(bm25.misses)}\n  vector: ` +
      `${JSON.stringify(vector.misses)}\n  hybrid: ${JSON.stringify(hybrid.misses)}`,
  );
  expect(hybrid.recall).toBeGreaterThan(bm25.recall);
  expect(hybrid.recall).toBeGreaterThan(vector.recall);
});
