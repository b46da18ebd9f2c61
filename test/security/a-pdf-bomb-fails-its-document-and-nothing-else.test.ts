/**
 * Guarantee: a PDF bomb — a valid 1 MB PDF whose FlateDecode content stream inflates to 1 GB of zeros, made here —
 * fails its own document with DOCUMENT_INFLATED_TOO_LARGE (the limit, DOCUMENT_MAX_INFLATED_BYTES, is in the
 * message), the process's memory stays bounded (pdf.js alone took it from 0.1 to 2.3 GB), the document uploaded
 * right after it is indexed and searchable, and /api/health answers throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { POST as search } from '@/app/api/knowledge-bases/[id]/search/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { makePdfBomb } from './support/make-pdf-bomb';
import {
  createKnowledgeBase,
  MB,
  sampleRss,
  scriptedEmbedder,
  uploadFile,
  uploadText,
  waitForDocument,
} from './support/knowledge-api';

useFreshDataDir('paiflow-pdf-bomb-');
process.env.SEED_EXAMPLE = '0';
delete process.env.DOCUMENT_MAX_INFLATED_BYTES; // the default limit, 128 MiB
// The bomb is the subject: documents embed on a scripted server, not after the offline model's first load.
const embedder = await scriptedEmbedder();

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  await (await getApp()).close();
  await embedder.server.close();
});

describe('a PDF bomb', () => {
  it('fails its document with DOCUMENT_INFLATED_TOO_LARGE; the next document is indexed', async () => {
    const kbId = await createKnowledgeBase('Reports', await embedder.kb());
    const bomb = makePdfBomb({ inflatedBytes: 1024 * MB });
    expect(bomb.byteLength).toBeLessThan(2 * MB);
    const rss = sampleRss();
    const bombId = await uploadFile(kbId, 'report.pdf', 'application/pdf', bomb);
    const nextId = await uploadText(kbId, 'Travel policy', 'Employees book economy class for flights under six hours.');

    const failed = await waitForDocument(kbId, bombId);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('DOCUMENT_INFLATED_TOO_LARGE');
    expect(failed.error.message).toMatch(/the limit is 134217728 \(DOCUMENT_MAX_INFLATED_BYTES\)/);
    expect((await call(health, 'GET', '/api/health')).status).toBe(200);

    const next = await waitForDocument(kbId, nextId);
    expect(next).toMatchObject({ status: 'indexed', chunkCount: 1 });
    const peak = rss.stop();
    const hits = await call(search, 'POST', `/api/knowledge-bases/${kbId}/search`, {
      params: { id: kbId },
      body: { query: 'economy flights' },
    });
    expect(hits.body.hits.map((h: any) => h.documentId)).toEqual([nextId]);
    // Inflating the bomb for the check keeps nothing; what grew is the worker threads.
    expect((peak - rss.baseline) / MB).toBeLessThan(600);
    expectNoServerErrorsOrStacks();
    // The file's first document starts the documents' worker thread: minutes on a loaded machine.
  }, 180_000);
});
