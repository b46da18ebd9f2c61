/**
 * Guarantee: a chunk stored with `covered: false` (its embedder cannot read it) never gets a vector score in the
 * embedded store — vector search never returns it, hybrid search (rescore and RRF) ranks it by BM25 alone and its hit
 * says knn: null — even when its vector is the query's own; the mark survives a reopen and a compaction.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import type { ChunkRecord } from '@/engine/knowledge/types';

const KB = 'kb_cover';
const Q = [1, 0, 0, 0];
let dir: string;
let store: EmbeddedKnowledgeStore;

const chunk = (documentId: string, text: string, vector: number[], covered?: boolean): ChunkRecord => ({
  id: `${documentId}:0`,
  documentId,
  title: documentId,
  chunkIndex: 0,
  start: 0,
  end: text.length,
  page: null,
  text,
  vector,
  ...(covered === undefined ? {} : { covered }),
});

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-cover-'));
  store = new EmbeddedKnowledgeStore({ dir });
  await store.ensureIndex({ kbId: KB, dimension: 4 });
  await store.upsertChunks(KB, [
    chunk('en', 'refunds are paid back within five days', [0.9, 0.1, 0, 0]),
    // Its vector IS the query vector: were it counted, it would be the best kNN hit every time.
    chunk('zh', '退款 refunds 五个工作日内退回', Q, false),
    chunk('other', 'shipping takes three days', [0, 1, 0, 0], true),
  ]);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const search = (mode: 'vector' | 'hybrid', method: 'rescore' | 'rrf' = 'rescore', text = 'refunds') =>
  store.search({ kbId: KB, text, vector: Q, topK: 3, mode, fusion: { method } });

describe('chunks the embedder does not cover', () => {
  it('are never returned by vector search', async () => {
    const hits = await search('vector');
    expect(hits.map((h) => h.documentId)).toEqual(['en', 'other']);
    expect(hits.every((h) => typeof h.knn === 'number')).toBe(true);
  });

  it.each(['rescore', 'rrf'] as const)('compete on BM25 alone in hybrid (%s) search, with knn: null', async (m) => {
    const hits = await search('hybrid', m);
    const zh = hits.find((h) => h.documentId === 'zh')!;
    expect(zh).toMatchObject({ knn: null });
    expect(zh.bm25).toBeGreaterThan(0);
    if (m === 'rescore') expect(zh.score).toBeCloseTo(zh.bm25!, 10); // 0.2 × (no knn) + 1.0 × bm25
    const en = hits.find((h) => h.documentId === 'en')!;
    expect(en.knn).toBeGreaterThan(0.9);
    // Without a text match it is not a candidate at all, whatever its vector.
    expect((await search('hybrid', m, 'shipping')).map((h) => h.documentId)).not.toContain('zh');
  });

  it('keep their mark across a reopen and a compaction, and are counted', async () => {
    expect(await store.uncoveredCount(KB)).toBe(1);
    await store.close();
    store = new EmbeddedKnowledgeStore({ dir });
    expect(await store.uncoveredCount(KB)).toBe(1);
    expect((await search('vector')).map((h) => h.documentId)).not.toContain('zh');
    // 300 replaced chunks trigger a compaction into a new generation.
    for (let i = 0; i < 4; i++)
      await store.upsertChunks(
        KB,
        Array.from({ length: 100 }, (_, j) => chunk(`filler${j}`, `filler ${i}`, [0, 0, 1, 0])),
      );
    await store.deleteDocument(KB, 'other');
    expect(JSON.parse(readFileSync(path.join(dir, KB, 'manifest.json'), 'utf8')).generation).toBe(2);
    expect(await store.count(KB)).toBe(102);
    expect(await store.uncoveredCount(KB)).toBe(1);
    expect((await search('vector')).map((h) => h.documentId)).not.toContain('zh');
    expect((await search('hybrid')).find((h) => h.documentId === 'zh')).toMatchObject({ knn: null });
    await store.deleteDocument(KB, 'zh');
    expect(await store.uncoveredCount(KB)).toBe(0);
  });
});
