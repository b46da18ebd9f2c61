/**
 * Guarantee: uploaded documents index several at once — while one waits for the embedder another is parsed and
 * embedded — yet the embedder never has more calls in flight than its slots (so a search's query embedding waits
 * behind at most one batch per thread); each document reports "n of m chunks" while it embeds; a chunk the embedder
 * cannot read (Chinese for an English-only model) is never sent to it and is stored without a vector, searchable by
 * keywords; a newer upload of a title replaces an older one still indexing beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '@/engine/knowledge/catalog';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { Embedder } from '@/engine/knowledge/types';
import { PrismaKnowledgeCatalog } from '@/engine/store/prisma/knowledge-catalog';
import { openTestDb, type TestDb } from '../support/databases';

/** An English-only embedder whose calls wait until the test lets them go. */
class GatedEmbedder implements Embedder {
  readonly model = 'gated';
  readonly label = 'gated test embedder';
  inFlight = 0;
  maxInFlight = 0;
  texts: string[] = [];
  private waiting: Array<() => void> = [];
  private open = false;

  async dimension() {
    return 4;
  }

  coverage(text: string) {
    return /\p{Script=Han}/u.test(text) ? 0 : 1;
  }

  async embed(texts: string[]) {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.texts.push(...texts);
    if (!this.open) await new Promise<void>((r) => this.waiting.push(r));
    this.inFlight--;
    return texts.map((t) => Float32Array.from([t.length, 1, 0, 0]));
  }

  /** Lets every waiting and later call through. */
  release() {
    this.open = true;
    for (const w of this.waiting.splice(0)) w();
  }

  get waitingCalls() {
    return this.waiting.length;
  }
}

let tdb: TestDb;
let dir: string;
let service: KnowledgeBaseService;
let embedder: GatedEmbedder;

beforeAll(async () => {
  tdb = await openTestDb('pglite');
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-parallel-'));
});

afterAll(async () => {
  await service?.close();
  await tdb?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const englishDoc = (i: number) =>
  Array.from({ length: 6 }, (_, p) => `Paragraph ${p} of guide ${i} explains refunds and invoices in detail.`).join(
    '\n\n',
  );

describe('indexing documents side by side', () => {
  it('embeds several documents at once within its slots, showing n of m chunks, skipping unreadable text', async () => {
    embedder = new GatedEmbedder();
    service = new KnowledgeBaseService({
      catalog: new PrismaKnowledgeCatalog(tdb.db.prisma),
      store: new EmbeddedKnowledgeStore({ dir }),
      embedders: () => embedder,
      defaultEmbeddingModel: 'gated',
      embedBatch: 2,
      indexingConcurrency: 4,
      embedSlots: 2,
    });
    const kb = await service.createKnowledgeBase({ name: 'Side by side', chunkSize: 100, chunkOverlap: 0 });
    const docs = await service.addDocuments(kb.id, [
      ...[1, 2, 3].map((i) => ({ title: `Guide ${i}`, text: englishDoc(i) })),
      { title: '退款说明', text: '退款会在五个工作日内原路退回。\n\n发票可以在订单页面下载。' },
    ]);

    // The Chinese document needs no embedder call at all: it is indexed while every English one still waits.
    const zh = await until(
      () => service.getDocument(kb.id, docs[3].id),
      (d) => d.status === 'indexed',
    );
    expect(zh.chunkCount).toBeGreaterThan(0);
    expect(embedder.texts.some((t) => /\p{Script=Han}/u.test(t))).toBe(false);

    // Two calls wait (the slots), from two different documents, and the others are parsed and waiting to embed.
    await until(
      async () => embedder.waitingCalls,
      (n) => n === 2,
    );
    const waiting = await until(
      () => service.listDocuments(kb.id),
      (list) => list.filter((d) => d.status === 'embedding').length === 3,
    );
    for (const d of waiting.filter((x: DocumentRecord) => x.status === 'embedding')) {
      expect(d.totalChunks).toBeGreaterThan(2);
      expect(d.embeddedChunks).toBe(0);
    }
    expect(new Set(embedder.texts.map((t) => t.split('\n')[0])).size).toBe(2);

    embedder.release();
    await service.whenIdle();
    expect(embedder.maxInFlight).toBe(2);
    const done = await service.listDocuments(kb.id);
    expect(done.map((d) => d.status)).toEqual(['indexed', 'indexed', 'indexed', 'indexed']);
    for (const d of done) expect(d).toMatchObject({ embeddedChunks: d.totalChunks, chunkCount: d.totalChunks });

    const zhHits = await service.search(kb.id, { query: '退款', mode: 'hybrid' });
    expect(zhHits.hits[0]).toMatchObject({ documentId: docs[3].id, knn: null });
    const enHits = await service.search(kb.id, { query: 'refunds guide 2', mode: 'vector' });
    expect(enHits.hits.every((h) => h.documentId !== docs[3].id)).toBe(true);
  });

  it('lets a newer upload of a title replace an older one still indexing beside it', async () => {
    const kb = await service.createKnowledgeBase({ name: 'Replace', chunkSize: 100, chunkOverlap: 0 });
    const [older, newer] = await service.addDocuments(kb.id, [
      { title: 'Policy', text: englishDoc(10) },
      { title: 'Policy', text: 'The new policy: refunds within three days.' },
    ]);
    await service.whenIdle();
    const left = await service.listDocuments(kb.id);
    expect(left.map((d) => d.id)).toEqual([newer.id]);
    expect(left[0].status).toBe('indexed');
    expect(await service.store.count(kb.id, older.id)).toBe(0);
  });
});
