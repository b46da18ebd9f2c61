/**
 * Knowledge-base calls through the real route handlers, as the security tests need them: create a knowledge base,
 * upload a file (multipart) or a text, read a document, wait for a document to reach a status, sample the process's
 * peak RSS while something runs; embed on a scripted OpenAI-compatible server instead of the offline model.
 */
import { expect } from 'vitest';
import { POST as createCred } from '@/app/api/credentials/route';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fake-openai-server';
import { GET as getDoc } from '@/app/api/knowledge-bases/[id]/documents/[docId]/route';
import { POST as uploadDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { getApp } from '@/lib/server/app';
import { call, seen } from '../../api/api-helpers';
import { ownerHeaders } from '../../support/owner';

export async function createKnowledgeBase(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const a = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name, ...extra } });
  expect(a.status, a.text).toBe(201);
  return a.body.id;
}

export async function uploadFile(kbId: string, name: string, type: string, bytes: Uint8Array): Promise<string> {
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
  expect(res.status, text).toBe(202);
  return JSON.parse(text).id;
}

export async function uploadText(kbId: string, title: string, text: string): Promise<string> {
  const a = await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, {
    params: { id: kbId },
    body: { title, text },
  });
  expect(a.status, a.text).toBe(202);
  return a.body.id;
}

export async function getDocument(kbId: string, docId: string): Promise<any> {
  const a = await call(getDoc, 'GET', `/api/knowledge-bases/${kbId}/documents/${docId}`, {
    params: { id: kbId, docId },
  });
  expect(a.status, a.text).toBe(200);
  return a.body;
}

/** Polls the document until `until(doc)` holds (or it is indexed / failed, which ends the wait either way). */
export async function waitForDocument(
  kbId: string,
  docId: string,
  until: (doc: any) => boolean = () => false,
  timeoutMs = 120_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const d = await getDocument(kbId, docId);
    if (until(d) || d.status === 'indexed' || d.status === 'failed') return d;
    if (Date.now() > deadline) throw new Error(`document ${docId} still ${d.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Samples the process's RSS (main thread and worker threads together) until stop() is called; returns the peak. */
export function sampleRss(): { stop(): number; baseline: number } {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  return {
    baseline,
    stop() {
      clearInterval(t);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

export const MB = 1024 * 1024;

/**
 * An OpenAI-compatible embedder on this machine (the scripted server, real SDK over real HTTP), for files whose
 * guarantee is parsing or a limit, not the offline model: their documents are embedded in milliseconds instead of
 * after the model's first load (seconds; minutes under CI load). Start it before the app (it allowlists its port);
 * `kb()` is what a knowledge-base body adds to use it (a credential is made on first use).
 */
export async function scriptedEmbedder(): Promise<{ server: FakeOpenAi; kb(): Promise<Record<string, unknown>> }> {
  const server = await startFakeOpenAi();
  process.env.HTTP_ALLOWLIST = new URL(server.baseURL).host;
  let credentialId: string | undefined;
  return {
    server,
    async kb() {
      if (!credentialId) {
        const c = await call(createCred, 'POST', '/api/credentials', {
          body: {
            name: 'embeddings',
            type: 'openai',
            data: { baseUrl: server.baseURL, apiKey: 'sk-embed-0123456789' },
          },
        });
        expect(c.status, c.text).toBe(201);
        credentialId = c.body.id as string;
      }
      return { credentialId, embeddingModel: 'openai:text-embedding-3-small' };
    },
  };
}
