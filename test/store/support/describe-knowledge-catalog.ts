/**
 * The KnowledgeCatalog conformance suite (engine/knowledge/catalog.ts), written once and run on every database kind
 * (test/store/knowledge-catalogue-is-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeCatalog, NewKnowledgeBase } from '@/engine/knowledge/catalog';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { newId, newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

export function describeKnowledgeCatalog(label: string, open: StoresFactory) {
  describe(`KnowledgeCatalog conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let catalog: KnowledgeCatalog;
    const ws = DEFAULT_WORKSPACE_ID;
    let wsB = '';
    const kb = (over: Partial<NewKnowledgeBase> = {}): NewKnowledgeBase => ({
      id: newId('kb'),
      workspaceId: ws,
      name: '产品手册',
      description: 'manuals',
      chunkSize: 800,
      chunkOverlap: 100,
      embeddingModel: 'offline',
      credentialId: null,
      dimension: 256,
      ...over,
    });

    beforeAll(async () => {
      under = await open();
      catalog = under.stores.knowledgeCatalog;
      wsB = (await newWorkspace(under.stores)).workspaceId;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    it('keeps a knowledge base as made; another workspace does not find it', async () => {
      const k = await catalog.createKnowledgeBase(kb({ vectorWeight: 0.3 }));
      expect(k).toMatchObject({
        name: '产品手册',
        chunkSize: 800,
        chunkOverlap: 100,
        dimension: 256,
        vectorWeight: 0.3,
      });
      expect(k).toMatchObject({ chunking: 'size', parentChunkSize: null });
      const pc = await catalog.createKnowledgeBase(kb({ chunking: 'parent-child', parentChunkSize: 3000 }));
      expect(await catalog.getKnowledgeBase(pc.id)).toMatchObject({ chunking: 'parent-child', parentChunkSize: 3000 });
      expect(await catalog.getKnowledgeBase(k.id)).toEqual(k);
      expect(await catalog.getKnowledgeBase(k.id, ws)).toEqual(k);
      expect(await catalog.getKnowledgeBase(k.id, wsB)).toBeNull();
      expect((await catalog.updateKnowledgeBase(k.id, { vectorWeight: null }))?.vectorWeight).toBeNull();
      expect(await catalog.updateKnowledgeBase('kb_missing', { vectorWeight: 1 })).toBeNull();
    });

    it('lists per workspace, newest first, with document and chunk counts; counts every workspace', async () => {
      const a = await catalog.createKnowledgeBase(kb({ name: 'A' }));
      const b = await catalog.createKnowledgeBase(kb({ name: 'B', workspaceId: wsB }));
      for (const [i, chunks] of [3, 4].entries()) {
        const d = await catalog.createDocument({
          id: newId('doc'),
          knowledgeBaseId: a.id,
          title: `doc ${i}`,
          mime: 'text/plain',
          byteSize: 10,
        });
        await catalog.updateDocument(d.id, { status: 'indexed', chunkCount: chunks });
      }
      const list = await catalog.listKnowledgeBases(ws);
      expect(list[0]).toMatchObject({ id: a.id, documentCount: 2, chunkCount: 7 });
      expect(list.map((k) => k.id)).not.toContain(b.id);
      expect(list.at(-1)).toMatchObject({ documentCount: 0, chunkCount: 0 });
      expect((await catalog.listKnowledgeBases(wsB)).map((k) => k.id)).toEqual([b.id]);
      expect((await catalog.listKnowledgeBases()).length).toBe(list.length + 1);
      expect(await catalog.countKnowledgeBases()).toBe(list.length + 1);
    });

    it('documents: status updates, an error kept as JSON, titles found oldest first, stale ones', async () => {
      const k = await catalog.createKnowledgeBase(kb({ name: 'Docs' }));
      const d1 = await catalog.createDocument({
        id: newId('doc'),
        knowledgeBaseId: k.id,
        title: '同名',
        mime: 'text/plain',
        byteSize: 5,
      });
      const d2 = await catalog.createDocument({
        id: newId('doc'),
        knowledgeBaseId: k.id,
        title: '同名',
        mime: 'text/plain',
        byteSize: 6,
      });
      expect(d1).toMatchObject({
        status: 'queued',
        progress: 0,
        error: null,
        chunkCount: 0,
        totalChunks: null,
        embeddedChunks: 0,
        pages: null,
        indexedAt: null,
      });
      expect((await catalog.findDocumentsByTitle(k.id, '同名')).map((d) => d.id)).toEqual([d1.id, d2.id]);
      const failed = await catalog.updateDocument(d1.id, {
        status: 'failed',
        progress: 0.5,
        error: { code: 'PARSE_FAILED', message: '无法解析' },
      });
      expect(failed).toMatchObject({
        status: 'failed',
        progress: 0.5,
        error: { code: 'PARSE_FAILED', message: '无法解析' },
      });
      // Progress in chunks while a document embeds: "n of m".
      expect(
        await catalog.updateDocument(d2.id, { status: 'embedding', totalChunks: 40, embeddedChunks: 16 }),
      ).toMatchObject({ status: 'embedding', totalChunks: 40, embeddedChunks: 16 });
      const at = '2026-11-01T00:00:00.000Z';
      const done = await catalog.updateDocument(d2.id, { status: 'indexed', indexedAt: at, pages: 3, charCount: 42 });
      expect(done).toMatchObject({ status: 'indexed', indexedAt: at, pages: 3, charCount: 42, totalChunks: 40 });
      expect((await catalog.updateDocument(d1.id, { error: null }))?.error).toBeNull();
      expect(await catalog.getDocument(k.id, d2.id)).toEqual(done);
      expect((await catalog.listDocuments(k.id)).map((d) => d.id)).toEqual([d1.id, d2.id]);
      const d3 = await catalog.createDocument({
        id: newId('doc'),
        knowledgeBaseId: k.id,
        title: 'x',
        mime: 'text/plain',
        byteSize: 1,
      });
      const stale = await catalog.listStaleDocuments(new Date(Date.now() + 60_000));
      expect(stale.map((d) => d.id)).toContain(d3.id);
      expect(stale.map((d) => d.id)).not.toContain(d2.id); // indexed: not unfinished
      expect((await catalog.listStaleDocuments(new Date(Date.now() - 3_600_000))).map((d) => d.id)).not.toContain(
        d3.id,
      );
      expect(await catalog.deleteDocument(d3.id)).toBe(true);
      expect(await catalog.deleteDocument(d3.id)).toBe(false);
      expect(await catalog.updateDocument(d3.id, { progress: 1 })).toBeNull(); // deleted meanwhile
    });

    it('keeps document metadata, and names the documents a filter keeps, leaving disabled ones out', async () => {
      const k = await catalog.createKnowledgeBase(kb({ name: 'Filtered' }));
      const doc = (title: string, metadata?: Record<string, string | number | boolean>) =>
        catalog.createDocument({
          id: newId('doc'),
          knowledgeBaseId: k.id,
          title,
          mime: 'text/plain',
          byteSize: 1,
          metadata,
        });
      const guide = await doc('guide', { lang: 'zh', year: 2024, published: '2024-03-01', 部门: '销售' });
      const faq = await doc('faq', { lang: 'en', year: 2026, published: '2026-11-30T08:00:00Z', internal: true });
      const note = await doc('note'); // no metadata
      expect(guide).toMatchObject({ metadata: { lang: 'zh', year: 2024, 部门: '销售' }, enabled: true });
      expect(note.metadata).toEqual({});
      const ids = async (filter?: Parameters<KnowledgeCatalog['searchableDocumentIds']>[1]) =>
        ((await catalog.searchableDocumentIds(k.id, filter)) ?? ['every document']).sort();
      expect(await ids()).toEqual(['every document']);
      expect(await ids({ lang: 'zh' })).toEqual([guide.id]);
      expect(await ids({ 部门: '销售', year: 2024 })).toEqual([guide.id]);
      expect(await ids({ internal: true })).toEqual([faq.id]);
      expect(await ids({ lang: { in: ['zh', 'en'] } })).toEqual([guide.id, faq.id].sort());
      expect(await ids({ year: { gte: 2025 } })).toEqual([faq.id]);
      expect(await ids({ year: { gt: 2023, lt: 2026 } })).toEqual([guide.id]);
      expect(await ids({ published: { gte: '2026-01-01' } })).toEqual([faq.id]);
      expect(await ids({ published: { lte: '2024-12-31' } })).toEqual([guide.id]);
      expect(await ids({ lang: 'fr' })).toEqual([]);
      // Edited metadata is what the next search filters on; a disabled document is in no search.
      await catalog.updateDocument(note.id, { metadata: { lang: 'zh' } });
      expect(await ids({ lang: 'zh' })).toEqual([guide.id, note.id].sort());
      expect((await catalog.updateDocument(guide.id, { enabled: false }))?.enabled).toBe(false);
      expect(await ids({ lang: 'zh' })).toEqual([note.id]);
      expect(await ids()).toEqual([faq.id, note.id].sort());
    });

    it('deleting a knowledge base takes its documents', async () => {
      const k = await catalog.createKnowledgeBase(kb({ name: 'Gone' }));
      const d = await catalog.createDocument({
        id: newId('doc'),
        knowledgeBaseId: k.id,
        title: 't',
        mime: 'text/plain',
        byteSize: 1,
      });
      expect(await catalog.deleteKnowledgeBase(k.id)).toBe(true);
      expect(await catalog.deleteKnowledgeBase(k.id)).toBe(false);
      expect(await catalog.getKnowledgeBase(k.id)).toBeNull();
      expect(await catalog.getDocument(k.id, d.id)).toBeNull();
    });
  });
}
