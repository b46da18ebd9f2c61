/**
 * Guarantee, through the route handlers on a fresh embedded database with the real offline embedder: a knowledge
 * base's defaults and validation (body, vectorWeight); status/progress only go forward, queued → parsing → embedding
 * → indexed; unsupported files, missing files and unknown knowledge bases are refused with their codes; a hit's
 * fields (component scores, heading path, PDF page), what each search mode finds (a paraphrase by the vector side
 * only), the threshold; script text stripped from HTML; re-upload of a title replaces it; deleting a document removes
 * its chunks; deleting the KB removes its folder. Never a 5xx, never a stack trace. The journey itself (every format,
 * the knowledge node and the RAG template answering with citations on the built server) is walked by
 * acceptance/knowledge-bases-index-every-format-and-answer-with-citations.test.ts.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { DELETE as deleteDoc, GET as getDoc } from '@/app/api/knowledge-bases/[id]/documents/[docId]/route';
import { GET as listDocs, POST as uploadDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { DELETE as deleteKb, GET as getKb, PATCH as patchKb } from '@/app/api/knowledge-bases/[id]/route';
import { POST as search } from '@/app/api/knowledge-bases/[id]/search/route';
import { GET as listKbs, POST as createKb } from '@/app/api/knowledge-bases/route';
import { GET as nodeTypes } from '@/app/api/node-types/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, seen, useFreshDataDir } from '../api/api-helpers';
import { makePdf } from './support/make-pdf';
import { ownerHeaders } from '../support/owner';

const dataDir = useFreshDataDir('paiflow-kapi-');
process.env.SEED_EXAMPLE = '0';

let kbId = '';
const p = (extra: Record<string, string> = {}) => ({ params: { id: kbId, ...extra } });

async function uploadFile(name: string, type: string, bytes: Uint8Array | string, title?: string) {
  const form = new FormData();
  form.set('file', new File([bytes as BlobPart], name, { type }));
  if (title) form.set('title', title);
  const headers = await ownerHeaders(await getApp());
  const req = new Request(`http://localhost/api/knowledge-bases/${kbId}/documents`, {
    method: 'POST',
    body: form,
    headers,
  });
  const res = await uploadDoc(req, { params: Promise.resolve({ id: kbId }) });
  const text = await res.text();
  seen.push({ method: 'POST', url: `/api/knowledge-bases/${kbId}/documents`, status: res.status, text });
  return { status: res.status, body: JSON.parse(text), text, headers: res.headers };
}

/** Polls the document list until every document is indexed or failed; returns the statuses seen per document. */
// Generous: on a loaded 2-core CI machine the real embedder's first load alone has taken over a minute.
async function waitIndexed(timeoutMs = 150_000) {
  const statuses = new Map<string, string[]>();
  const until = Date.now() + timeoutMs;
  for (;;) {
    const a = await call(listDocs, 'GET', `/api/knowledge-bases/${kbId}/documents`, p());
    expect(a.status).toBe(200);
    for (const d of a.body) {
      const list = statuses.get(d.id) ?? [];
      const tag = `${d.status}`;
      if (list.at(-1) !== tag) list.push(tag);
      statuses.set(d.id, list);
      expect(d.progress).toBeGreaterThanOrEqual(0);
      expect(d.progress).toBeLessThanOrEqual(1);
    }
    if (a.body.every((d: any) => d.status === 'indexed' || d.status === 'failed'))
      return { docs: a.body as any[], statuses };
    if (Date.now() > until)
      throw new Error(`still indexing: ${JSON.stringify(a.body.map((d: any) => [d.title, d.status]))}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

const find = (q: string, extra: Record<string, unknown> = {}) =>
  call(search, 'POST', `/api/knowledge-bases/${kbId}/search`, { ...p(), body: { query: q, ...extra } });

const LONG = Array.from(
  { length: 30 },
  (_, i) =>
    `Section ${i + 1}. The warranty covers manufacturing defects of device model ` +
    `${i} for two years from the purchase date, excluding accidental damage.`,
).join('\n\n');

beforeAll(async () => {
  await getApp();
});

afterAll(async () => {
  await (await getApp()).close();
});

describe('knowledge bases over HTTP', () => {
  it('reports the embedded search store in /api/health and registers the knowledge node', async () => {
    const h = await call(health, 'GET', '/api/health');
    expect(h.body.search).toMatch(/embedded hybrid index/);
    const types = await call(nodeTypes, 'GET', '/api/node-types');
    const k = types.body.find((t: any) => t.type === 'knowledge');
    expect(k).toMatchObject({ category: 'ai', version: 1 });
    expect(Object.keys(k.configSchema.properties)).toEqual(
      expect.arrayContaining(['knowledgeBaseId', 'query', 'topK', 'threshold']),
    );
  });

  it('creates a knowledge base with defaults (512/100, use-lite, 512-d) and validates the body', async () => {
    const bad = await call(createKb, 'POST', '/api/knowledge-bases', {
      body: { name: 'x', chunkSize: 200, chunkOverlap: 150 },
    });
    expectError(bad, 400, 'VALIDATION_ERROR', 'chunkOverlap');
    expectError(
      await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: '' } }),
      400,
      'VALIDATION_ERROR',
      'name',
    );
    expectError(
      await call(createKb, 'POST', '/api/knowledge-bases', {
        body: { name: 'x', embeddingModel: 'openai:text-embedding-3-small' },
      }),
      409,
      'EMBEDDER_UNAVAILABLE',
    );
    const a = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: 'Handbook' } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      name: 'Handbook',
      chunkSize: 512,
      chunkOverlap: 100,
      embeddingModel: 'use-lite',
      dimension: 512,
    });
    kbId = a.body.id;
    const list = await call(listKbs, 'GET', '/api/knowledge-bases');
    expect(list.body.find((k: any) => k.id === kbId)).toMatchObject({ documentCount: 0, chunkCount: 0 });
    expect(existsSync(path.join(dataDir, 'knowledge', kbId, 'manifest.json'))).toBe(true);
  });

  it("sets a knowledge base's vectorWeight (0..1, null: the default), refusing anything else by path", async () => {
    expect((await call(getKb, 'GET', `/api/knowledge-bases/${kbId}`, p())).body.vectorWeight).toBeNull();
    const url = `/api/knowledge-bases/${kbId}`;
    const set = await call(patchKb, 'PATCH', url, { ...p(), body: { vectorWeight: 0.5 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: kbId, vectorWeight: 0.5 });
    expect((await call(getKb, 'GET', url, p())).body.vectorWeight).toBe(0.5);
    expectError(
      await call(patchKb, 'PATCH', url, { ...p(), body: { vectorWeight: 2 } }),
      400,
      'VALIDATION_ERROR',
      'vectorWeight',
    );
    expectError(
      await call(patchKb, 'PATCH', url, { ...p(), body: { vectorWeight: 0.4, chunkSize: 100 } }),
      400,
      'UNKNOWN_KEY',
      'chunkSize',
    );
    expect((await call(getKb, 'GET', url, p())).body.vectorWeight).toBe(0.5); // nothing half-saved
    const reset = await call(patchKb, 'PATCH', url, { ...p(), body: { vectorWeight: null } });
    expect(reset.body.vectorWeight).toBeNull();
  });

  it(
    'uploads JSON, markdown, HTML and PDF and indexes them ' + 'in the background with visible status and progress',
    async () => {
      const j = await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, {
        ...p(),
        body: {
          title: 'Refund policy',
          text:
            'Customers may return unused items within 30 days for ' +
            'a full refund. Refunds go back to the original card.',
        },
      });
      expect(j.status).toBe(202);
      expect(j.body).toMatchObject({ title: 'Refund policy', status: 'queued', progress: 0, chunkCount: 0 });
      const md = await uploadFile(
        'errors.md',
        'text/markdown',
        '# Error codes\n\nERR-4521 means the billing service could not reach ' +
          'the tax provider. Retry after a minute.\n\nERR-1000 means all is fine.',
      );
      expect(md.status).toBe(202);
      expect(md.body.title).toBe('errors');
      const html = await uploadFile(
        'pets.html',
        'text/html',
        '<html><head><title>Pets</title><script>var secretScriptWord = 1;</script></head><body><h1>Office ' +
          'pets</h1><p>Dogs are welcome in the office on Fridays.</p></body></html>',
        'Pets at work',
      );
      expect(html.status).toBe(202);
      const pdf = await uploadFile(
        'manual.pdf',
        'application/pdf',
        makePdf([
          ['Thermostat manual, page one.', 'Install the device on an inside wall.'],
          ['Page two: firmware 4.7.2 fixes overheating.'],
        ]),
      );
      expect(pdf.status).toBe(202);
      const long = await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, {
        ...p(),
        body: { title: 'Warranty', text: LONG },
      });
      expect(long.status).toBe(202);

      const { docs, statuses } = await waitIndexed();
      expect(docs).toHaveLength(5);
      for (const d of docs) expect(d, d.title).toMatchObject({ status: 'indexed', progress: 1, error: null });
      expect(docs.every((d) => d.chunkCount >= 1 && d.indexedAt)).toBe(true);
      const w = docs.find((d) => d.title === 'Warranty');
      expect(w.chunkCount).toBeGreaterThan(5); // ~4.6k chars in 512-char chunks with 100 overlap
      expect(docs.find((d) => d.title === 'manual').pages).toBe(2);
      // Statuses only move forward, through the documented stages.
      const order = ['queued', 'parsing', 'embedding', 'indexed'];
      for (const [, s] of statuses)
        expect(s.map((x) => order.indexOf(x))).toEqual([...s.map((x) => order.indexOf(x))].sort((a, b) => a - b));
      expect(statuses.get(w.id)).toContain('embedding');
      const one = await call(getDoc, 'GET', `/api/knowledge-bases/${kbId}/documents/${w.id}`, p({ docId: w.id }));
      expect(one.body).toMatchObject({ id: w.id, status: 'indexed' });
    },
    180_000,
  );

  it('refuses unsupported files, missing files and unknown knowledge bases', async () => {
    expectError(
      await uploadFile('a.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'xx'),
      415,
      'UNSUPPORTED_DOCUMENT_TYPE',
    );
    const unknown = await call(uploadDoc, 'POST', '/api/knowledge-bases/kb_nope/documents', {
      params: { id: 'kb_nope' },
      body: { title: 't', text: 'x' },
    });
    expectError(unknown, 404, 'KNOWLEDGE_BASE_NOT_FOUND');
    expectError(
      await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, { ...p(), body: { title: 't' } }),
      400,
      'VALIDATION_ERROR',
      'text',
    );
    expectError(
      await call(search, 'POST', '/api/knowledge-bases/kb_nope/search', {
        params: { id: 'kb_nope' },
        body: { query: 'x' },
      }),
      404,
      'KNOWLEDGE_BASE_NOT_FOUND',
    );
    expectError(await find(''), 400, 'VALIDATION_ERROR', 'query');
    expectError(await find('x', { mode: 'fuzzy' }), 400, 'VALIDATION_ERROR', 'mode');
  });

  it('searches with citations, component scores, modes, threshold and PDF pages', async () => {
    const a = await find('ERR-4521');
    expect(a.status).toBe(200);
    expect(a.body.query).toBe('ERR-4521');
    const top = a.body.hits[0];
    expect(top).toMatchObject({ citation: '[1]', title: 'errors', chunkIndex: 0, page: null });
    expect(top.text).toContain('ERR-4521');
    // A Markdown chunk also says the headings it sits under.
    expect(Object.keys(top).sort()).toEqual(
      [
        'bm25',
        'chunkIndex',
        'citation',
        'documentId',
        'end',
        'headingPath',
        'knn',
        'page',
        'score',
        'start',
        'text',
        'title',
      ].sort(),
    );
    expect(top.headingPath).toEqual(['Error codes']);
    expect(a.body.hits.map((h: any) => h.citation)).toEqual(a.body.hits.map((_: any, i: number) => `[${i + 1}]`));
    expect(a.body.hits.length).toBeLessThanOrEqual(5);
    expect(top.bm25).toBeGreaterThan(0);
    expect(top.knn).toBeGreaterThan(0);

    // Paraphrase, no shared words: found by the vector side.
    const para = await find('Can I bring my puppy?', { topK: 3 });
    expect(para.body.hits[0].title).toBe('Pets at work');
    const vec = await find('Can I bring my puppy?', { topK: 2, mode: 'vector' });
    expect(vec.body.hits[0]).toMatchObject({ title: 'Pets at work', bm25: null });
    expect(vec.body.hits[0].score).toBe(vec.body.hits[0].knn);
    const kw = await find('puppy', { mode: 'bm25' });
    expect(kw.body.hits).toEqual([]);

    const page2 = await find('firmware overheating', { topK: 1, mode: 'bm25' });
    expect(page2.body.hits[0]).toMatchObject({ title: 'manual', page: 2 });
    expect(page2.body.hits[0].text).toContain('firmware 4.7.2');

    // Script content was stripped from the HTML.
    expect((await find('secretScriptWord', { mode: 'bm25' })).body.hits).toEqual([]);

    const all = await find('warranty device', { topK: 10 });
    const cut = all.body.hits[3].score;
    const th = await find('warranty device', { topK: 10, threshold: cut });
    expect(th.body.hits.length).toBe(4);
    expect(th.body.hits.every((h: any) => h.score >= cut)).toBe(true);
  });

  it('re-uploading a title replaces the older document once the new one is indexed', async () => {
    const before = (await call(listDocs, 'GET', `/api/knowledge-bases/${kbId}/documents`, p())).body.find(
      (d: any) => d.title === 'Refund policy',
    );
    const a = await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, {
      ...p(),
      body: { title: 'Refund policy', text: 'Refunds are now possible within 60 days, store credit only.' },
    });
    expect(a.status).toBe(202);
    const { docs } = await waitIndexed();
    const refunds = docs.filter((d) => d.title === 'Refund policy');
    expect(refunds.map((d) => d.id)).toEqual([a.body.id]);
    expect(refunds[0].id).not.toBe(before.id);
    const hits = (await find('refund days', { topK: 10, mode: 'bm25' })).body.hits;
    expect(hits.some((h: any) => h.text.includes('60 days'))).toBe(true);
    expect(hits.some((h: any) => h.text.includes('30 days'))).toBe(false);
  });

  it('deleting a document removes its chunks', async () => {
    const docs = (await call(listDocs, 'GET', `/api/knowledge-bases/${kbId}/documents`, p())).body;
    const errors = docs.find((d: any) => d.title === 'errors');
    const del = await call(
      deleteDoc,
      'DELETE',
      `/api/knowledge-bases/${kbId}/documents/${errors.id}`,
      p({ docId: errors.id }),
    );
    expect(del.status).toBe(204);
    expect((await find('ERR-4521', { mode: 'bm25' })).body.hits).toEqual([]);
    expect((await find('ERR-4521')).body.hits.some((h: any) => h.documentId === errors.id)).toBe(false);
    expectError(
      await call(deleteDoc, 'DELETE', `/api/knowledge-bases/${kbId}/documents/${errors.id}`, p({ docId: errors.id })),
      404,
      'DOCUMENT_NOT_FOUND',
    );
    const kb = await call(getKb, 'GET', `/api/knowledge-bases/${kbId}`, p());
    expect(kb.body.documentCount).toBe(4);
  });

  it('deleting the knowledge base removes its documents and index', async () => {
    const a = await call(deleteKb, 'DELETE', `/api/knowledge-bases/${kbId}`, p());
    expect(a.status).toBe(204);
    expectError(await call(getKb, 'GET', `/api/knowledge-bases/${kbId}`, p()), 404, 'KNOWLEDGE_BASE_NOT_FOUND');
    expectError(await find('dogs'), 404, 'KNOWLEDGE_BASE_NOT_FOUND');
    expect(existsSync(path.join(dataDir, 'knowledge', kbId))).toBe(false);
    expect(readdirSync(path.join(dataDir, 'knowledge')).filter((f) => f.startsWith('kb_'))).toEqual([]);
    expectNoServerErrorsOrStacks();
  });
});
