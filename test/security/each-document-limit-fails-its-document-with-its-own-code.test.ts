/**
 * Guarantee: every document limit is configurable by its environment variable and fails only the document over it,
 * with its own code and the limit named in the message: DOCUMENT_TOO_MANY_PAGES (DOCUMENT_MAX_PAGES),
 * DOCUMENT_TOO_MANY_CHUNKS (DOCUMENT_MAX_CHUNKS), DOCUMENT_TOO_LARGE (DOCUMENT_MAX_CHARS, for text and for a PDF,
 * whose reading stops there), DOCUMENT_INFLATED_TOO_LARGE (DOCUMENT_MAX_INFLATED_BYTES) and DOCUMENT_PARSE_TIMEOUT
 * (DOCUMENT_PARSE_TIMEOUT_MS). A document within the limits is indexed. The limits are read per document, so each
 * case sets its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { makePdf } from '../knowledge/support/make-pdf';
import { makePdfBomb } from './support/make-pdf-bomb';
import {
  createKnowledgeBase,
  MB,
  scriptedEmbedder,
  uploadFile,
  uploadText,
  waitForDocument,
} from './support/knowledge-api';

useFreshDataDir('paiflow-doc-limits-');
process.env.SEED_EXAMPLE = '0';
// The limits are the subject: documents embed on a scripted server, not after the offline model's first load.
const embedder = await scriptedEmbedder();
const LIMITS = [
  'DOCUMENT_MAX_PAGES',
  'DOCUMENT_MAX_CHUNKS',
  'DOCUMENT_MAX_CHARS',
  'DOCUMENT_MAX_INFLATED_BYTES',
  'DOCUMENT_PARSE_TIMEOUT_MS',
];

let kbId = '';
beforeAll(async () => {
  await getApp();
  kbId = await createKnowledgeBase('Limits', { chunkSize: 100, chunkOverlap: 0, ...(await embedder.kb()) });
});
afterEach(() => {
  for (const name of LIMITS) delete process.env[name];
});
afterAll(async () => {
  await (await getApp()).close();
  await embedder.server.close();
});

const sentences = (n: number) => Array.from({ length: n }, (_, i) => `Sentence ${i} of the document.`).join(' ');
const pdfPages = (n: number) => makePdf(Array.from({ length: n }, (_, i) => [`Page ${i + 1} of the manual.`]));

async function failsWith(docId: string, code: string, limit: RegExp) {
  const d = await waitForDocument(kbId, docId);
  expect({ status: d.status, code: d.error?.code }).toEqual({ status: 'failed', code });
  expect(d.error.message).toMatch(limit);
}

describe('document limits', () => {
  // The file's first documents start the documents' worker thread: minutes on a loaded machine.
  it('DOCUMENT_MAX_PAGES → DOCUMENT_TOO_MANY_PAGES; a PDF at the limit is indexed', { timeout: 180_000 }, async () => {
    process.env.DOCUMENT_MAX_PAGES = '3';
    const over = await uploadFile(kbId, 'five.pdf', 'application/pdf', pdfPages(5));
    const at = await uploadFile(kbId, 'three.pdf', 'application/pdf', pdfPages(3));
    await failsWith(over, 'DOCUMENT_TOO_MANY_PAGES', /5 pages; the limit is 3 \(DOCUMENT_MAX_PAGES\)/);
    expect(await waitForDocument(kbId, at)).toMatchObject({ status: 'indexed', pages: 3, chunkCount: 3 });
  });

  it('DOCUMENT_MAX_CHUNKS → DOCUMENT_TOO_MANY_CHUNKS, before anything is embedded', async () => {
    process.env.DOCUMENT_MAX_CHUNKS = '20';
    const over = await uploadText(kbId, 'Long', sentences(200));
    const under = await uploadText(kbId, 'Short', sentences(10));
    await failsWith(over, 'DOCUMENT_TOO_MANY_CHUNKS', /the limit is 20 \(DOCUMENT_MAX_CHUNKS\)/);
    expect(await waitForDocument(kbId, under)).toMatchObject({ status: 'indexed' });
  });

  it('DOCUMENT_MAX_CHARS → DOCUMENT_TOO_LARGE, for a text and for a PDF', async () => {
    process.env.DOCUMENT_MAX_CHARS = '1000';
    const text = await uploadText(kbId, 'Big text', sentences(60));
    const pdf = await uploadFile(kbId, 'big.pdf', 'application/pdf', pdfPages(60));
    await failsWith(text, 'DOCUMENT_TOO_LARGE', /the limit is 1000 \(DOCUMENT_MAX_CHARS\)/);
    await failsWith(pdf, 'DOCUMENT_TOO_LARGE', /the limit is 1000 \(DOCUMENT_MAX_CHARS\)/);
  });

  it('DOCUMENT_MAX_INFLATED_BYTES → DOCUMENT_INFLATED_TOO_LARGE', async () => {
    process.env.DOCUMENT_MAX_INFLATED_BYTES = String(MB);
    const bomb = await uploadFile(kbId, 'b.pdf', 'application/pdf', makePdfBomb({ inflatedBytes: 8 * MB }));
    await failsWith(bomb, 'DOCUMENT_INFLATED_TOO_LARGE', /the limit is 1048576 \(DOCUMENT_MAX_INFLATED_BYTES\)/);
  });

  it('DOCUMENT_PARSE_TIMEOUT_MS → DOCUMENT_PARSE_TIMEOUT (pdf.js decoding 1 GB of zeros takes seconds)', async () => {
    process.env.DOCUMENT_MAX_INFLATED_BYTES = String(4096 * MB);
    process.env.DOCUMENT_PARSE_TIMEOUT_MS = '300';
    const bomb = await uploadFile(kbId, 'slow.pdf', 'application/pdf', makePdfBomb({ inflatedBytes: 1024 * MB }));
    await failsWith(bomb, 'DOCUMENT_PARSE_TIMEOUT', /longer than 300 ms \(DOCUMENT_PARSE_TIMEOUT_MS\)/);
    expectNoServerErrorsOrStacks();
  });
});
