/**
 * Guarantee: a document whose parsing outgrows its memory — here the 1 GB PDF bomb with the inflation check set
 * above it, so that pdf.js itself decodes the stream (as it would an encrypted bomb, which the check cannot read) —
 * is parsed in a worker thread: while pdf.js works on it, /api/health answers and a search of another knowledge base
 * is served; the worker is ended when the process has grown by DOCUMENT_WORKER_MEMORY_MB, the document fails with
 * DOCUMENT_OUT_OF_MEMORY, memory stays bounded and the next document is indexed. Shown by order, not by timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { POST as search } from '@/app/api/knowledge-bases/[id]/search/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { makePdfBomb } from './support/make-pdf-bomb';
import {
  createKnowledgeBase,
  getDocument,
  MB,
  sampleRss,
  scriptedEmbedder,
  uploadFile,
  uploadText,
  waitForDocument,
} from './support/knowledge-api';

useFreshDataDir('paiflow-doc-memory-');
process.env.SEED_EXAMPLE = '0';
process.env.DOCUMENT_MAX_INFLATED_BYTES = String(4096 * MB);
process.env.DOCUMENT_WORKER_MEMORY_MB = '256';
// Parsing is the subject: the knowledge bases embed on a scripted server, not after the offline model's first load.
const embedder = await scriptedEmbedder();

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  await (await getApp()).close();
  await embedder.server.close();
});

describe('a document that outgrows its worker', () => {
  it('fails with DOCUMENT_OUT_OF_MEMORY while the server keeps answering', async () => {
    const other = await createKnowledgeBase('Handbook', await embedder.kb());
    const otherDoc = await uploadText(other, 'Pets at work', 'Dogs are welcome in the office on Fridays.');
    expect((await waitForDocument(other, otherDoc)).status).toBe('indexed');

    const kbId = await createKnowledgeBase('Reports', await embedder.kb());
    const rss = sampleRss();
    const bombId = await uploadFile(kbId, 'report.pdf', 'application/pdf', makePdfBomb({ inflatedBytes: 1024 * MB }));
    const nextId = await uploadText(kbId, 'Travel policy', 'Employees book economy class for flights under six hours.');
    expect((await waitForDocument(kbId, bombId, (d) => d.status === 'parsing')).status).toBe('parsing');

    // pdf.js is decoding the bomb in its worker. The server answers …
    const h = await call(health, 'GET', '/api/health');
    expect(h.status).toBe(200);
    const hits = await call(search, 'POST', `/api/knowledge-bases/${other}/search`, {
      params: { id: other },
      body: { query: 'dogs in the office' },
    });
    expect(hits.body.hits[0]).toMatchObject({ documentId: otherDoc, title: 'Pets at work' });
    // … before the bomb is done with.
    expect((await getDocument(kbId, bombId)).status).toBe('parsing');

    const failed = await waitForDocument(kbId, bombId);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('DOCUMENT_OUT_OF_MEMORY');
    expect(failed.error.message).toMatch(/more than 256 MB of memory \(DOCUMENT_WORKER_MEMORY_MB\)/);
    expect(await waitForDocument(kbId, nextId)).toMatchObject({ status: 'indexed', chunkCount: 1 });
    // Ended at 256 MB of growth (sampled every 50 ms), not at the bomb's gigabyte.
    expect((rss.stop() - rss.baseline) / MB).toBeLessThan(700);
    expectNoServerErrorsOrStacks();
    // Order is what is asserted, not time: a loaded CI machine may take minutes over the bomb.
  }, 240_000);
});
