/**
 * Guarantee: a knowledge base chunks as it was made to — parent–child (small chunks matched, the whole section
 * returned, siblings folded into one hit) or question–answer pairs (.csv with Chinese or English column names,
 * .jsonl; the question matched, the answer returned with it) — and shows a file's chunks before it is uploaded,
 * keeping nothing. A Q&A knowledge base refuses another file type at upload (400 with its path), and a parent size
 * without parent–child chunking is refused at creation.
 */
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { documentsIndexed } from './support/knowledge';

const { api, is } = acceptance();
const stamp = Date.now();

const sentence = (topic: string, i: number) => `The ${topic} rule number ${i} says what to do about ${topic}.`;
const section = (topic: string) => Array.from({ length: 12 }, (_, i) => sentence(topic, i)).join(' ');
const GUIDE = `# Guide\n\n## Refunds\n\n${section('refund')}\n\n## Shipping\n\n${section('shipping')}\n`;

const fileForm = (name: string, type: string, body: string) => {
  const form = new FormData();
  form.append('file', new Blob([body], { type }), name);
  return form;
};

describe.skipIf(is('queue'))('chunking per knowledge base', () => {
  it('parent–child: previews, then matches small chunks and returns each section once', async () => {
    const kb = await api.expectStatus(
      api.post('/api/knowledge-bases', {
        name: `Parent child ${stamp}`,
        chunking: 'parent-child',
        chunkSize: 150,
        chunkOverlap: 0,
        parentChunkSize: 2000,
      }),
      201,
    );
    expect(kb).toMatchObject({ chunking: 'parent-child', parentChunkSize: 2000 });
    const preview = await api.expectStatus(
      api.post(`/api/knowledge-bases/${kb.id}/chunk-preview`, fileForm('guide.md', 'text/markdown', GUIDE)),
      200,
    );
    expect(preview.total).toBeGreaterThan(4);
    expect(preview.characters).toBe(GUIDE.length);
    const child = preview.chunks.find((c: any) => c.text.includes('refund rule number 3'));
    expect(child.text.length).toBeLessThanOrEqual(150);
    expect(child.context).toMatchObject({ kind: 'parent', text: expect.stringContaining(section('refund')) });
    expect(await api.expectStatus(api.get(`/api/knowledge-bases/${kb.id}/documents`), 200)).toEqual([]);

    await api.expectStatus(
      api.post(`/api/knowledge-bases/${kb.id}/documents`, fileForm('guide.md', 'text/markdown', GUIDE)),
      202,
    );
    const [doc] = await documentsIndexed(api, kb.id, 1);
    expect(doc).toMatchObject({ totalChunks: preview.total, embeddedChunks: preview.total });
    const res = await api.expectStatus(
      api.post(`/api/knowledge-bases/${kb.id}/search`, { query: 'refund rule', topK: 3, mode: 'bm25' }),
      200,
    );
    expect(res.hits[0].text).toContain(section('refund'));
    expect(res.hits[0].text).toContain(res.hits[0].matched);
    expect(res.hits.filter((h: any) => h.text.includes('refund rule number 0'))).toHaveLength(1);
  });

  it('Q&A: matches the question of a pair from .csv or .jsonl and returns its answer', async () => {
    const kb = await api.expectStatus(api.post('/api/knowledge-bases', { name: `FAQ ${stamp}`, chunking: 'qa' }), 201);
    const docs = `/api/knowledge-bases/${kb.id}/documents`;
    const refused = await api.expectStatus(api.post(docs, fileForm('notes.md', 'text/markdown', '# Notes')), 400);
    expect(refused.error).toMatchObject({ code: 'QA_DOCUMENT_TYPE', path: 'file' });
    const csv =
      '编号,问题,答案\n1,退款多久到账？,五个工作日内原路退回。\n2,可以开发票吗？,可以，在订单页下载电子发票。\n';
    await api.expectStatus(api.post(docs, fileForm('faq.csv', 'text/csv', csv)), 202);
    const jsonl = '{"question":"Do you ship abroad?","answer":"Yes, to 40 countries."}\n';
    await api.expectStatus(api.post(docs, fileForm('shipping.jsonl', 'application/jsonl', jsonl)), 202);
    const list = await documentsIndexed(api, kb.id, 2);
    expect(list.map((d: any) => d.chunkCount).sort()).toEqual([1, 2]);

    const zh = await api.expectStatus(
      api.post(`/api/knowledge-bases/${kb.id}/search`, { query: '退款', topK: 1 }),
      200,
    );
    expect(zh.hits[0]).toMatchObject({ question: '退款多久到账？', text: '五个工作日内原路退回。' });
    const en = await api.expectStatus(
      api.post(`/api/knowledge-bases/${kb.id}/search`, { query: 'ship abroad', topK: 1 }),
      200,
    );
    expect(en.hits[0]).toMatchObject({ question: 'Do you ship abroad?', text: 'Yes, to 40 countries.' });
  });

  it('refuses a parent size without parent–child chunking, naming the field', async () => {
    const res = await api.expectStatus(
      api.post('/api/knowledge-bases', { name: `Bad ${stamp}`, parentChunkSize: 1000 }),
      400,
    );
    expect(res.error.path).toBe('parentChunkSize');
  });
});
