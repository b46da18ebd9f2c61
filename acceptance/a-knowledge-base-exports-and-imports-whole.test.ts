/**
 * Guarantee: a knowledge base downloads as one file and uploads back as a new one, whole — settings, documents with
 * their metadata and on/off state, chunks — answering the same searches, its vectors kept when the model is the same;
 * a file that is not an export, or has a damaged line, is refused with the line's path and makes nothing.
 */
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { documentsIndexed } from './support/knowledge';

const { api, is } = acceptance();
const stamp = Date.now();
const GUIDE = '# Guide\n\n## Refunds\n\nRefunds are paid within five days.\n\n## Shipping\n\nShipping takes a week.\n';

const exportFile = (body: string, name = 'kb.paiflow-kb.jsonl') => {
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'application/x-ndjson' }), name);
  return form;
};

describe.skipIf(is('queue'))('knowledge base export and import', () => {
  it('exports a knowledge base and imports it back whole, answering alike', async () => {
    const kb = await api.expectStatus(
      api.post('/api/knowledge-bases', { name: `Handbook ${stamp}`, chunking: 'parent-child', vectorWeight: 0.5 }),
      201,
    );
    const docs = `/api/knowledge-bases/${kb.id}/documents`;
    await api.expectStatus(
      api.post(docs, { title: 'Guide', text: GUIDE, mime: 'text/markdown', metadata: { lang: 'en' } }),
      202,
    );
    const old = await api.expectStatus(api.post(docs, { title: '旧规定', text: '退款以前需要一个月。' }), 202);
    await documentsIndexed(api, kb.id, 2);
    await api.expectStatus(api.patch(`${docs}/${old.id}`, { enabled: false }), 200);

    const res = await fetch(`${api.baseURL}/api/knowledge-bases/${kb.id}/export`, { headers: api.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.paiflow-kb\.jsonl"/);
    const text = await res.text();
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ format: 'paiflow-knowledge-base', knowledgeBase: { chunking: 'parent-child' } });
    expect(lines.filter((l) => l.document)).toHaveLength(2);

    const made = await api.expectStatus(api.post('/api/knowledge-bases/import', exportFile(text)), 202);
    expect(made).toMatchObject({
      vectors: 'kept',
      knowledgeBase: { name: `Handbook ${stamp}`, chunking: 'parent-child', vectorWeight: 0.5 },
    });
    const copy = await documentsIndexed(api, made.knowledgeBase.id, 2);
    expect(copy.map((d) => [d.title, d.enabled, d.metadata])).toEqual([
      ['Guide', true, { lang: 'en' }],
      ['旧规定', false, {}],
    ]);
    for (const mode of ['bm25', 'vector', 'hybrid']) {
      const search = async (id: string) =>
        (
          await api.expectStatus(api.post(`/api/knowledge-bases/${id}/search`, { query: 'refunds paid', mode }), 200)
        ).hits.map(({ documentId: _d, ...h }: any) => h);
      expect(await search(made.knowledgeBase.id)).toEqual(await search(kb.id));
    }
  });

  it('refuses a file that is not an export, or a damaged line, naming where, and makes nothing', async () => {
    const before = (await api.expectStatus(api.get('/api/knowledge-bases'), 200)).length;
    const notExport = await api.expectStatus(
      api.post('/api/knowledge-bases/import', exportFile('{"nodes": []}\n', 'workflow.json')),
      400,
    );
    expect(notExport.error).toMatchObject({ code: 'KNOWLEDGE_IMPORT_INVALID', path: 'lines[0].format' });
    const header = {
      format: 'paiflow-knowledge-base',
      version: 1,
      exportedAt: new Date().toISOString(),
      knowledgeBase: {
        name: 'x',
        description: '',
        chunkSize: 512,
        chunkOverlap: 100,
        chunking: 'size',
        parentChunkSize: null,
        embeddingModel: 'use-lite',
        dimension: 512,
        vectorWeight: null,
      },
    };
    const orphan = { chunk: { documentId: 'doc_x', chunkIndex: 0, start: 0, end: 1, page: null, text: 'x' } };
    const damaged = await api.expectStatus(
      api.post('/api/knowledge-bases/import', exportFile(`${JSON.stringify(header)}\n${JSON.stringify(orphan)}\n`)),
      400,
    );
    expect(damaged.error).toMatchObject({ code: 'KNOWLEDGE_IMPORT_INVALID', path: 'lines[1].chunk.documentId' });
    expect((await api.expectStatus(api.get('/api/knowledge-bases'), 200)).length).toBe(before);
  });
});
