/**
 * Upload, wait and search through the knowledge routes, as the file-format tests (docx-*, csv-*) use them: a
 * multipart upload recorded in `seen` (so expectNoServerErrorsOrStacks covers it), a wait until every document of
 * the knowledge base is indexed or failed, and a search.
 */
import { expect } from 'vitest';
import { GET as listDocs, POST as uploadDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { POST as search } from '@/app/api/knowledge-bases/[id]/search/route';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { getApp } from '@/lib/server/app';
import { call, seen, type Answer } from '../../api/api-helpers';
import { ownerHeaders } from '../../support/owner';

export async function createKnowledgeBase(name: string, body: Record<string, unknown> = {}): Promise<string> {
  const a = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name, ...body } });
  expect(a.status, a.text).toBe(201);
  return a.body.id;
}

export async function uploadFile(kbId: string, name: string, type: string, bytes: Uint8Array | string) {
  const form = new FormData();
  form.set('file', new File([bytes as BlobPart], name, { type }));
  const req = new Request(`http://localhost/api/knowledge-bases/${kbId}/documents`, {
    method: 'POST',
    body: form,
    headers: await ownerHeaders(await getApp()),
  });
  const res = await uploadDoc(req, { params: Promise.resolve({ id: kbId }) });
  const text = await res.text();
  seen.push({ method: 'POST', url: `/api/knowledge-bases/${kbId}/documents`, status: res.status, text });
  return { status: res.status, body: JSON.parse(text), text, headers: res.headers } satisfies Answer;
}

/** Polls the document list until no document is queued or being indexed; returns the documents. */
export async function waitSettled(kbId: string, timeoutMs = 150_000): Promise<any[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const a = await call(listDocs, 'GET', `/api/knowledge-bases/${kbId}/documents`, { params: { id: kbId } });
    expect(a.status).toBe(200);
    if (a.body.every((d: any) => d.status === 'indexed' || d.status === 'failed')) return a.body;
    if (Date.now() > until)
      throw new Error(`still indexing: ${JSON.stringify(a.body.map((d: any) => [d.title, d.status]))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function searchKb(kbId: string, query: string, extra: Record<string, unknown> = {}) {
  return call(search, 'POST', `/api/knowledge-bases/${kbId}/search`, {
    params: { id: kbId },
    body: { query, ...extra },
  });
}
