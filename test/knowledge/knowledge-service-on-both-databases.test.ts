/**
 * Guarantee: the knowledge service works the same on PGlite and PostgreSQL (the 0002_knowledge migration applies on
 * both): a KB built with the OpenAI-compatible embedder (fake server, real SDK) records its model and dimension,
 * indexes in the background and searches; documents cut off by a restart are marked failed; deleting a KB cascades
 * to its documents. On PGlite only (service rules above the database): an embedder that changes dimension is refused
 * with a clear error instead of mixing vectors; a document cut off by a restart quicker than the silence that proves
 * the process died is failed too (checked again periodically).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { OpenAiEmbedder } from '@/engine/knowledge/embedders/openai-embedder';
import { PrismaKnowledgeCatalog } from '@/engine/store/prisma/knowledge-catalog';
import { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { Embedder } from '@/engine/knowledge/types';
import { openTestDb, storeKinds, type TestDb } from '../support/databases';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

const kinds = await storeKinds();

describe.each(kinds)('knowledge service on %s', (kind) => {
  let tdb: TestDb;
  let fake: FakeOpenAi;
  let dir: string;
  let service: KnowledgeBaseService;
  let catalog: PrismaKnowledgeCatalog;
  let swap: Embedder | undefined;

  beforeAll(async () => {
    tdb = await openTestDb(kind);
    fake = await startFakeOpenAi();
    dir = mkdtempSync(path.join(tmpdir(), 'paiflow-ksvc-'));
    const openai = new OpenAiEmbedder({ apiKey: 'sk-test', baseURL: fake.baseURL, model: 'text-embedding-3-small' });
    catalog = new PrismaKnowledgeCatalog(tdb.db.prisma);
    service = new KnowledgeBaseService({
      catalog,
      store: new EmbeddedKnowledgeStore({ dir }),
      embedders: (m) => swap ?? (m.startsWith('openai:') ? openai : (undefined as never)),
      defaultEmbeddingModel: 'openai:text-embedding-3-small',
    });
  });

  afterAll(async () => {
    await service?.close();
    await fake?.close();
    await tdb?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the model and the dimension learned from the API, indexes and searches', async () => {
    const kb = await service.createKnowledgeBase({ name: 'Remote', chunkSize: 200, chunkOverlap: 40 });
    expect(kb).toMatchObject({
      embeddingModel: 'openai:text-embedding-3-small',
      dimension: 8,
      chunkSize: 200,
      chunkOverlap: 40,
    });
    const doc = await service.addDocument(kb.id, {
      title: 'Codes',
      text: 'ERR-4521 means the tax provider is unreachable. '.repeat(10),
    });
    expect(doc.status).toBe('queued');
    await service.whenIdle();
    const [d] = await service.listDocuments(kb.id);
    expect(d).toMatchObject({ status: 'indexed', progress: 1, error: null });
    expect(d.chunkCount).toBeGreaterThan(1);
    const res = await service.search(kb.id, { query: 'ERR-4521', topK: 3 });
    expect(res.hits[0]).toMatchObject({ citation: '[1]', documentId: doc.id, title: 'Codes' });
    expect(fake.requests.some((r) => Array.isArray(r.input) && r.input[0].startsWith('Codes\n'))).toBe(true);
    const list = await service.listKnowledgeBases();
    expect(list.find((k) => k.id === kb.id)).toMatchObject({ documentCount: 1, chunkCount: d.chunkCount });
  });

  // Service rules, not the database's: on PGlite only (the cases on both databases hold what the knowledge catalogue's
  // tables do — its migration, the interrupted-document sweep's query, the cascade on delete).
  it.runIf(kind === 'pglite')(
    'refuses vectors of another dimension with a clear error, for indexing and for search',
    async () => {
      const kb = await service.createKnowledgeBase({ name: 'Mixed' });
      swap = {
        model: kb.embeddingModel,
        label: 'other',
        dimension: async () => 16,
        embed: async (t) => t.map(() => new Float32Array(16).fill(0.25)),
      };
      try {
        await service.addDocument(kb.id, { title: 'T', text: 'some text' });
        await service.whenIdle();
        const [d] = await service.listDocuments(kb.id);
        expect(d.status).toBe('failed');
        expect(d.error).toMatchObject({ code: 'EMBEDDING_DIMENSION_MISMATCH' });
        expect(d.error!.message).toMatch(/holds 8-d vectors .* returned 16-d vectors/);
        expect(await service.store.count(kb.id)).toBe(0);
        await expect(service.search(kb.id, { query: 'text' })).rejects.toMatchObject({
          code: 'EMBEDDING_DIMENSION_MISMATCH',
        });
        // BM25-only search needs no embedding and still works.
        expect((await service.search(kb.id, { query: 'text', mode: 'bm25' })).hits).toEqual([]);
      } finally {
        swap = undefined;
      }
    },
  );

  it('marks documents interrupted by a restart as failed', async () => {
    const kb = await service.createKnowledgeBase({ name: 'Crash' });
    const doc = await catalog.createDocument({
      id: 'doc_orphan_' + kind,
      knowledgeBaseId: kb.id,
      title: 'Orphan',
      mime: 'text/plain',
      byteSize: 3,
    });
    await catalog.updateDocument(doc.id, { status: 'embedding', progress: 0.5 });
    const stale = await service.recover(new Date(Date.now() + 1000));
    expect(stale.map((d) => d.id)).toContain(doc.id);
    expect(await service.getDocument(kb.id, doc.id)).toMatchObject({
      status: 'failed',
      error: { code: 'INDEXING_INTERRUPTED' },
    });
  });

  it.runIf(kind === 'pglite')(
    'keeps failing documents that went silent, so a quick restart leaves none unfinished',
    async () => {
      const kb = await service.createKnowledgeBase({ name: 'Quick restart' });
      // Written by a process that died a moment ago: too fresh for the sweep at start-up.
      const doc = await catalog.createDocument({
        id: 'doc_quick_' + kind,
        knowledgeBaseId: kb.id,
        title: 'Quick',
        mime: 'text/plain',
        byteSize: 3,
      });
      await catalog.updateDocument(doc.id, { status: 'embedding', progress: 0.5 });
      expect((await service.recover(new Date(Date.now() - 60_000))).map((d) => d.id)).not.toContain(doc.id);
      service.recoverEvery(50, 300);
      for (let i = 0; i < 200 && (await service.getDocument(kb.id, doc.id)).status !== 'failed'; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await service.getDocument(kb.id, doc.id)).toMatchObject({
        status: 'failed',
        error: { code: 'INDEXING_INTERRUPTED' },
      });
    },
  );

  it('deleting a KB cascades to its documents', async () => {
    const kb = await service.createKnowledgeBase({ name: 'Gone' });
    await service.addDocument(kb.id, { title: 'A', text: 'alpha' });
    await service.whenIdle();
    await service.deleteKnowledgeBase(kb.id);
    expect(await catalog.listDocuments(kb.id)).toEqual([]);
    await expect(service.getKnowledgeBase(kb.id)).rejects.toMatchObject({
      code: 'KNOWLEDGE_BASE_NOT_FOUND',
    });
  });
});
