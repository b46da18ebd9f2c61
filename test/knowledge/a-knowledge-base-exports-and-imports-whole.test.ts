/**
 * Guarantee: a knowledge base exported and imported comes back whole — settings, documents with their metadata and
 * on/off state, chunks with heading paths and contexts — and answers the same searches; the import keeps the
 * export's vectors when it embeds with the same model and dimension (nothing is embedded again) and embeds the chunks
 * again otherwise; a damaged line is KNOWLEDGE_IMPORT_INVALID with its path, and nothing is made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { parseExport } from '@/engine/knowledge/kb-transfer';
import { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { Embedder } from '@/engine/knowledge/types';
import { PrismaKnowledgeCatalog } from '@/engine/store/prisma/knowledge-catalog';
import { openTestDb, type TestDb } from '../support/databases';

/** Bag-of-letters vectors of `dims` letters, counting its calls. */
function letters(model: string, dims: number): Embedder & { texts: number } {
  const e = {
    model,
    label: model,
    texts: 0,
    dimension: async () => dims,
    embed: async (texts: string[]) => {
      e.texts += texts.length;
      return texts.map((t) => {
        const v = new Float32Array(dims);
        for (const ch of t.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[(ch.charCodeAt(0) - 97) % dims]++;
        v[0] += 0.01;
        return v;
      });
    },
  };
  return e;
}

const GUIDE = '# Guide\n\n## Refunds\n\nRefunds are paid within five days.\n\n## Shipping\n\nShipping takes a week.\n';

let tdb: TestDb;
let dir: string;
let service: KnowledgeBaseService;
const a = letters('letters-a', 26);
const b = letters('letters-b', 13);

beforeAll(async () => {
  tdb = await openTestDb('pglite');
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-transfer-'));
  service = new KnowledgeBaseService({
    catalog: new PrismaKnowledgeCatalog(tdb.db.prisma),
    store: new EmbeddedKnowledgeStore({ dir }),
    embedders: (m) => (m === 'letters-b' ? b : a),
    defaultEmbeddingModel: 'letters-a',
  });
});

afterAll(async () => {
  await service?.close();
  await tdb?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function exportText(id: string): Promise<string> {
  let text = '';
  for await (const line of (await service.exportKnowledgeBase(id)).lines) text += line;
  return text;
}

describe('knowledge base export and import', () => {
  it('comes back whole, answers alike, and keeps the vectors of the same model', async () => {
    const kb = await service.createKnowledgeBase({
      name: 'Handbook',
      chunking: 'parent-child',
      chunkSize: 100,
      chunkOverlap: 0,
      vectorWeight: 0.6,
    });
    await service.addDocument(kb.id, { title: 'Guide', text: GUIDE, mime: 'text/markdown', metadata: { lang: 'en' } });
    const off = await service.addDocument(kb.id, { title: 'Old notes', text: 'Refunds used to take a month.' });
    await service.whenIdle();
    await service.updateDocument(kb.id, off.id, { enabled: false });

    const text = await exportText(kb.id);
    const parsed = await parseExport(text);
    expect(parsed.header.knowledgeBase).toMatchObject({
      name: 'Handbook',
      chunking: 'parent-child',
      vectorWeight: 0.6,
    });
    const before = a.texts;
    const made = await service.importKnowledgeBase(parsed, { name: 'Handbook copy' });
    await service.whenIdle();
    expect(made.vectors).toBe('kept');
    expect(a.texts).toBe(before); // nothing embedded again
    expect(made.knowledgeBase).toMatchObject({ name: 'Handbook copy', chunking: 'parent-child', vectorWeight: 0.6 });

    const docs = await service.listDocuments(made.knowledgeBase.id);
    expect(docs.map((d) => [d.title, d.status, d.enabled, d.metadata])).toEqual([
      ['Guide', 'indexed', true, { lang: 'en' }],
      ['Old notes', 'indexed', false, {}],
    ]);
    for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
      const strip = (r: Awaited<ReturnType<typeof service.search>>) => r.hits.map(({ documentId: _d, ...h }) => h);
      const query = { query: 'refunds paid', topK: 3, mode };
      expect(strip(await service.search(made.knowledgeBase.id, query))).toEqual(
        strip(await service.search(kb.id, query)),
      );
    }
  });

  it('embeds the chunks again with another model, and refuses a damaged line naming it, making nothing', async () => {
    const kb = await service.createKnowledgeBase({ name: 'Small' });
    await service.addDocument(kb.id, { title: 'Refunds', text: 'Refunds are paid within five days.' });
    await service.whenIdle();
    const parsed = await parseExport(await exportText(kb.id));
    const before = b.texts;
    const made = await service.importKnowledgeBase(parsed, { embeddingModel: 'letters-b' });
    await service.whenIdle();
    expect(made).toMatchObject({ vectors: 'embedded', knowledgeBase: { embeddingModel: 'letters-b', dimension: 13 } });
    expect(b.texts).toBeGreaterThan(before);
    expect((await service.search(made.knowledgeBase.id, { query: 'refunds', mode: 'vector' })).hits).toHaveLength(1);

    const lines = (await exportText(kb.id)).trimEnd().split('\n');
    const count = (await service.listKnowledgeBases()).length;
    const chunk = JSON.parse(lines[2]);
    chunk.chunk.surprise = 1;
    await expect(parseExport([lines[0], lines[1], JSON.stringify(chunk)].join('\n'))).rejects.toMatchObject({
      code: 'KNOWLEDGE_IMPORT_INVALID',
      path: 'lines[2].chunk.surprise',
    });
    chunk.chunk.surprise = undefined;
    chunk.chunk.vector = Buffer.from(new Float32Array(3).buffer).toString('base64');
    await expect(parseExport([lines[0], lines[1], JSON.stringify(chunk)].join('\n'))).rejects.toMatchObject({
      path: 'lines[2].chunk.vector',
    });
    await expect(parseExport('{"workflow": {}}')).rejects.toMatchObject({ code: 'KNOWLEDGE_IMPORT_INVALID' });
    expect((await service.listKnowledgeBases()).length).toBe(count);
  });
});
