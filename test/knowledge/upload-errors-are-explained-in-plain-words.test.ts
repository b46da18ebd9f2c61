/**
 * Guarantee: what the knowledge page shows for a failed upload or a failed indexing is plain words (what happened,
 * what to do), with the server's code and message kept as the detail — for the real answers of the real routes
 * (a refused file type at upload, a damaged PDF and a file without text failing while indexed) — and the counts
 * the page shows for the knowledge base on screen follow its documents, not the list read before the upload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listDocs, POST as uploadDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { GET as listKbs, POST as createKb } from '@/app/api/knowledge-bases/route';
import { countsLabel, countsOf, indexing } from '@/components/knowledge/knowledge-counts';
import type { KnowledgeBase, KnowledgeDocument } from '@/components/knowledge/knowledge-api';
import { explainKnowledgeError, explainThrown } from '@/components/knowledge/upload-errors';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { ownerHeaders } from '../support/owner';

useFreshDataDir('paiflow-kerr-');
process.env.SEED_EXAMPLE = '0';

let kbId = '';

async function uploadFile(name: string, type: string, bytes: string) {
  const form = new FormData();
  form.set('file', new File([bytes], name, { type }));
  const req = new Request(`http://localhost/api/knowledge-bases/${kbId}/documents`, {
    method: 'POST',
    body: form,
    headers: await ownerHeaders(await getApp()),
  });
  const res = await uploadDoc(req, { params: Promise.resolve({ id: kbId }) });
  return { status: res.status, body: await res.json() };
}

async function settled(): Promise<KnowledgeDocument[]> {
  for (let i = 0; i < 400; i++) {
    const a = await call(listDocs, 'GET', `/api/knowledge-bases/${kbId}/documents`, { params: { id: kbId } });
    if (!indexing(a.body)) return a.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('documents still indexing');
}

beforeAll(async () => {
  await getApp();
  const kb = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: 'Errors' } });
  expect(kb.status).toBe(201);
  kbId = kb.body.id;
});

afterAll(async () => {
  await (await getApp()).close();
});

describe('failed uploads on the knowledge page', () => {
  it('a refused file type says which files work, with the code as detail', async () => {
    const a = await uploadFile('tool.exe', 'application/octet-stream', 'MZ\u0000\u0000');
    expect(a.status).toBe(415);
    const shown = explainKnowledgeError(a.body.error);
    expect(shown.title).toBe(
      'This kind of file cannot be indexed. Upload a .txt, .md, .html, .pdf, .docx, .csv or .jsonl file.',
    );
    expect(shown.title).not.toContain('UNSUPPORTED_DOCUMENT_TYPE');
    expect(shown.detail).toMatch(/^UNSUPPORTED_DOCUMENT_TYPE at file: unsupported document type \.exe/);
    // The page's client throws the same envelope as an error with a code: explained the same way.
    const thrown = Object.assign(new Error(a.body.error.message), a.body.error);
    expect(explainThrown(thrown)).toEqual(shown);
  });

  it('a damaged PDF and a file without text fail while indexing, each explained', async () => {
    expect((await uploadFile('broken.pdf', 'application/pdf', '%PDF-1.4 this is not a pdf')).status).toBe(202);
    expect((await uploadFile('blank.txt', 'text/plain', '   \n\n  ')).status).toBe(202);
    const docs = await settled();
    const byTitle = new Map(docs.map((d) => [d.title, d]));
    const broken = byTitle.get('broken')!;
    expect(broken.status).toBe('failed');
    expect(explainKnowledgeError(broken.error!)).toMatchObject({
      title: 'The file could not be read: it may be damaged, encrypted, or not really the type its name says.',
      code: 'DOCUMENT_PARSE_FAILED',
    });
    const blank = byTitle.get('blank')!;
    expect(blank.status).toBe('failed');
    const shown = explainKnowledgeError(blank.error!);
    expect(shown.title).toBe('No text was found in the file (a scanned PDF holds only images of text).');
    expect(shown.detail).toContain('EMPTY_DOCUMENT');
    expectNoServerErrorsOrStacks();
  });

  it('an unknown code shows the server’s own sentence; a network failure says so', () => {
    expect(explainKnowledgeError({ code: 'SOMETHING_NEW', message: 'the index is being rebuilt' }).title).toBe(
      'the index is being rebuilt',
    );
    expect(explainThrown(new TypeError('Failed to fetch')).title).toMatch(/could not be reached \(Failed to fetch\)/);
  });

  it('the upload limit is given as a size', () => {
    const e = { code: 'PAYLOAD_TOO_LARGE', message: 'the upload exceeds the limit of 20971520 bytes' };
    expect(explainKnowledgeError(e).title).toBe(
      'The file is too large to upload (the limit is 20 MB). Split it into smaller files.',
    );
  });
});

describe('counts on the knowledge page', () => {
  it('the knowledge base on screen counts its documents as they are indexed; the others keep the list’s', async () => {
    const listed = (await call(listKbs, 'GET', '/api/knowledge-bases')).body as KnowledgeBase[];
    const kb = listed.find((k) => k.id === kbId)!;
    const other = { ...kb, id: 'kb_other', documentCount: 4, chunkCount: 40 };
    const doc = (id: string, status: KnowledgeDocument['status'], chunkCount: number) =>
      ({ id, title: id, mime: 'text/plain', status, progress: 0.5, error: null, chunkCount, pages: null }) as never;
    // Read before anything was uploaded: "0 docs · 0 chunks" …
    expect(countsLabel(countsOf({ ...kb, documentCount: 0, chunkCount: 0 }, null, []))).toBe('0 docs · 0 chunks');
    // … then the documents polled while indexing: the counts follow them with no new read of the list.
    const polled: KnowledgeDocument[] = [doc('a', 'indexed', 3), doc('b', 'embedding', 0)];
    expect(indexing(polled)).toBe(true);
    expect(countsLabel(countsOf({ ...kb, documentCount: 0, chunkCount: 0 }, kbId, polled))).toBe('2 docs · 3 chunks');
    expect(countsLabel(countsOf(other, kbId, polled))).toBe('4 docs · 40 chunks');
    // And the server's list agrees with what the page counts from the documents.
    const docs = await settled();
    expect(countsOf(kb, null, [])).toEqual(countsOf(kb, kbId, docs));
  });
});
