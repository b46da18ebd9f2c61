/**
 * Guarantee: the embedded index survives a restart with identical results, ignores a write cut short by a crash (bytes
 * past the manifest), compacts when removed chunks dominate without changing results, and refuses a second process.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import type { StoreQuery } from '@/engine/knowledge/types';
import { chunk, FIXTURE } from './support/knowledge-store-conformance';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-kpersist-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const queries: StoreQuery[] = [
  { kbId: 'kb_p', text: 'invoice pets rain', vector: [0.5, 0.5, 0, 0], topK: 4, mode: 'hybrid' },
  { kbId: 'kb_p', text: 'invoice pets rain', topK: 4, mode: 'bm25' },
  { kbId: 'kb_p', text: '', vector: [0, 0, 1, 1], topK: 4, mode: 'vector' },
  { kbId: 'kb_p', text: 'pets sauce', vector: [0, 1, 0, 1], topK: 4, mode: 'hybrid', fusion: { method: 'rrf' } },
];

it('reloads from disk with identical results (and deletes/replacements replayed)', async () => {
  const a = new EmbeddedKnowledgeStore({ dir });
  await a.ensureIndex({ kbId: 'kb_p', dimension: 4 });
  await a.upsertChunks('kb_p', FIXTURE);
  await a.upsertChunks('kb_p', [chunk('d2', 1, 'Pets', 'Parrots can learn words.', [0, 1, 0, 0.2])]);
  await a.deleteDocument('kb_p', 'd3');
  const before = await Promise.all(queries.map((q) => a.search(q)));
  await a.close();

  const b = new EmbeddedKnowledgeStore({ dir });
  const after = await Promise.all(queries.map((q) => b.search(q)));
  expect(after).toEqual(before);
  expect(await b.count('kb_p')).toBe(FIXTURE.length - 1);
  expect(await b.search({ kbId: 'kb_p', text: 'dogs', topK: 3, mode: 'bm25' })).toEqual([]);
  await b.close();
});

it('ignores bytes appended after the last commit (a crash mid-write) and keeps working', async () => {
  const a = new EmbeddedKnowledgeStore({ dir });
  await a.ensureIndex({ kbId: 'kb_p', dimension: 4 });
  await a.upsertChunks('kb_p', FIXTURE);
  await a.close();
  const kbDir = path.join(dir, 'kb_p');
  const chunksFile = readdirSync(kbDir).find((f) => f.endsWith('.chunks.jsonl'))!;
  const vecFile = readdirSync(kbDir).find((f) => f.endsWith('.vectors.f32'))!;
  const size = statSync(path.join(kbDir, chunksFile)).size;
  appendFileSync(path.join(kbDir, chunksFile), '{"id":"torn:0","documentId":"torn","tit'); // half a line
  appendFileSync(path.join(kbDir, vecFile), Buffer.alloc(10));

  const b = new EmbeddedKnowledgeStore({ dir });
  expect(await b.count('kb_p')).toBe(FIXTURE.length);
  expect(statSync(path.join(kbDir, chunksFile)).size).toBe(size);
  await b.upsertChunks('kb_p', [chunk('d7', 0, 'New', 'fresh zebra text', [1, 1, 1, 1])]);
  await b.close();
  const c = new EmbeddedKnowledgeStore({ dir });
  expect((await c.search({ kbId: 'kb_p', text: 'zebra', topK: 1, mode: 'bm25' }))[0].id).toBe('d7:0');
  await c.close();
});

it('fails clearly when the files are shorter than the manifest says', async () => {
  const a = new EmbeddedKnowledgeStore({ dir });
  await a.ensureIndex({ kbId: 'kb_p', dimension: 4 });
  await a.upsertChunks('kb_p', FIXTURE);
  await a.close();
  const kbDir = path.join(dir, 'kb_p');
  const chunksFile = path.join(
    kbDir,
    readdirSync(kbDir).find((f) => f.endsWith('.chunks.jsonl'))!,
  );
  writeFileSync(chunksFile, readFileSync(chunksFile, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
  const b = new EmbeddedKnowledgeStore({ dir });
  await expect(b.count('kb_p')).rejects.toMatchObject({ code: 'KNOWLEDGE_INDEX_CORRUPT' });
  await b.close();
});

it('compacts when removed chunks dominate, with the same results before and after a reload', async () => {
  const a = new EmbeddedKnowledgeStore({ dir });
  await a.ensureIndex({ kbId: 'kb_p', dimension: 4 });
  const many = Array.from({ length: 600 }, (_, i) =>
    chunk(`bulk${i % 30}`, Math.floor(i / 30), `Bulk ${i % 30}`, `filler number ${i} about topic ${i % 7}`, [
      i % 3,
      (i % 5) / 5,
      1,
      (i % 7) / 7,
    ]),
  );
  await a.upsertChunks('kb_p', FIXTURE);
  await a.upsertChunks('kb_p', many);
  for (let d = 0; d < 30; d++) await a.deleteDocument('kb_p', `bulk${d}`);
  const kbDir = path.join(dir, 'kb_p');
  const manifest = JSON.parse(readFileSync(path.join(kbDir, 'manifest.json'), 'utf8'));
  expect(manifest.generation).toBeGreaterThan(1); // compacted
  expect(manifest.slots).toBeLessThan(FIXTURE.length + many.length); // removed slots were dropped from the files
  expect(await a.count('kb_p')).toBe(FIXTURE.length);
  expect(readdirSync(kbDir).filter((f) => f.startsWith('g1.'))).toEqual([]);
  const before = await Promise.all(queries.map((q) => a.search(q)));
  await a.close();
  const b = new EmbeddedKnowledgeStore({ dir });
  expect(await Promise.all(queries.map((q) => b.search(q)))).toEqual(before);
  await b.close();
});

it('refuses a second live process on the same directory', async () => {
  const a = new EmbeddedKnowledgeStore({ dir });
  writeFileSync(path.join(dir, 'paiflow-knowledge.lock'), String(process.ppid)); // a live process that is not us
  expect(() => new EmbeddedKnowledgeStore({ dir })).toThrow(/in use by process/);
  writeFileSync(path.join(dir, 'paiflow-knowledge.lock'), String(process.pid));
  await a.close();
});
